"""The table host, driven with a tiny fake engine and an in-memory store."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import json
from typing import TYPE_CHECKING, Any

import pytest

from games.engine.contract import Event, Outcome, Trial
from games.engine.replay import log_replay
from games.live.host import GameClock, LogEntry, TableHost, TableSetup, next_motion_due
from tests.games.live.virtual_time import loop_ms
from tests.tasks_created import tasks_created

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

pytestmark = pytest.mark.virtual_time

TICK_EVERY_MS = 30


@dataclasses.dataclass(frozen=True)
class TallyState:
    total: int = 0
    last_tick_ms: int = 0
    adds: tuple[tuple[int, int], ...] = ()


class Tally:
    """A counter game: players add 1-3; every TICK_EVERY_MS of game time the table adds 10."""

    @staticmethod
    def act(state: TallyState, seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        amount = action.get("n")
        if action.get("kind") != "add" or not isinstance(amount, int) or not 1 <= amount <= 3:
            return Outcome(state=state, rejected="Add 1, 2 or 3.")
        new = dataclasses.replace(
            state, total=state.total + amount, adds=(*state.adds, (seat, amount))
        )
        trial = Trial(seat=seat, kind="tally.add", data={"n": amount})
        return Outcome(state=new, events=(Event("added", {"n": amount}),), trials=(trial,))

    @staticmethod
    def tick(state: TallyState, now_ms: int) -> Outcome[Any]:
        if now_ms < state.last_tick_ms + TICK_EVERY_MS:
            return Outcome(state=state)
        return Outcome(
            state=dataclasses.replace(state, total=state.total + 10, last_tick_ms=now_ms)
        )

    @staticmethod
    def next_deadline(state: TallyState) -> int | None:
        return state.last_tick_ms + TICK_EVERY_MS

    @staticmethod
    def view(state: TallyState, seat: int | None) -> dict[str, Any]:
        return {"total": state.total, "you": seat, "adds": [list(a) for a in state.adds]}

    @classmethod
    def replay(
        cls,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[tuple[str, int | None, Mapping[str, Any] | None, int]],
    ) -> TallyState:
        state = TallyState()
        for kind, seat, action, now_ms in log:
            if kind == "act":
                assert seat is not None
                assert action is not None
                state = cls.act(state, seat, action, now_ms).state
            else:
                state = cls.tick(state, now_ms).state
        return state


class Guessing(Tally):
    """Guessing 7 is a refused input that still counts as a measurement (a false alarm)."""

    @staticmethod
    def act(state: TallyState, seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        if action.get("kind") == "guess":
            miss = Trial(seat=seat, kind="tally.guess", data={"correct": False})
            return Outcome(state=state, rejected="Not quite.", trials=(miss,))
        return Tally.act(state, seat, action, now_ms)

    @staticmethod
    def next_deadline(state: TallyState) -> int | None:
        return None


class NoTicks(Tally):
    @staticmethod
    def next_deadline(state: TallyState) -> int | None:
        return None


class MemoryStore:
    def __init__(self, listeners: list[FakeSocket] | None = None) -> None:
        self.entries: list[LogEntry] = []
        self.trials: list[Trial] = []
        self.fail = False
        self.listeners = listeners or []
        self.frames_seen_at_append: list[int] = []

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        if self.fail:
            raise OSError("disk full")
        self.frames_seen_at_append.append(sum(len(s.frames) for s in self.listeners))
        self.entries.append(entry)
        self.trials.extend(trials)


class FakeSocket:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[dict[str, Any]] = []

    async def deliver(self, frame: str) -> None:
        self.frames.append(json.loads(frame))

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [frame for frame in self.frames if frame["type"] == kind]


SETUP = TableSetup(table_id=7, config=None, seats=(0, 1), seed=1)


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


async def _host(
    engine: Any = NoTicks, store: MemoryStore | None = None, log: Sequence[LogEntry] = ()
) -> TableHost:
    host = TableHost(
        setup=SETUP, wall=loop_ms, engine=engine, store=store or MemoryStore(), log=log
    )
    host.start()
    await _settle()
    return host


async def test_an_accepted_input_is_stored_before_anyone_sees_it() -> None:
    alice, bob = FakeSocket(0), FakeSocket(1)
    store = MemoryStore([alice, bob])
    host = await _host(store=store)
    await host.join(alice)
    await host.join(bob)
    await _settle()
    frames_before = len(alice.frames) + len(bob.frames)
    host.submit(alice, 1, {"kind": "add", "n": 2})
    await _settle()
    assert store.frames_seen_at_append == [frames_before]
    assert [entry.action for entry in store.entries] == [{"kind": "add", "n": 2}]
    assert [trial.data for trial in store.trials] == [{"n": 2}]
    assert alice.of_type("ack") == [{"type": "ack", "seq": 1, "version": 1, "epoch": 0}]
    assert bob.of_type("state")[-1]["view"]["total"] == 2
    assert bob.of_type("state")[-1]["events"] == [{"kind": "added", "n": 2}]
    assert bob.of_type("ack") == []
    await host.stop()


async def test_a_rejected_input_answers_only_its_sender_and_changes_nothing() -> None:
    alice, bob = FakeSocket(0), FakeSocket(1)
    store = MemoryStore()
    host = await _host(store=store)
    await host.join(alice)
    await host.join(bob)
    await _settle()
    state_before, bob_frames = host.state, len(bob.frames)
    host.submit(alice, 5, {"kind": "add", "n": 9})
    await _settle()
    assert alice.frames[-1] == {
        "type": "error",
        "code": "rejected",
        "message": "Add 1, 2 or 3.",
        "seq": 5,
    }
    assert host.state is state_before
    assert store.entries == []
    assert len(bob.frames) == bob_frames
    await host.stop()


async def test_inputs_are_applied_in_arrival_order() -> None:
    sockets = [FakeSocket(seat) for seat in (0, 1)]
    store = MemoryStore()
    host = await _host(store=store)
    for index in range(30):
        host.submit(sockets[index % 2], index, {"kind": "add", "n": index % 3 + 1})
    await _settle()
    await asyncio.sleep(0.05)
    assert [entry.seq for entry in store.entries] == list(range(1, 31))
    assert host.state.adds == tuple((index % 2, index % 3 + 1) for index in range(30))
    await host.stop()


async def test_a_new_host_rebuilt_from_the_log_shows_the_same_views() -> None:
    store = MemoryStore()
    host = await _host(engine=Tally, store=store)
    alice = FakeSocket(0)
    for index in range(5):
        host.submit(alice, index, {"kind": "add", "n": 1})
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    await host.stop()  # the process dies here
    assert any(entry.kind == "tick" for entry in store.entries)

    revived = TableHost(
        setup=SETUP, wall=loop_ms, engine=Tally, store=MemoryStore(), log=store.entries
    )
    assert revived.state == host.state
    assert Tally.view(revived.state, 0) == Tally.view(host.state, 0)
    assert revived.version == host.version
    assert revived.next_seq == store.entries[-1].seq + 1
    assert revived.clock.now() >= store.entries[-1].now_ms


async def test_pause_stops_timers_and_inputs_until_resume() -> None:
    store = MemoryStore()
    host = await _host(engine=Tally, store=store)
    alice = FakeSocket(0)
    await host.join(alice)
    host.control("pause")
    await _settle()
    ticks_at_pause = sum(1 for entry in store.entries if entry.kind == "tick")
    host.submit(alice, 1, {"kind": "add", "n": 1})
    await asyncio.sleep(TICK_EVERY_MS * 4 / 1000)
    assert alice.of_type("error")[-1]["code"] == "paused"
    assert sum(1 for entry in store.entries if entry.kind == "tick") == ticks_at_pause
    assert alice.of_type("state")[-1]["view"]["paused"] is True
    host.control("resume")
    await asyncio.sleep(TICK_EVERY_MS * 4 / 1000)
    assert sum(1 for entry in store.entries if entry.kind == "tick") > ticks_at_pause
    assert alice.of_type("state")[-1]["view"]["paused"] is False
    await host.stop()


async def test_a_store_failure_keeps_the_old_state_and_says_so() -> None:
    store = MemoryStore()
    store.fail = True
    host = await _host(store=store)
    alice = FakeSocket(0)
    state_before = host.state
    host.submit(alice, 3, {"kind": "add", "n": 1})
    await _settle()
    assert alice.frames[-1]["code"] == "not_saved"
    assert host.state is state_before
    assert host.version == 0
    await host.stop()


async def test_teacher_pages_watch_but_cannot_play() -> None:
    teacher = FakeSocket(None)
    host = await _host()
    await host.join(teacher)
    host.submit(teacher, 1, {"kind": "add", "n": 1})
    await _settle()
    assert teacher.of_type("state")[0]["view"]["you"] is None
    assert teacher.frames[-1]["code"] == "not_a_player"
    assert host.state.total == 0
    await host.stop()


async def test_a_broken_socket_is_dropped_and_the_table_goes_on() -> None:
    class Broken(FakeSocket):
        async def deliver(self, frame: str) -> None:
            raise ConnectionError("gone")

    alice, broken = FakeSocket(0), Broken(1)
    host = await _host()
    await host.join(alice)
    host._listeners.add(broken)
    host.submit(alice, 1, {"kind": "add", "n": 3})
    await _settle()
    assert alice.of_type("state")[-1]["view"]["total"] == 3
    assert host.listener_count == 1
    await host.stop()


async def test_end_stops_the_host_and_refuses_inputs() -> None:
    alice = FakeSocket(0)
    host = await _host()
    await host.join(alice)
    host.control("end")
    await _settle()
    assert host.ended
    assert alice.of_type("state")[-1]["view"]["ended"] is True
    assert alice.of_type("state")[-1]["events"] == [{"kind": "end"}]


@pytest.mark.parametrize("paused_for", [0, 500])
def test_game_clock_stands_still_while_paused(paused_for: int) -> None:
    wall = [1000]
    clock = GameClock(start_ms=200, wall=lambda: wall[0])
    wall[0] += 100
    assert clock.now() == 300
    clock.pause()
    wall[0] += paused_for
    assert clock.now() == 300
    clock.resume()
    wall[0] += 50
    assert clock.now() == 350


async def test_a_refused_input_that_is_a_measurement_is_logged_with_its_trial() -> None:
    alice, bob = FakeSocket(0), FakeSocket(1)
    store = MemoryStore()
    host = await _host(engine=Guessing, store=store)
    await host.join(alice)
    await host.join(bob)
    await _settle()
    state_before, version_before, bob_frames = host.state, host.version, len(bob.frames)
    host.submit(alice, 4, {"kind": "guess"})
    await _settle()
    assert alice.frames[-1]["code"] == "rejected"
    assert host.state is state_before
    assert host.version == version_before
    assert [(entry.seq, entry.action) for entry in store.entries] == [(1, {"kind": "guess"})]
    assert [trial.data for trial in store.trials] == [{"correct": False}]
    assert len(bob.frames) == bob_frames  # nothing changed on the table
    host.submit(alice, 5, {"kind": "add", "n": 1})
    await _settle()
    assert [entry.seq for entry in store.entries] == [1, 2]
    rebuilt = TableHost(
        setup=SETUP, wall=loop_ms, engine=Guessing, store=MemoryStore(), log=store.entries
    )
    assert rebuilt.state == host.state
    await host.stop()


# --------------------------------------------------------------------------------------------
# Motion: physics steps are streamed, not logged

STEP_MS = 10


@dataclasses.dataclass(frozen=True)
class Fall:
    """A ball falling on a fixed 10 ms step grid; it lands (a logged change) at height 0."""

    height: int = 30
    steps: int = 0
    landed: bool = False


class Falling:
    @staticmethod
    def _advance(state: Fall, now_ms: int) -> Fall:
        while not state.landed and (state.steps + 1) * STEP_MS <= now_ms:
            height = state.height - 1
            state = Fall(height=height, steps=state.steps + 1, landed=height == 0)
        return state

    @classmethod
    def tick(cls, state: Fall, now_ms: int) -> Outcome[Any]:
        new = cls._advance(state, now_ms)
        if new == state:
            return Outcome(state=state)
        if new.landed:
            return Outcome(state=new, events=(Event("landed", {}),))
        return Outcome(state=new, logged=False)

    @staticmethod
    def act(state: Fall, seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        return Outcome(state=state, rejected="Nothing to do.")

    @staticmethod
    def next_deadline(state: Fall) -> int | None:
        return None if state.landed else (state.steps + 1) * STEP_MS

    @staticmethod
    def view(state: Fall, seat: int | None) -> dict[str, Any]:
        return {"height": state.height, "landed": state.landed}

    @staticmethod
    def frame(state: Fall) -> dict[str, Any]:
        return {"height": state.height}

    @classmethod
    def replay(
        cls,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[tuple[str, int | None, Mapping[str, Any] | None, int]],
    ) -> Fall:
        state = Fall()
        for _kind, _seat, _action, now_ms in log:
            state = cls.tick(state, now_ms).state
        return state


class SharedFrames(FakeSocket):
    """Keeps the raw strings, to see that every socket got the very same serialization."""

    def __init__(self, seat: int | None) -> None:
        super().__init__(seat)
        self.raw: list[str] = []

    async def deliver(self, frame: str) -> None:
        self.raw.append(frame)
        await super().deliver(frame)


async def test_motion_is_streamed_to_everyone_once_serialized_and_only_the_landing_is_logged() -> (
    None
):
    store = MemoryStore()
    host = await _host(engine=Falling, store=store)
    alice, bob = SharedFrames(0), SharedFrames(None)
    await host.join(alice)
    await host.join(bob)
    await asyncio.sleep(0.6)  # 30 steps of 10 ms
    await host.stop()

    assert [entry.kind for entry in store.entries] == ["tick"]  # the landing, nothing else
    motion = alice.of_type("motion")
    assert 2 <= len(motion) <= 20  # throttled well below the 100 Hz of the steps
    heights = [frame["frame"]["height"] for frame in motion]
    assert heights == sorted(heights, reverse=True)
    assert all(frame["version"] == 0 for frame in motion)
    assert [raw for raw in alice.raw if '"motion"' in raw] == [
        raw for raw in bob.raw if '"motion"' in raw
    ]
    assert alice.of_type("state")[-1]["view"] == {
        "height": 0,
        "landed": True,
        "paused": False,
        "ended": False,
        "game_ms": alice.of_type("state")[-1]["view"]["game_ms"],
    }
    rebuilt = TableHost(
        setup=SETUP, wall=loop_ms, engine=Falling, store=MemoryStore(), log=store.entries
    )
    assert rebuilt.state == host.state == Fall(height=0, steps=30, landed=True)


# --------------------------------------------------------------------------------------------
# Checkpoints: engine data logged with a tick, restored on rebuild


@dataclasses.dataclass(frozen=True)
class Ball:
    fall: Fall = Fall()
    x: float = 0.0  # where it rolled to on landing: a float the engine computes


class Rolling:
    """Falling, and on landing the ball rolls to a computed x, which the landing's outcome
    carries as its checkpoint."""

    @staticmethod
    def tick(state: Ball, now_ms: int) -> Outcome[Any]:
        outcome = Falling.tick(state.fall, now_ms)
        if outcome.state is state.fall:
            return Outcome(state=state)
        if not outcome.logged:
            return Outcome(state=Ball(outcome.state, state.x), logged=False)
        x = 0.1 * 3
        return Outcome(state=Ball(outcome.state, x), events=outcome.events, checkpoint={"x": x})

    @staticmethod
    def restore(state: Ball, checkpoint: Mapping[str, Any]) -> Ball:
        return dataclasses.replace(state, x=float(checkpoint["x"]))

    @staticmethod
    def act(state: Ball, seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        return Outcome(state=state, rejected="Nothing to do.")

    @staticmethod
    def next_deadline(state: Ball) -> int | None:
        return Falling.next_deadline(state.fall)

    @staticmethod
    def view(state: Ball, seat: int | None) -> dict[str, Any]:
        return {"landed": state.fall.landed, "x": state.x}

    @classmethod
    def replay(
        cls,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[tuple[str, int | None, Mapping[str, Any] | None, int]],
    ) -> Ball:
        return log_replay(Ball(), log, act=cls.act, tick=cls.tick, restore=cls.restore)


async def test_a_ticks_checkpoint_is_stored_with_it_and_a_rebuilt_host_restores_it() -> None:
    store = MemoryStore()
    host = await _host(engine=Rolling, store=store)
    for _ in range(300):
        if host.state.fall.landed:
            break
        await asyncio.sleep(0.01)
    await host.stop()

    [entry] = store.entries
    assert (entry.kind, entry.seat, entry.action) == ("tick", None, {"checkpoint": {"x": 0.1 * 3}})
    # As the database gives it back.
    stored = [
        dataclasses.replace(e, action=json.loads(json.dumps(e.action))) for e in store.entries
    ]
    rebuilt = TableHost(setup=SETUP, wall=loop_ms, engine=Rolling, store=MemoryStore(), log=stored)
    assert rebuilt.state == host.state == Ball(Fall(height=0, steps=30, landed=True), 0.1 * 3)
    # The rebuilt host takes the logged value, not one it recomputed.
    edited = [dataclasses.replace(stored[0], action={"checkpoint": {"x": 0.25}})]
    assert (
        TableHost(
            setup=SETUP, wall=loop_ms, engine=Rolling, store=MemoryStore(), log=edited
        ).state.x
        == 0.25
    )


class Seats(NoTicks):
    """A bot takes a seat over: marked in ``adds`` as (seat, 0); a second time changes nothing."""

    @staticmethod
    def takeover(state: TallyState, seat: int, level: str, now_ms: int) -> Outcome[Any]:
        if (seat, 0) in state.adds:
            return Outcome(state=state)
        new = dataclasses.replace(state, adds=(*state.adds, (seat, 0)))
        return Outcome(state=new, events=(Event("bot_takeover", {"seat": seat}),))


async def test_a_seat_handed_to_a_bot_is_logged_once_and_told_to_the_table() -> None:
    bob = FakeSocket(1)
    store = MemoryStore([bob])
    host = await _host(engine=Seats, store=store)
    await host.join(bob)
    host.seat_to_bot(0, "steady")
    host.seat_to_bot(0, "steady")  # asked twice (the roster at a reload, say)
    await _settle()
    assert [(e.kind, e.seat, e.action) for e in store.entries] == [("bot", 0, {"bot": "steady"})]
    assert bob.of_type("state")[-1]["events"] == [{"kind": "bot_takeover", "seat": 0}]
    assert host.version == 1
    await host.stop()


async def test_a_takeover_the_store_refused_is_tried_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("games.live.host.TAKEOVER_RETRY_S", 0)
    store = MemoryStore()
    store.fail = True
    host = await _host(engine=Seats, store=store)
    host.seat_to_bot(1, "steady")
    await _settle()
    assert store.entries == []
    assert host.state.adds == ()
    store.fail = False
    for _ in range(50):
        await asyncio.sleep(0)
        if store.entries:
            break
    assert [(e.kind, e.seat) for e in store.entries] == [("bot", 1)]
    assert host.state.adds == ((1, 0),)
    await host.stop()


def test_motion_frames_keep_to_twenty_a_second_on_sixteen_ms_ticks() -> None:
    """Issue 20: "50 ms after the last frame" on 16 ms ticks sent a frame every 64 ms
    (15.6 a second). Keeping to a 50 ms schedule sends 20 a second, no gap over 64 ms."""
    due, sent = 0, []
    for began in range(100_000, 110_000, 16):  # ten seconds of physics ticks
        if began >= due:
            sent.append(began)
            due = next_motion_due(due, began)
    gaps = [b - a for a, b in itertools.pairwise(sent)]
    assert 199 <= len(sent) <= 201
    assert max(gaps) <= 64
    assert min(gaps) >= 32
    # After a rest the schedule starts again from the first frame: no burst.
    later = 200_000
    due = next_motion_due(due, later)
    assert due == later + 50


class SlowStore(MemoryStore):
    """Takes 200 ms to store each entry (a busy database)."""

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        await asyncio.sleep(0.2)
        await super().append(entry, trials)


async def test_the_time_an_input_waits_in_the_inbox_counts_with_its_round_trip() -> None:
    # Two slaps arrive together; the second waits while the first is stored. That wait is in
    # its stimulus's age at the engine, so it is added to the round trip the engine judges
    # by (games.engine.reaction), and the log keeps what the engine saw.
    alice, bob = FakeSocket(0), FakeSocket(1)
    store = SlowStore()
    host = await _host(store=store)
    host.submit(alice, 1, {"kind": "add", "n": 1, "rtt_ms": 10})
    host.submit(bob, 1, {"kind": "add", "n": 2, "rtt_ms": 10})
    host.submit(bob, 2, {"kind": "add", "n": 3})  # no round trip: nothing added
    await asyncio.sleep(1.0)
    assert [entry.action for entry in store.entries] == [
        {"kind": "add", "n": 1, "rtt_ms": 10},
        {"kind": "add", "n": 2, "rtt_ms": 210},
        {"kind": "add", "n": 3},
    ]
    await host.stop()


async def test_a_timed_change_the_host_wakes_late_for_says_how_late() -> None:
    # Each store takes 200 ms, so the tick due 30 ms after the last one is begun 170 ms late;
    # the first tick is on time. A benchmark adds this to the fan-out it measures.
    watcher = FakeSocket(None)
    host = await _host(engine=Tally, store=SlowStore())
    await host.join(watcher)
    await asyncio.sleep(1.0)
    joined, *ticks = watcher.of_type("state")
    assert joined["late_ms"] == 0
    assert [frame["late_ms"] for frame in ticks[:3]] == [0, 170, 170]
    await host.stop()


class SlowSocket(FakeSocket):
    """A socket whose send waits until let go (a busy process, a slow network)."""

    def __init__(self, seat: int | None, let_go: asyncio.Event) -> None:
        super().__init__(seat)
        self.let_go = let_go
        self.told_stopped_after: int | None = None

    async def deliver(self, frame: str) -> None:
        await self.let_go.wait()
        await super().deliver(frame)


async def test_a_host_stopped_mid_broadcast_still_gives_every_socket_the_change() -> None:
    """All or nothing: a flip that reached one tablet of the table reaches them all, and only
    then are the sockets told the host stopped (once told, a socket takes nothing more)."""
    let_go = asyncio.Event()
    alice, bob = SlowSocket(0, let_go), SlowSocket(1, let_go)
    host = await _host()
    await host.join(alice)
    await host.join(bob)
    let_go.set()
    await _settle()
    let_go.clear()
    for socket in (alice, bob):
        host.on_stop(
            lambda socket=socket: setattr(socket, "told_stopped_after", len(socket.frames))
        )
    host.submit(alice, 1, {"kind": "add", "n": 2})
    await _settle()  # stored; the broadcast waits on the first socket
    await host.stop()  # e.g. the table given up while the frames are on their way
    assert alice.told_stopped_after is None
    assert bob.told_stopped_after is None
    let_go.set()
    await _settle()
    for socket in (alice, bob):
        assert socket.of_type("state")[-1]["view"]["total"] == 2
        assert socket.told_stopped_after == len(socket.frames)
    assert alice.of_type("ack") == [{"type": "ack", "seq": 1, "version": 1, "epoch": 0}]


async def test_a_tables_inputs_cost_no_task_to_wait_for_each() -> None:
    alice = FakeSocket(0)
    host = await _host()
    await host.join(alice)
    await _settle()
    with tasks_created() as created:
        for seq in range(1, 21):
            host.submit(alice, seq, {"kind": "add", "n": 1})
            await _settle()  # one at a time: each input finds the host waiting for it
    assert len(alice.of_type("ack")) == 20
    # Only each change's delivery, which the host's own cancellation must not cut short.
    assert [task.get_coro().__qualname__ for task in created] == ["TableHost._deliver_all"] * 20
    await host.stop()
