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
    Healing,
    SplitTable,
    assert_nothing_lost,
    no_tracebacks,
    play_through,
    table_log,
    two_processes,
)
from tests.faults.live import palm_strike
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path

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


@pytest.mark.timeout(240)
def test_play_goes_on_after_the_database_was_unreachable(tmp_path: Path) -> None:
    require("redis")
    with two_processes(tmp_path, redis_url=REDIS_URL) as site:
        prepared = palm_strike(site, players=4, table_size=4, settings=TAP)
        site.start()
        site.start()
        port_a, port_b = list(site.processes)
        table = SplitTable.of(prepared, homes=[port_a, port_b, port_b, port_a])
        name = site.postgres_db
        assert name is not None

        async def through_an_outage() -> Healing:
            await table.playing(acks=6)
            await asyncio.to_thread(_database_open, name, open_=False)
            await asyncio.sleep(OUTAGE_S)
            await asyncio.to_thread(_database_open, name, open_=True)
            # Writes kept during the outage wait out their retry: more time than after a blip.
            healing = await table.healed(time.monotonic(), timeout=60)
            await table.finish()
            return healing

        healing = play_through(site, through_an_outage)
        log = table_log(site, prepared["seats"][0]["table"])
        no_tracebacks(site, "Traceback")

    print(f"PostgreSQL down {OUTAGE_S} s, then back: {healing}")
    assert_nothing_lost(log, table.acknowledged())
