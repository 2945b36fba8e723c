"""Timers survive restarts: a table rebuilt from its log continues its own timeline.

Real engines (Palm Strike, Commotion) on virtual time: a "process" is a host with its own
monotonic clock; killing it cancels the host (what it committed is in the store), and the next
process builds a new host from the log and the clock mark the store kept.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest

from games.live.host import TableHost, TableSetup
from games.registry import game_get
from tests.games.live.virtual_time import run_virtual

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.engine.contract import Trial
    from games.live.host import ClockMark, LogEntry
    from tests.games.live.virtual_time import VirtualTimeLoop

# Unix time (ms) when each test starts: far from a process's monotonic clock on purpose.
UNIX_START = 1_764_000_000_000


class Store:
    """The table's log, its trials and its clock mark: what a database keeps across restarts."""

    def __init__(self) -> None:
        self.entries: list[LogEntry] = []
        self.trials: list[Trial] = []
        self.mark: ClockMark | None = None

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        self.entries.append(entry)
        self.trials.extend(trials)

    async def clock_save(self, mark: ClockMark) -> None:
        self.mark = mark


class Watcher:
    """A teacher page: notes the virtual time of every event it is shown."""

    def __init__(self, loop: VirtualTimeLoop) -> None:
        self.seat: int | None = None
        self.loop = loop
        self.events: list[tuple[int, str]] = []
        self.game_ms: list[int] = []

    async def deliver(self, frame: str) -> None:
        message = json.loads(frame)
        if message["type"] == "state":
            self.game_ms.append(message["view"]["game_ms"])
            self.events.extend((self.loop.ms(), event["kind"]) for event in message["events"])

    def times(self, kind: str) -> list[int]:
        return [at for at, seen in self.events if seen == kind]


class Site:
    """One table and the processes that host it, one after another."""

    def __init__(self, loop: VirtualTimeLoop, game: str, settings: dict[str, Any], bots: int):
        spec = game_get(game)
        assert spec is not None
        self.loop = loop
        self.engine = spec.engine()
        seats = (0, 1, 2, 3)[: max(bots, 2)]
        self.setup = TableSetup(
            table_id=1,
            config=spec.config(settings),
            seats=seats,
            seed=3,
            bots={
                seat: spec.make_bot(settings.get("bot_speed", "steady")) for seat in seats[:bots]
            },
        )
        self.store = Store()
        self.watcher = Watcher(loop)
        self.host: TableHost | None = None
        self.boots = 0

    async def boot(self, *, paused: bool = False) -> TableHost:
        """A new process loads the table (it has a monotonic clock of its own)."""
        self.boots += 1
        born = self.loop.ms()
        base = 50_000_000 * self.boots
        self.host = TableHost(
            setup=self.setup,
            engine=self.engine,
            store=self.store,
            log=list(self.store.entries),
            paused=paused,
            wall=lambda: base + self.loop.ms() - born,
            clock_mark=self.store.mark,
            clock_store=self.store,
            unix=lambda: UNIX_START + self.loop.ms(),
        )
        self.host.start()
        await self.host.join(self.watcher)
        return self.host

    async def kill(self) -> None:
        """kill -9: the host stops where it is; only what it stored survives."""
        assert self.host is not None
        await self.host.stop()
        self.host = None


async def _sleep_until(loop: VirtualTimeLoop, at_ms: int) -> None:
    await asyncio.sleep(max(0, at_ms - loop.ms()) / 1000)


# Palm Strike, auto-flip every 5 s, window 2.5 s, nobody slapping: the first tick (at 0)
# starts the table, flips at 1.5 s, 6.5 s, 11.5 s ...; each window closes 2.5 s after its flip.
AUTO_FLIP = {"flip_pacing": "auto", "auto_flip_s": 5.0, "response_window_s": 2.5}


def test_palm_strike_auto_flips_come_when_due_after_a_restart() -> None:
    async def main(loop: VirtualTimeLoop) -> Watcher:
        site = Site(loop, "palm_strike", AUTO_FLIP, bots=0)
        await site.boot()
        await _sleep_until(loop, 5_500)  # the window of the 1.5 s flip closed at 4.0 s
        await site.kill()
        await _sleep_until(loop, 6_000)
        await site.boot()
        await _sleep_until(loop, 7_200)  # mid-window of the 6.5 s flip
        await site.kill()
        await _sleep_until(loop, 8_000)
        await site.boot()
        await _sleep_until(loop, 12_000)
        await site.kill()
        return site.watcher

    watcher = run_virtual(main)
    assert watcher.times("flip") == [1_500, 6_500, 11_500]
    assert watcher.times("window_closed") == [4_000, 9_000]


def test_palm_strike_a_flip_due_during_the_outage_comes_once_at_resume() -> None:
    async def main(loop: VirtualTimeLoop) -> tuple[Watcher, Store]:
        site = Site(loop, "palm_strike", AUTO_FLIP, bots=0)
        await site.boot()
        await _sleep_until(loop, 5_500)
        await site.kill()
        await _sleep_until(loop, 30_000)  # down for 24.5 s: four flips were due meanwhile
        await site.boot()
        await _sleep_until(loop, 40_000)
        await site.kill()
        return site.watcher, site.store

    watcher, store = run_virtual(main)
    # No burst of cards nobody saw: the one due flips at resume, the next 5 s after it.
    assert watcher.times("flip") == [1_500, 30_000, 35_000]
    # Every card's window is whole: nobody is marked as missing a card they never saw.
    assert watcher.times("window_closed") == [4_000, 32_500, 37_500]
    assert len(store.trials) == 3 * 2  # one per seat and card


def test_palm_strike_a_paused_table_stays_paused_through_a_restart() -> None:
    async def main(loop: VirtualTimeLoop) -> Watcher:
        site = Site(loop, "palm_strike", AUTO_FLIP, bots=0)
        host = await site.boot()
        await _sleep_until(loop, 5_500)  # 1 s before the next flip
        host.control("pause")
        await _sleep_until(loop, 6_000)
        await site.kill()
        await _sleep_until(loop, 20_000)
        host = await site.boot(paused=True)  # the session is still paused
        await _sleep_until(loop, 22_000)
        host.control("resume")
        await _sleep_until(loop, 30_000)
        await site.kill()
        return site.watcher

    watcher = run_virtual(main)
    # Paused at 5.5 s with 1 s to go; resumed at 22 s: the flip comes 1 s later.
    assert watcher.times("flip") == [1_500, 23_000, 28_000]


# Commotion with quick bots and short refill piles: on seed 3 the first round is over at
# 11.92 s, and the next is dealt 8 s later (ROUND_OVER_MS).
QUICK_COMMOTION = {"refill_size": 5, "stock_turn": 1, "bot_speed": "quick"}


def test_commotion_the_next_round_comes_when_due_after_a_restart_in_round_over() -> None:
    async def main(loop: VirtualTimeLoop) -> Watcher:
        site = Site(loop, "commotion", QUICK_COMMOTION, bots=4)
        await site.boot()
        await _sleep_until(loop, 13_000)  # a second into the round-over screen
        await site.kill()
        await _sleep_until(loop, 15_000)
        await site.boot()
        await _sleep_until(loop, 25_000)
        await site.kill()
        return site.watcher

    watcher = run_virtual(main)
    [round_over] = watcher.times("round_over")
    [deal] = watcher.times("deal")
    assert abs(deal - (round_over + 8_000)) <= 1_000


def test_commotion_restarted_every_10_s_for_a_minute_still_advances_rounds() -> None:
    async def main(loop: VirtualTimeLoop) -> tuple[Watcher, Store]:
        site = Site(loop, "commotion", QUICK_COMMOTION, bots=4)
        for cycle in range(6):
            # Up for 7 s; then down for 3 s (the process restarts, the tablets reconnect).
            await _sleep_until(loop, cycle * 10_000)
            await site.boot()
            await _sleep_until(loop, cycle * 10_000 + 7_000)
            await site.kill()
        return site.watcher, site.store

    watcher, store = run_virtual(main)
    assert len(watcher.times("round_over")) >= 1
    assert len(watcher.times("deal")) >= 1  # round 2 began
    # The log still replays to the state the last host had, entry by entry in order.
    assert [entry.seq for entry in store.entries] == list(range(1, len(store.entries) + 1))
    # The game clock never went back by more than a second, through six restarts.
    rewinds = [a - b for a, b in zip(watcher.game_ms, watcher.game_ms[1:], strict=False)]
    assert max(rewinds) <= 1_000


@pytest.mark.parametrize(
    ("game", "game_settings", "bots"),
    [
        ("palm_strike", {**AUTO_FLIP, "slap_scope": "any"}, 3),
        ("commotion", QUICK_COMMOTION, 4),
        ("riff_raff", {}, 3),
    ],
)
def test_a_restart_without_downtime_changes_nothing_in_the_log(
    game: str, game_settings: dict[str, Any], bots: int
) -> None:
    """Bots playing (and Riff Raff's physics moving, unlogged): a host replaced at once, mid
    motion, writes exactly the log an uninterrupted host writes."""

    async def play(loop: VirtualTimeLoop, restarts: Sequence[int]) -> list[Any]:
        site = Site(loop, game, game_settings, bots=bots)
        await site.boot()
        for at in restarts:
            await _sleep_until(loop, at)
            await site.kill()
            await site.boot()
        await _sleep_until(loop, 30_000)
        await site.kill()
        return [(e.seq, e.kind, e.seat, e.action, e.now_ms) for e in site.store.entries]

    steady = run_virtual(lambda loop: play(loop, []))
    restarted = run_virtual(lambda loop: play(loop, [3_333, 9_001, 17_777, 24_242]))
    assert len(steady) > 10
    assert restarted == steady
