"""PostgreSQL unreachable for a second, tablets split over two processes.

The test's own database stops taking connections and every connection to it is cut (the
other databases on the server are left alone), then it opens again. Log writes that fail
meanwhile are kept and retried by their host (the tablet hears "pending"), sockets that
reconnect meanwhile are asked to try again (4013) without a traceback, and play goes on by
itself: every acknowledged input is in the log exactly once.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING

import psycopg
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

OUTAGE_S = 1.0


def _database_open(name: str, *, open_: bool) -> None:
    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        connection.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS {str(open_).lower()}')
        if not open_:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )


async def _through_an_outage(site: Site, prepared: dict[str, object]) -> dict[str, object]:
    assert site.postgres_db is not None
    port_a, port_b = list(site.processes)
    table = SplitTable.of(prepared, homes=[port_a, port_b, port_b, port_a])
    await table.start()
    try:
        await until(lambda: table.acks() >= 6, 40, "play to start")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error

    await asyncio.to_thread(_database_open, site.postgres_db, open_=False)
    await asyncio.sleep(OUTAGE_S)
    await asyncio.to_thread(_database_open, site.postgres_db, open_=True)
    back_at = time.monotonic()
    before = table.acks()
    try:
        await until(lambda: table.acks() >= before + 8, 60, "play to go on")
        await until(lambda: table.every_tablet_acked_after(back_at), 60, "every tablet to play")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error
    first = table.acks_after(back_at)[0] - back_at
    everyone = (
        max(min(at for at in tablet.ack_times if at > back_at) for tablet in table.tablets)
        - back_at
    )
    await table.finish()
    return {"first_s": first, "every_tablet_s": everyone, "acknowledged": table.acknowledged()}


@pytest.mark.timeout(240)
def test_play_goes_on_after_the_database_was_unreachable(tmp_path: Path) -> None:
    require("redis")
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    try:
        prepared = palm_strike(site, players=4, table_size=4, settings=TAP)
        site.start()
        site.start()
        try:
            outcome = asyncio.run(_through_an_outage(site, prepared))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
        log = table_log(site, prepared["seats"][0]["table"])  # type: ignore[index]
        no_tracebacks(site, "Traceback")
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)

    print(
        f"PostgreSQL down {OUTAGE_S} s, then back: first ack {outcome['first_s']:.2f} s, "
        f"an ack on every tablet within {outcome['every_tablet_s']:.2f} s"
    )
    assert_nothing_lost(log, outcome["acknowledged"])  # type: ignore[arg-type]
