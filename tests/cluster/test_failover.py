"""Failover: two processes on Redis and PostgreSQL; the table's owner is killed (kill -9).

A scripted table of four plays Palm Strike, two tablets on each process. When the owner dies,
its lease runs out, the other process takes the table over by replaying the log, and the
tablets reconnect to it. Play goes on within 5 s, and every input the server acknowledged is
in the action log exactly once (retries of unanswered inputs included).
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import psycopg
import pytest

from tests.cluster.processes import cluster_site, drop_database, palm_strike_session
from tests.cluster.tablets import ScriptedTablet
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path

    from tests.cluster.processes import Site

RESUME_WITHIN_S = 5.0


async def _until(condition: object, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


async def _play_through_a_kill(site: Site, prepared: dict[str, object]) -> dict[str, object]:
    port_a, port_b = list(site.processes)
    alive = {port_a, port_b}

    def via(port: int) -> object:
        # Each tablet keeps to its process while it lives, then the balancer sends it on.
        return lambda: [port] if port in alive else sorted(alive)

    seats = prepared["seats"]  # type: ignore[index]
    homes = [port_a, port_b, port_b, port_a]
    tablets = [
        ScriptedTablet(f"t{n}", str(prepared["code"]), seat["token"], via(homes[n]))  # type: ignore[arg-type]
        for n, seat in enumerate(seats)  # type: ignore[arg-type]
    ]
    stop = asyncio.Event()
    # The first tablet starts the table on process A, which becomes its owner.
    tasks = [asyncio.create_task(tablets[0].run(stop))]
    await _until(lambda: tablets[0].views > 0, 10)
    tasks += [asyncio.create_task(tablet.run(stop)) for tablet in tablets[1:]]
    try:
        await _until(lambda: sum(len(t.acknowledged) for t in tablets) >= 6, 30)
    except AssertionError as error:
        states = [(t.name, t.connects, t.views, t.close_codes) for t in tablets]
        raise AssertionError(f"play did not start: {states}") from error

    before = sum(len(t.acknowledged) for t in tablets)
    killed_at = time.monotonic()
    site.kill(port_a)
    alive.discard(port_a)
    await _until(lambda: any(at > killed_at for t in tablets for at in t.ack_times), 15)
    resumed_after = min(at for t in tablets for at in t.ack_times if at > killed_at) - killed_at
    await _until(lambda: sum(len(t.acknowledged) for t in tablets) >= before + 4, 20)
    stop.set()
    await asyncio.gather(*tasks)
    return {
        "resumed_after_s": resumed_after,
        "acknowledged": set().union(*(t.acknowledged for t in tablets)),
        "acknowledged_before_kill": before,
    }


def _log(site: Site) -> list[tuple[int, str, int]]:
    with psycopg.connect(site.env["DATABASE_URL"]) as connection:
        rows = connection.execute(
            "SELECT seq, client_id, epoch FROM classroom_actionlogentry ORDER BY seq"
        ).fetchall()
    return [(int(seq), str(cid), int(epoch)) for seq, cid, epoch in rows]


@pytest.mark.timeout(150)
def test_the_owner_dies_and_the_other_process_takes_the_table_over(tmp_path: Path) -> None:
    require("redis")
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    try:
        prepared = palm_strike_session(
            site, players=4, settings={"flip_pacing": "tap", "response_window_s": 1.0}
        )
        site.start()
        site.start()
        try:
            outcome = asyncio.run(_play_through_a_kill(site, prepared))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
        log = _log(site)
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)

    print(f"play resumed {outcome['resumed_after_s']:.2f} s after the kill")
    assert outcome["resumed_after_s"] < RESUME_WITHIN_S, outcome["resumed_after_s"]
    stored = [cid for _seq, cid, _epoch in log if cid]
    acknowledged = outcome["acknowledged"]
    assert isinstance(acknowledged, set)
    assert len(stored) == len(set(stored))  # nothing applied twice
    assert acknowledged <= set(stored)  # nothing acknowledged was lost
    assert [seq for seq, _cid, _epoch in log] == list(range(1, len(log) + 1))
    epochs = [epoch for _seq, _cid, epoch in log]
    assert epochs == sorted(epochs)
    assert len(set(epochs)) >= 2  # the new owner wrote with a higher epoch
