"""Restart in the embedded mode: the one process is killed (kill -9) mid-game and started again.

The tablets reconnect on their own (backoff with jitter), the new process rebuilds the table by
replaying its log, and play goes on from where it was: no acknowledged input is lost, none is
applied twice, and the tablets' views continue from the version they had.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.cluster.processes import embedded_site, palm_strike_session
from tests.cluster.tablets import ScriptedTablet

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tests.cluster.processes import Site


async def _until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


async def _play_through_a_restart(site: Site, prepared: dict[str, Any]) -> dict[str, Any]:
    (port,) = list(site.processes)
    tablets = [
        ScriptedTablet(f"t{n}", prepared["code"], seat["token"], lambda: list(site.processes))
        for n, seat in enumerate(prepared["seats"])
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(tablet.run(stop)) for tablet in tablets]

    def acknowledged() -> int:
        return sum(len(tablet.acknowledged) for tablet in tablets)

    await _until(lambda: acknowledged() >= 5, 30)
    before = {tablet.name: tablet._version for tablet in tablets}
    site.kill(port)
    killed_at = time.monotonic()
    await asyncio.sleep(1.0)  # the classroom laptop takes a moment to come back
    await asyncio.to_thread(site.start, port)
    restarted_at = time.monotonic()
    await _until(lambda: any(at > restarted_at for t in tablets for at in t.ack_times), 30)
    resumed_after = min(at for t in tablets for at in t.ack_times if at > killed_at) - killed_at
    count = acknowledged()
    await _until(lambda: acknowledged() >= count + 3, 30)
    stop.set()
    await asyncio.gather(*tasks)
    return {
        "resumed_after_s": resumed_after,
        "acknowledged": set().union(*(tablet.acknowledged for tablet in tablets)),
        "versions_before": before,
        "versions_after": {tablet.name: tablet._version for tablet in tablets},
        "reconnects": [tablet.connects for tablet in tablets],
    }


@pytest.mark.timeout(150)
def test_a_killed_process_restarts_and_the_table_goes_on(tmp_path: Path) -> None:
    site = embedded_site(tmp_path)
    prepared = palm_strike_session(
        site, players=3, settings={"flip_pacing": "tap", "response_window_s": 1.0}
    )
    site.start()
    try:
        outcome = asyncio.run(_play_through_a_restart(site, prepared))
    except AssertionError as error:
        raise AssertionError(f"{error}\n{site.log_tail()}") from error
    finally:
        site.stop_all()
    with sqlite3.connect(site.env["DATABASE_URL"].removeprefix("sqlite:///")) as connection:
        log = connection.execute(
            "SELECT seq, client_id, epoch FROM classroom_actionlogentry ORDER BY seq"
        ).fetchall()
    print(f"play resumed {outcome['resumed_after_s']:.2f} s after the kill (1 s of it down)")
    stored = [cid for _seq, cid, _epoch in log if cid]
    assert len(stored) == len(set(stored))  # nothing applied twice
    assert outcome["acknowledged"] <= set(stored)  # nothing acknowledged was lost
    assert [seq for seq, _cid, _epoch in log] == list(range(1, len(log) + 1))
    assert {epoch for _seq, _cid, epoch in log} == {1, 2}  # the restarted host fenced the old
    assert all(count >= 2 for count in outcome["reconnects"])
    for name, version in outcome["versions_before"].items():
        assert outcome["versions_after"][name] > version  # views went on, not back to zero
