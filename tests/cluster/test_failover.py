"""Failover: two processes on Redis and PostgreSQL; the table's owner is killed (kill -9).

A scripted table of four plays Palm Strike. ``proxy``: every tablet goes through HAProxy (the
layout of docs/operations.md: the session's sockets on one process, which owns the table).
``split``: two tablets on each process, straight to its port. When the owner dies, its lease
runs out, the other process takes the table over by replaying the log, and the tablets
reconnect to it.
Every tablet resumes (a view from the new owner), and every input the server acknowledged is
in the action log exactly once (retries of unanswered inputs included).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import psycopg
import pytest

from tests.cluster.processes import cluster_site, drop_database, palm_strike_session
from tests.cluster.tablets import ScriptedTablet
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tests.cluster.processes import Site

# The goal (issue 16): every tablet back within 5 s of the kill. Measured and printed here,
# not asserted: on a loaded 2-core machine one slow reconnect would make it flaky.
RESUME_GOAL_S = 5.0
PER_TABLE = 4


async def _until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


def _routes(site: Site, layout: str, count: int) -> tuple[list[Callable[[], list[int]]], set[int]]:
    port_a, port_b = list(site.processes)
    alive = {port_a, port_b}
    if layout == "proxy":
        assert site.proxy_port is not None
        through = site.proxy_port
        return [lambda: [through]] * count, alive

    def via(port: int) -> Callable[[], list[int]]:
        # Each tablet keeps to its process while it lives, then goes to one that is alive.
        return lambda: [port] if port in alive else sorted(alive)

    homes = [port_a, port_b, port_b, port_a]
    return [via(homes[n % 4]) for n in range(count)], alive


def _busiest_port(site: Site) -> int:
    """The port of the process that hosts the most tables (from its /_diagnostics/)."""
    import json
    import urllib.request

    hosted = {}
    for port in site.processes:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/_diagnostics/", timeout=5) as r:
            hosted[port] = json.loads(r.read())["live_tables"]
    return max(hosted, key=lambda port: hosted[port])


async def _play_through_a_kill(site: Site, prepared: dict[str, Any], layout: str) -> dict[str, Any]:
    seats = sorted(prepared["seats"], key=lambda seat: seat["table"])
    routes, alive = _routes(site, layout, len(seats))
    tablets = [
        ScriptedTablet(f"t{n}", str(prepared["code"]), seat["token"], routes[n])
        for n, seat in enumerate(seats)
    ]
    stop = asyncio.Event()
    # The first tablet of each table starts it (on process A in the split layout).
    firsts = [tablets[n] for n in range(0, len(tablets), PER_TABLE)]
    tasks = [asyncio.create_task(tablet.run(stop)) for tablet in firsts]
    await _until(lambda: all(tablet.views > 0 for tablet in firsts), 20)
    tasks += [asyncio.create_task(t.run(stop)) for t in tablets if t not in firsts]
    try:
        await _until(lambda: sum(len(t.acknowledged) for t in tablets) >= 6 * len(firsts), 30)
    except AssertionError as error:
        states = [(t.name, t.connects, t.views, t.close_codes) for t in tablets]
        raise AssertionError(f"play did not start: {states}") from error

    owner = await asyncio.to_thread(_busiest_port, site)
    epoch_before = 1  # every table's first owner
    before = sum(len(t.acknowledged) for t in tablets)
    killed_at = time.monotonic()
    site.kill(owner)
    alive.discard(owner)

    def resumed(tablet: ScriptedTablet) -> bool:
        return any(epoch > epoch_before for _at, epoch in tablet.view_times)

    try:
        await _until(lambda: all(resumed(t) for t in tablets), 20)
        await _until(
            lambda: sum(len(t.acknowledged) for t in tablets) >= before + 4 * len(firsts), 20
        )
    except AssertionError as error:
        raise AssertionError(f"play did not resume: {_timelines(tablets, killed_at)}") from error
    stop.set()
    await asyncio.gather(*tasks)
    return {
        "resumes_s": sorted(
            min(at for at, epoch in t.view_times if epoch > epoch_before) - killed_at
            for t in tablets
        ),
        "first_ack_s": min(at for t in tablets for at in t.ack_times if at > killed_at) - killed_at,
        "acknowledged": set().union(*(t.acknowledged for t in tablets)),
        "timelines": _timelines(tablets, killed_at),
    }


def _timelines(tablets: list[ScriptedTablet], since: float) -> str:
    return "\n".join(
        f"{t.name}: " + ", ".join(f"{at - since:+.2f} {what}" for at, what in t.timeline)
        for t in tablets
    )


def _logs(site: Site) -> dict[int, list[tuple[int, str, int]]]:
    """Each table's action log: (seq, client id, epoch) in order."""
    with psycopg.connect(site.env["DATABASE_URL"]) as connection:
        rows = connection.execute(
            "SELECT table_id, seq, client_id, epoch FROM classroom_actionlogentry"
            " ORDER BY table_id, seq"
        ).fetchall()
    logs: dict[int, list[tuple[int, str, int]]] = {}
    for table_id, seq, cid, epoch in rows:
        logs.setdefault(int(table_id), []).append((int(seq), str(cid), int(epoch)))
    return logs


@pytest.mark.timeout(150)
@pytest.mark.parametrize(("layout", "tables"), [("proxy", 4), ("split", 2)])
def test_the_owner_dies_and_the_other_process_takes_its_tables_over(
    tmp_path: Path, layout: str, tables: int
) -> None:
    require("redis")
    require("postgres")
    if layout == "proxy":
        require("haproxy")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    site.env["SNAPCLASS_DIAGNOSTICS"] = "1"  # to find the table's owner
    try:
        prepared = palm_strike_session(
            site,
            players=PER_TABLE * tables,
            per_table=PER_TABLE,
            settings={"flip_pacing": "tap", "response_window_s": 1.0},
        )
        site.start()
        site.start()
        if layout == "proxy":
            site.proxy_start()
        try:
            outcome = asyncio.run(_play_through_a_kill(site, prepared, layout))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
        logs = _logs(site)
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)

    resumes = outcome["resumes_s"]
    print(
        f"{layout}: tablets resumed {', '.join(f'{s:.2f}' for s in resumes)} s after the kill "
        f"(goal {RESUME_GOAL_S} s); first ack {outcome['first_ack_s']:.2f} s\n"
        f"{outcome['timelines']}"
    )
    stored = [cid for log in logs.values() for _seq, cid, _epoch in log if cid]
    acknowledged = outcome["acknowledged"]
    assert len(stored) == len(set(stored))  # nothing applied twice
    assert acknowledged <= set(stored)  # nothing acknowledged was lost
    assert len(logs) == tables
    for log in logs.values():
        assert [seq for seq, _cid, _epoch in log] == list(range(1, len(log) + 1))
        epochs = [epoch for _seq, _cid, epoch in log]
        assert epochs == sorted(epochs)
        assert len(set(epochs)) >= 2  # the new owner wrote with a higher epoch
