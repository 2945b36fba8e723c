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
    Healing,
    SplitTable,
    assert_nothing_lost,
    no_tracebacks,
    play_through,
    table_log,
    two_processes,
)
from tests.cluster.processes import free_port
from tests.faults.live import palm_strike

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

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


@pytest.mark.timeout(240)
def test_every_tablet_plays_again_after_redis_was_down(
    tmp_path: Path, private_redis: PrivateRedis
) -> None:
    with two_processes(tmp_path, redis_url=private_redis.url) as site:
        prepared = palm_strike(site, players=4, table_size=4, settings=TAP)
        site.start()
        site.start()
        port_a, port_b = list(site.processes)
        table = SplitTable.of(prepared, homes=[port_a, port_b, port_b, port_a])

        async def through_an_outage() -> Healing:
            await table.playing(acks=6)
            private_redis.kill()
            await asyncio.sleep(OUTAGE_S)
            private_redis.start()
            healing = await table.healed(time.monotonic())
            await table.finish()
            return healing

        healing = play_through(site, through_an_outage)
        log = table_log(site, prepared["seats"][0]["table"])
        no_tracebacks(site, "Traceback")

    print(f"Redis down {OUTAGE_S} s, then back: {healing}")
    assert_nothing_lost(log, table.acknowledged())
