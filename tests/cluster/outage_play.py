"""Shared by the stall and outage tests: two processes on PostgreSQL and Redis, scripted
tablets split over them, one fault in the middle of play, and the checks on what the tablets
were told against what the action log holds."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import psycopg

from tests.cluster.processes import cluster_site, drop_database
from tests.cluster.tablets import ScriptedTablet
from tests.services import POSTGRES_URL, require

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Iterator
    from pathlib import Path

    from tests.cluster.processes import Site

T = TypeVar("T")

TAP = {"flip_pacing": "tap", "response_window_s": 1.0}


async def until(condition: Callable[[], bool], timeout: float, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting{': ' + what if what else ''}")
        await asyncio.sleep(0.05)


@dataclass
class SplitTable:
    """One table's tablets, half on each process (each keeps to its process)."""

    tablets: list[ScriptedTablet]
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    # When each tablet's count of views last went up (sampled every 20 ms).
    view_times: dict[str, list[float]] = field(default_factory=dict)

    @classmethod
    def of(cls, prepared: dict[str, object], homes: list[int]) -> SplitTable:
        seats = prepared["seats"]
        assert isinstance(seats, list)
        tablets = [
            ScriptedTablet(f"t{n}-{prepared['code']}", str(prepared["code"]), seat["token"],
                           (lambda port: lambda: [port])(homes[n]))
            for n, seat in enumerate(seats)
        ]  # fmt: skip
        return cls(tablets)

    async def start(self) -> None:
        # The first tablet starts the table on its process, which becomes the owner.
        self.tasks.append(asyncio.create_task(self.tablets[0].run(self.stop)))
        await until(lambda: self.tablets[0].views > 0, 20, "the first view")
        self.tasks += [asyncio.create_task(t.run(self.stop)) for t in self.tablets[1:]]
        self.tasks.append(asyncio.create_task(self._sample_views()))

    async def _sample_views(self) -> None:
        seen = {tablet.name: tablet.views for tablet in self.tablets}
        while not self.stop.is_set():
            for tablet in self.tablets:
                if tablet.views > seen[tablet.name]:
                    seen[tablet.name] = tablet.views
                    self.view_times.setdefault(tablet.name, []).append(time.monotonic())
            await asyncio.sleep(0.02)

    def every_tablet_viewed_after(self, moment: float) -> float | None:
        """Seconds from ``moment`` until the last tablet had a fresh view (None: not yet)."""
        firsts = []
        for tablet in self.tablets:
            later = [at for at in self.view_times.get(tablet.name, []) if at > moment]
            if not later:
                return None
            firsts.append(later[0] - moment)
        return max(firsts)

    def acks(self) -> int:
        return sum(len(tablet.acknowledged) for tablet in self.tablets)

    def acks_after(self, moment: float) -> list[float]:
        return sorted(at for tablet in self.tablets for at in tablet.ack_times if at > moment)

    def every_tablet_acked_after(self, moment: float) -> bool:
        return all(any(at > moment for at in tablet.ack_times) for tablet in self.tablets)

    def acknowledged(self) -> set[str]:
        return set().union(*(tablet.acknowledged for tablet in self.tablets))

    def states(self) -> list[object]:
        return [(t.name, t.connects, t.views, len(t.acknowledged), t.close_codes[-6:])
                for t in self.tablets]  # fmt: skip

    async def finish(self) -> None:
        self.stop.set()
        await asyncio.gather(*self.tasks)

    async def playing(self, acks: int) -> None:
        """Started, and ``acks`` inputs acknowledged before the fault."""
        await self.start()
        await self.wait(lambda: self.acks() >= acks, 40, "play to start")

    async def wait(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        try:
            await until(condition, timeout, what)
        except AssertionError as error:
            raise AssertionError(f"{error}: {self.states()}") from error

    async def healed(self, since: float, *, timeout: float = 40) -> Healing:
        """Waits until every tablet had a fresh view and an ack after ``since`` and play went
        on (8 more acks), then says how long each took."""
        before = self.acks()
        await self.wait(lambda: self.every_tablet_viewed_after(since) is not None, timeout, "views")
        await self.wait(lambda: self.every_tablet_acked_after(since), timeout, "every tablet")
        await self.wait(lambda: self.acks() >= before + 8, timeout, "play to go on")
        everyone = max(min(at for at in tablet.ack_times if at > since) for tablet in self.tablets)
        return Healing(
            first_ack_s=self.acks_after(since)[0] - since,
            every_ack_s=everyone - since,
            every_view_s=self.every_tablet_viewed_after(since) or 0.0,
        )


@dataclass(frozen=True)
class Healing:
    """Seconds from the end of a fault until the first ack, an ack on every tablet, and a
    fresh view on every tablet."""

    first_ack_s: float
    every_ack_s: float
    every_view_s: float

    def __str__(self) -> str:
        return (
            f"every tablet had a fresh view within {self.every_view_s:.2f} s, first ack "
            f"{self.first_ack_s:.2f} s, an ack on every tablet within {self.every_ack_s:.2f} s"
        )


@contextlib.contextmanager
def two_processes(workdir: Path, *, redis_url: str) -> Iterator[Site]:
    """A cluster site of two processes on a database of its own (dropped afterwards).

    The caller prepares its sessions on it, then ``site.start()`` twice."""
    require("postgres")
    site = cluster_site(workdir, postgres_url=POSTGRES_URL, redis_url=redis_url)
    try:
        yield site
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)


def play_through(site: Site, scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Runs the fault scenario, its failure carrying the tail of every process's log."""
    try:
        return asyncio.run(scenario())
    except AssertionError as error:
        raise AssertionError(f"{error}\n{site.log_tail()}") from error


def table_log(site: Site, table: int) -> list[tuple[int, str, int]]:
    """(seq, client_id, epoch) of the table's log, in order."""
    with psycopg.connect(site.env["DATABASE_URL"]) as connection:
        rows = connection.execute(
            "SELECT seq, client_id, epoch FROM classroom_actionlogentry WHERE table_id = %s "
            "ORDER BY seq",
            (table,),
        ).fetchall()
    return [(int(seq), str(cid), int(epoch)) for seq, cid, epoch in rows]


def assert_nothing_lost(log: list[tuple[int, str, int]], acknowledged: set[str]) -> None:
    """Every acknowledged input in the log exactly once; the log whole and fenced in order."""
    stored = [cid for _seq, cid, _epoch in log if cid]
    assert len(stored) == len(set(stored)), "an input was applied twice"
    assert acknowledged <= set(stored), f"acknowledged but lost: {acknowledged - set(stored)}"
    assert [seq for seq, _cid, _epoch in log] == list(range(1, len(log) + 1))
    epochs = [epoch for _seq, _cid, epoch in log]
    assert epochs == sorted(epochs), "a former owner wrote after a newer one"


def no_tracebacks(site: Site, *needles: str) -> None:
    for log in sorted(site.workdir.glob("daphne-*.log")):
        text = log.read_text()
        for needle in ("InvalidStateError", "Exception inside application", *needles):
            assert needle not in text, f"{needle!r} in {log.name}:\n{text[-4000:]}"
