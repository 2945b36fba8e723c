"""The host through a storage outage, and its heartbeat.

Time is injected: a fake wall clock, and a sleep that moves it on instead of waiting.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from games.live import host as host_module
from games.live.host import (
    STORE_RETRY_FOR_MS,
    LogEntry,
    StoreFenced,
    StoreUnavailable,
    TableHost,
)
from tests.games.live.test_host import SETUP, FakeSocket, MemoryStore, NoTicks, _settle

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pytest

    from games.engine.contract import Trial


class FakeTime:
    def __init__(self) -> None:
        self.ms = 1_000
        self.slept: list[float] = []

    def wall(self) -> int:
        return self.ms

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.ms += int(seconds * 1000)
        await asyncio.sleep(0)


class FlakyStore(MemoryStore):
    """Unavailable (the database is down) for the first ``down_for`` writes."""

    def __init__(self, down_for: int) -> None:
        super().__init__()
        self.down_for = down_for
        self.attempts = 0

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        self.attempts += 1
        if self.attempts <= self.down_for:
            raise StoreUnavailable("could not connect to server")
        await super().append(entry, trials)


def _host(store: MemoryStore, time: FakeTime) -> TableHost:
    host = TableHost(setup=SETUP, engine=NoTicks, store=store, wall=time.wall, sleep=time.sleep)
    host.start()
    return host


async def _until(condition: Any) -> None:
    # Bounded: the host only needs a few turns of the loop (no real waiting in the host).
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the host did not get there")


async def test_an_input_the_store_could_not_take_is_kept_retried_and_acknowledged() -> None:
    time = FakeTime()
    store = FlakyStore(down_for=4)
    host = _host(store, time)
    alice, bob = FakeSocket(0), FakeSocket(1)
    await host.join(alice)
    await host.join(bob)
    host.submit(alice, 1, {"kind": "add", "n": 2}, "a:1")
    host.submit(bob, 1, {"kind": "add", "n": 3}, "b:1")  # arrives during the outage
    await _until(lambda: bob.of_type("ack"))
    # Alice was told it is being saved, then it was acknowledged: nothing was dropped.
    answers = [frame for frame in alice.frames if frame["type"] in {"pending", "ack", "error"}]
    assert answers == [
        {"type": "pending", "seq": 1, "reason": "saving"},
        {"type": "ack", "seq": 1, "version": 1, "epoch": 0},
    ]
    # Each input is in the log once, in the order the table received them.
    assert [(entry.seq, entry.client_id) for entry in store.entries] == [(1, "a:1"), (2, "b:1")]
    assert host.state.adds == ((0, 2), (1, 3))
    assert time.slept == list(host_module.STORE_RETRY_DELAYS_S[:4])
    await host.stop()


async def test_the_host_gives_up_after_a_while_and_says_the_tap_did_not_count() -> None:
    time = FakeTime()
    store = FlakyStore(down_for=10**6)
    host = _host(store, time)
    alice = FakeSocket(0)
    await host.join(alice)
    state_before = host.state
    began = time.ms
    host.submit(alice, 4, {"kind": "add", "n": 1}, "a:4")
    await _until(lambda: alice.of_type("error"))
    assert alice.of_type("pending") == [{"type": "pending", "seq": 4, "reason": "saving"}]
    error = alice.of_type("error")[0]
    assert (error["code"], error["seq"]) == ("not_saved", 4)
    assert "did not count" in error["message"]
    assert time.ms - began >= STORE_RETRY_FOR_MS
    assert host.state is state_before
    assert store.entries == []
    await host.stop()


async def test_a_refused_row_is_not_retried() -> None:
    time = FakeTime()
    store = MemoryStore()
    store.fail = True  # OSError: not an outage, trying again would not help
    host = _host(store, time)
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 2, {"kind": "add", "n": 1})
    await _until(lambda: alice.of_type("error"))
    assert alice.of_type("pending") == []
    assert time.slept == []
    await host.stop()


class FencedStore(MemoryStore):
    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        raise StoreFenced("a newer owner")


async def test_a_fenced_host_stops_without_telling_the_tablet_its_tap_failed() -> None:
    # The tablet reconnects to the new owner and sends the input again there.
    host = _host(FencedStore(), FakeTime())
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 3, {"kind": "add", "n": 1})
    await _until(lambda: host.finished)
    assert alice.of_type("error") == []
    assert host.fenced


async def test_the_loop_stamps_its_heartbeat_even_when_nothing_happens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(host_module, "ALIVE_EVERY_MS", 5)
    time = FakeTime()
    host = _host(MemoryStore(), time)
    await _settle()
    time.ms += 10_000
    assert host.stalled_ms() == 10_000
    await _until(lambda: host.stalled_ms() == 0)
    await host.stop()


class HangingStore(MemoryStore):
    """A write that never comes back (a writer that died, a blocked database)."""

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        await asyncio.Event().wait()


async def test_a_host_stuck_in_a_write_stops_stamping(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_module, "ALIVE_EVERY_MS", 5)
    time = FakeTime()
    host = _host(HangingStore(), time)
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 1, {"kind": "add", "n": 1})
    await _settle()
    time.ms += 10_000
    for _ in range(20):
        await asyncio.sleep(0.005)  # the loop would have stamped several times by now
    assert host.stalled_ms() >= 10_000
    await host.stop()


class CountingStore(MemoryStore):
    attempts = 0

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        self.attempts += 1
        await super().append(entry, trials)


async def test_a_timer_whose_entry_is_refused_waits_instead_of_spinning() -> None:
    from tests.games.live.test_host import Tally

    time = FakeTime()
    store = CountingStore()
    store.fail = True
    host = TableHost(setup=SETUP, engine=Tally, store=store, wall=time.wall, sleep=time.sleep)
    host.start()
    time.ms += 100  # the table's timer is due
    await _until(lambda: len(time.slept) >= 3)
    await host.stop()
    assert set(time.slept) == {0.5}
    assert store.attempts <= len(time.slept) + 1  # one try per pause, not a busy loop
