"""Shared by the stall and outage tests: scripted tablets split over two processes, and the
checks on what they were told against what the action log holds."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import psycopg

from tests.cluster.tablets import ScriptedTablet

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.cluster.processes import Site

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
