"""An owner that stalls past its lease (SIGSTOP, then SIGCONT), tablets split over two processes.

While the owner is stopped its lease runs out and the other process takes the table over by
replaying its log. When the stalled process wakes, it must write nothing more to that table
(fencing), hand its tablets on to the new owner (they reconnect and play through it), and go
on serving new tables: issue 16 saw its log writer die here (InvalidStateError) and freeze
every table it hosted. Every acknowledged input is in the log exactly once.
"""

from __future__ import annotations

import asyncio
import signal
import time
from typing import TYPE_CHECKING

import pytest

from tests.cluster.outage_play import (
    TAP,
    SplitTable,
    assert_nothing_lost,
    no_tracebacks,
    table_log,
    until,
)
from tests.cluster.processes import cluster_site, drop_database
from tests.faults.live import palm_strike
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path

    from tests.cluster.processes import Site

STALL_S = 3.5  # past the 2 s lease (issue 16 froze after 2.6-5 s)


async def _stall_the_owner(
    site: Site, first: dict[str, object], second: dict[str, object]
) -> dict[str, float]:
    owner, other = list(site.processes)
    table = SplitTable.of(first, homes=[owner, other, other, owner])
    await table.start()
    try:
        await until(lambda: table.acks() >= 6, 40, "play to start")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error

    stopped_at = time.monotonic()
    site.processes[owner].send_signal(signal.SIGSTOP)
    await asyncio.sleep(STALL_S)
    site.processes[owner].send_signal(signal.SIGCONT)
    woke_at = time.monotonic()
    before = table.acks()
    try:
        await until(lambda: table.every_tablet_viewed_after(woke_at) is not None, 40, "views")
        await until(lambda: table.every_tablet_acked_after(woke_at), 40, "every tablet to play")
        await until(lambda: table.acks() >= before + 8, 40, "play to go on")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error
    resumed_after = table.acks_after(woke_at)[0] - woke_at
    everyone_after = (
        max(min(at for at in tablet.ack_times if at > woke_at) for tablet in table.tablets)
        - woke_at
    )

    views = table.every_tablet_viewed_after(woke_at)

    # The process that stalled still hosts new tables: both tablets of a new class on it.
    fresh = SplitTable.of(second, homes=[owner, owner])
    await fresh.start()
    try:
        await until(lambda: fresh.acks() >= 4, 40, "a new table on the stalled process")
    except AssertionError as error:
        raise AssertionError(f"{error}: {fresh.states()}") from error
    await fresh.finish()
    await table.finish()
    return {
        "stopped_at": stopped_at,
        "resumed_after_s": resumed_after,
        "views_s": views,
        "every_tablet_after_s": everyone_after,
        "acknowledged": table.acknowledged(),  # type: ignore[dict-item]
        "fresh_acknowledged": fresh.acknowledged(),  # type: ignore[dict-item]
    }


@pytest.mark.timeout(240)
def test_an_owner_stalled_past_its_lease_hands_its_table_over_and_serves_on(
    tmp_path: Path,
) -> None:
    require("redis")
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    try:
        first = palm_strike(site, players=4, table_size=4, settings=TAP)
        second = palm_strike(site, players=2, table_size=2, settings=TAP)
        site.start()
        site.start()
        try:
            outcome = asyncio.run(_stall_the_owner(site, first, second))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
        first_table = first["seats"][0]["table"]  # type: ignore[index]
        second_table = second["seats"][0]["table"]  # type: ignore[index]
        log = table_log(site, first_table)
        fresh_log = table_log(site, second_table)
        no_tracebacks(site)
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)

    print(
        f"stall {STALL_S} s: after SIGCONT every tablet had a fresh view within "
        f"{outcome['views_s']:.2f} s, first ack {outcome['resumed_after_s']:.2f} s, "
        f"an ack on every tablet within {outcome['every_tablet_after_s']:.2f} s"
    )
    assert_nothing_lost(log, outcome["acknowledged"])  # type: ignore[arg-type]
    epochs = sorted({epoch for _seq, _cid, epoch in log})
    assert len(epochs) >= 2  # the other process took the table over, with a newer epoch
    assert_nothing_lost(fresh_log, outcome["fresh_acknowledged"])  # type: ignore[arg-type]
    assert fresh_log
