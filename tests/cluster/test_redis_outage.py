"""Redis gone for half a second (killed, then started again empty), tablets split over two
processes: every tablet plays again by itself, and nothing acknowledged is lost.

The cluster runs on a private redis-server this test starts and kills (``--save ''``: it comes
back with no data, as after a real restart: no leases, no groups). Issue 16 saw each process's
table router die for good on such a blip, and every reconnect refused with 1011 and a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
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
from tests.cluster.processes import cluster_site, drop_database, free_port
from tests.faults.live import palm_strike
from tests.services import POSTGRES_URL, require

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from tests.cluster.processes import Site

OUTAGE_S = 0.5


class PrivateRedis:
    """A redis-server of this test's own, on a free loopback port, without persistence."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        log = (self.workdir / "redis.log").open("ab")
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port)):
                return
            time.sleep(0.02)
        raise RuntimeError("redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    redis = PrivateRedis(tmp_path)
    redis.start()
    yield redis
    redis.kill()


async def _through_an_outage(
    site: Site, redis: PrivateRedis, prepared: dict[str, object]
) -> dict[str, object]:
    port_a, port_b = list(site.processes)
    table = SplitTable.of(prepared, homes=[port_a, port_b, port_b, port_a])
    await table.start()
    try:
        await until(lambda: table.acks() >= 6, 40, "play to start")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error

    redis.kill()
    await asyncio.sleep(OUTAGE_S)
    redis.start()
    back_at = time.monotonic()
    before = table.acks()
    try:
        await until(lambda: table.every_tablet_viewed_after(back_at) is not None, 40, "views")
        await until(lambda: table.every_tablet_acked_after(back_at), 40, "every tablet to play")
        await until(lambda: table.acks() >= before + 8, 40, "play to go on")
    except AssertionError as error:
        raise AssertionError(f"{error}: {table.states()}") from error
    first = table.acks_after(back_at)[0] - back_at
    everyone = (
        max(min(at for at in tablet.ack_times if at > back_at) for tablet in table.tablets)
        - back_at
    )
    views = table.every_tablet_viewed_after(back_at)
    await table.finish()
    return {
        "first_s": first,
        "views_s": views,
        "every_tablet_s": everyone,
        "acknowledged": table.acknowledged(),
    }


@pytest.mark.timeout(240)
def test_every_tablet_plays_again_after_redis_was_down(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=private_redis.url)
    try:
        prepared = palm_strike(site, players=4, table_size=4, settings=TAP)
        site.start()
        site.start()
        try:
            outcome = asyncio.run(_through_an_outage(site, private_redis, prepared))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
        log = table_log(site, prepared["seats"][0]["table"])  # type: ignore[index]
        no_tracebacks(site, "Traceback")
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)

    print(
        f"Redis down {OUTAGE_S} s, then back: every tablet had a fresh view within "
        f"{outcome['views_s']:.2f} s, first ack {outcome['first_s']:.2f} s, "
        f"an ack on every tablet within {outcome['every_tablet_s']:.2f} s"
    )
    assert_nothing_lost(log, outcome["acknowledged"])  # type: ignore[arg-type]
