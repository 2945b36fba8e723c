"""The table host: one asyncio task per live table, the only owner of its game state.

It takes inputs from a single inbox in arrival order, fires the engine's timers, writes every
accepted input and every state-changing timer to the action log *before* anyone hears of it,
and sends each listening socket its own view. Storage and the wall clock are injected, so the
host runs the same in tests (with fakes) as under Daphne (with the Django store).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from games.engine.actions import action_plain
from games.engine.contract import Framed
from games.engine.translation import gettext_noop
from games.live.protocol import (
    Ack,
    ErrorFrame,
    MotionFrame,
    Pending,
    StateFrame,
    server_frame_encode,
)
from games.live.round_trip import MAX_RTT_MS

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from games.engine.actions import ActionInput
    from games.engine.contract import Engine, Outcome, Trial
    from games.engine.contract import LogEntry as EngineLogEntry

logger = logging.getLogger(__name__)

RECENT_TRIALS_PER_SEAT = 5
# Motion (physics) is streamed at this pace: 20 frames a second, which tablets interpolate
# to their own 60 Hz.
MOTION_FRAME_MS = 50


def next_motion_due(due_ms: int, sent_ms: int) -> int:
    """When the frame after one sent at ``sent_ms`` (due at ``due_ms``) is due.

    Frames keep to a 50 ms schedule rather than "50 ms after the last one": the host only
    gets to send on a physics tick (every 16 ms), so waiting a full 50 ms after each send
    put frames 64 ms apart (15.6 a second). A frame sent late does not make the next one
    early by more than half a period, and after a rest the schedule starts again from the
    send, so a burst never follows a pause.
    """
    base = due_ms if due_ms > sent_ms - MOTION_FRAME_MS else sent_ms
    return max(base + MOTION_FRAME_MS, sent_ms + MOTION_FRAME_MS // 2)


# Told to the tablet (the site translates them on the way out).
GAME_FINISHED = gettext_noop("This game has finished.")
GAME_PAUSED = gettext_noop("The game is paused. Eyes on your teacher!")
PLAYERS_ONLY = gettext_noop("Only players can play.")
NOT_SAVED = gettext_noop("That tap could not be saved, so it did not count. Please try again.")

# The host's heartbeat: its loop stamps ``alive_ms`` at least this often, and the lease keeper
# renews a table's lease only while the stamp is fresh (classroom.hosting.lease_keeper), so a
# host that hangs or starves loses its table to another process instead of freezing it.
ALIVE_EVERY_MS = 500
# An input the store could not take (the database is down) is tried again, waiting these
# delays in turn (the last repeats), for up to STORE_RETRY_FOR_MS; the tablet is told it is
# "saving" meanwhile, then gets the ack, or an error saying the tap did not count.
STORE_RETRY_DELAYS_S = (0.1, 0.2, 0.5, 1.0, 2.0)
STORE_RETRY_FOR_MS = 60_000


# --------------------------------------------------------------------------------------------
# What the host needs from the outside world


@dataclass(frozen=True)
class LogEntry:
    """One accepted input (``act``) or state-changing timer (``tick``), at game time.

    ``action`` is the input as sent for an act; for a tick, None or ``{"checkpoint": ...}``
    (the outcome's ``checkpoint``, which replay restores).
    """

    seq: int
    kind: str
    seat: int | None
    action: Mapping[str, Any] | None
    now_ms: int
    # The tablet's id for the input (acts only), so a duplicate is never applied twice.
    client_id: str | None = None

    def as_replay(self) -> EngineLogEntry:
        return (self.kind, self.seat, self.action, self.now_ms)


class StoreFenced(Exception):
    """The store refused a write: another process has taken this table over (a newer epoch).

    The host stops at once; its tablets reconnect and reach the table's new owner.
    """


class StoreUnavailable(Exception):
    """The store could not be reached (the database is down or restarting): the same write
    may well work a moment later, so the host tries it again."""


class TableStore(Protocol):
    """Durable storage of a table's action log and trials."""

    async def append(self, entry: LogEntry, trials: Sequence[Trial]) -> None:
        """Write the entry and its trials in one transaction, or raise (StoreFenced if this
        host is no longer the table's owner, StoreUnavailable if trying again may work)."""
        ...


class Listener(Protocol):
    """A socket of this table in this process: a seat's tablet, or a teacher page (None)."""

    seat: int | None

    async def deliver(self, frame: str) -> None: ...


@dataclass(frozen=True)
class TableSetup:
    table_id: int
    config: Any
    seats: tuple[int, ...]
    seed: int
    bots: Mapping[int, Any] = field(default_factory=dict)


def wall_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def unix_ms() -> int:
    """Calendar time: the one clock that means the same in the next process (or machine)."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class ClockMark:
    """Where a table's game clock stands, kept with the table so a restart continues it.

    Running: game time is ``unix_ms() - origin_ms``. Paused: game time stands at
    ``frozen_ms``. It changes only when a host starts, pauses or resumes the table.
    """

    origin_ms: int
    frozen_ms: int | None = None


class ClockStore(Protocol):
    """Durable storage of a table's clock mark."""

    async def clock_save(self, mark: ClockMark) -> None:
        """Store the mark, or raise (StoreFenced if this host is no longer the owner)."""
        ...


# A rebuilt host steps a moving table (physics) forward to the present for at most this many
# unlogged ticks; a table still moving after that goes on from there.
CATCH_UP_TICKS = 10_000
# A clock mark that could not be stored is tried again this often, this many times.
CLOCK_SAVE_RETRY_S = 1.0
CLOCK_SAVE_TRIES = 30


def timeline_resume(
    engine: Engine[Any], state: Any, *, last_ms: int, target_ms: int
) -> tuple[Any, int]:
    """Where a table rebuilt from its log resumes: (state, game time).

    ``target_ms`` is where the table's timeline stands now (from its clock mark). Motion that
    the host streams but does not log (physics steps) is replayed up to it. The first timer
    that would change the game (a flip, a deal, a bot's move: a logged tick) is not run here:
    the clock stops at its due time, so the host fires it at once, and the time the table was
    down past it counts as a pause. So a restart shorter than the time to the next timer
    changes nothing, and a long outage fires what was due once, at resume, instead of a burst
    of cards and moves nobody saw.
    """
    position = last_ms
    for _ in range(CATCH_UP_TICKS):
        deadline = engine.next_deadline(state)
        if deadline is None or deadline > target_ms:
            return state, max(position, target_ms)
        deadline = max(deadline, position)
        outcome = engine.tick(state, deadline)
        if outcome.logged or outcome.state is state:
            return state, deadline
        state, position = outcome.state, deadline
    return state, position


class GameClock:
    """Game time in ms: wall time that stands still while the table is paused.

    A host rebuilt from the log starts it where the table's timeline stands (see
    :func:`timeline_resume`), so timers that were running when the process stopped come due
    when they would have.
    """

    def __init__(self, *, start_ms: int = 0, wall: Callable[[], int] = wall_ms) -> None:
        self._wall = wall
        self._offset = start_ms - wall()
        self._paused_at: int | None = None

    def now(self) -> int:
        reference = self._paused_at if self._paused_at is not None else self._wall()
        return reference + self._offset

    def pause(self) -> None:
        if self._paused_at is None:
            self._paused_at = self._wall()

    def resume(self) -> None:
        if self._paused_at is not None:
            self._offset -= self._wall() - self._paused_at
            self._paused_at = None

    @property
    def paused(self) -> bool:
        return self._paused_at is not None


# --------------------------------------------------------------------------------------------
# Inbox items


@dataclass(frozen=True)
class _Act:
    listener: Listener
    seq: int
    action: ActionInput
    client_id: str | None = None
    # When it reached the host (wall ms): the time it then waits in the inbox is part of the
    # stimulus's age at the engine, so it counts with the round trip (``_timed``).
    arrived_ms: int | None = None


@dataclass(frozen=True)
class _Sync:
    listener: Listener


@dataclass(frozen=True)
class _Control:
    command: str  # "pause" | "resume" | "end"


@dataclass(frozen=True)
class _Takeover:
    seat: int
    level: str


_Item = _Act | _Sync | _Control | _Takeover

# A takeover the store could not write is tried again after this long.
TAKEOVER_RETRY_S = 0.5


class TableHost:
    """Owns one table's state; everything that changes it goes through :meth:`_run`."""

    def __init__(
        self,
        *,
        setup: TableSetup,
        engine: Engine[Any],
        store: TableStore,
        log: Sequence[LogEntry] = (),
        paused: bool = False,
        wall: Callable[[], int] = wall_ms,
        on_change: Callable[[TableHost], None] | None = None,
        epoch: int = 0,
        clock_mark: ClockMark | None = None,
        clock_store: ClockStore | None = None,
        unix: Callable[[], int] = unix_ms,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.setup = setup
        # This host's fencing epoch (games.live.leases), stamped on every frame it sends.
        self.epoch = epoch
        self.engine = engine
        self.store = store
        self.state = engine.replay(
            setup.config, setup.seats, setup.seed, setup.bots, [e.as_replay() for e in log]
        )
        self.next_seq = (log[-1].seq + 1) if log else 1
        self.version = len(log)
        # Inputs already in the log, by the tablet's id: a repeat is acknowledged, not applied.
        self._seen_clients: set[str] = {e.client_id for e in log if e.client_id}
        self._wall = wall
        self._unix = unix
        self._clock_store = clock_store
        self._sleep = sleep
        # The loop's heartbeat (wall ms), see ALIVE_EVERY_MS.
        self.alive_ms = wall()
        last_ms = log[-1].now_ms if log else 0
        unix_now = unix()
        self.state, start_ms = timeline_resume(
            engine, self.state, last_ms=last_ms, target_ms=_timeline_now(clock_mark, unix_now)
        )
        self.clock = GameClock(start_ms=start_ms, wall=wall)
        if paused:
            self.clock.pause()
        self.clock_mark = _mark(start_ms, unix_now, paused=paused, previous=clock_mark)
        # The mark still to be stored (None: the store has it), and the task storing it.
        self._mark_unsaved = None if self.clock_mark == clock_mark else self.clock_mark
        self._mark_task: asyncio.Task[None] | None = None
        self.ended = False
        # Set when the store refused a write because another process owns the table now.
        self.fenced = False
        self.recent_trials: dict[int, deque[dict[str, Any]]] = {}
        self._listeners: set[Listener] = set()
        self._inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._on_change = on_change
        self._stop_callbacks: list[Callable[[], None]] = []
        self._motion_due_ms = 0
        self._delivering: asyncio.Future[None] | None = None  # the broadcast being sent

    # -- the outside world's side ------------------------------------------------------------

    @property
    def table_id(self) -> int:
        return self.setup.table_id

    @property
    def paused(self) -> bool:
        return self.clock.paused

    def start(self) -> asyncio.Task[None]:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=f"table-{self.table_id}")
            self._task.add_done_callback(self._call_stop_callbacks)
            self._mark_save()
        return self._task

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    @property
    def finished(self) -> bool:
        """The loop ran and has stopped (ended, fenced, reaped or failed)."""
        return self._task is not None and self._task.done()

    def on_stop(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once this host's loop has finished (ended, reaped or failed)."""
        if self._task is None or self._task.done():
            callback()
        else:
            self._stop_callbacks.append(callback)

    def forget_on_stop(self, callback: Callable[[], None]) -> None:
        """A socket that left no longer needs telling (and must not be kept alive by it)."""
        with contextlib.suppress(ValueError):
            self._stop_callbacks.remove(callback)

    def _call_stop_callbacks(self, _task: asyncio.Future[None]) -> None:
        if self._delivering is not None and not self._delivering.done():
            # The change being sent reaches every socket before any is told the host stopped
            # (a socket told so closes, and takes nothing more).
            self._delivering.add_done_callback(self._call_stop_callbacks)
            return
        callbacks, self._stop_callbacks = self._stop_callbacks, []
        for callback in callbacks:
            callback()

    def stalled_ms(self) -> int:
        """How long ago the loop last showed it is making progress (wall ms)."""
        return self._wall() - self.alive_ms

    @property
    def listener_count(self) -> int:
        return len(self._listeners)

    def seats_listening(self) -> set[int]:
        return {listener.seat for listener in self._listeners if listener.seat is not None}

    async def join(self, listener: Listener) -> None:
        """Attach a socket; it gets its view at once (through the inbox, so in order)."""
        self._listeners.add(listener)
        self._inbox.put_nowait(_Sync(listener))

    def leave(self, listener: Listener) -> None:
        self._listeners.discard(listener)

    def submit(
        self,
        listener: Listener,
        seq: int,
        action: ActionInput,
        client_id: str | None = None,
    ) -> None:
        self._inbox.put_nowait(_Act(listener, seq, action, client_id, self._wall()))

    def resync(self, listener: Listener) -> None:
        self._inbox.put_nowait(_Sync(listener))

    def control(self, command: str) -> None:
        self._inbox.put_nowait(_Control(command))

    def seat_to_bot(self, seat: int, level: str) -> None:
        """From now on a bot of ``level`` plays ``seat`` (its player left for good). Logged as
        a ``bot`` entry, so a rebuilt table follows it; asking twice changes nothing."""
        self._inbox.put_nowait(_Takeover(seat, level))

    def teacher_view(self) -> dict[str, Any]:
        """What the teacher's console shows: the public view plus recent trials per seat."""
        view = self.engine.view(self.state, None)
        view["recent_trials"] = {
            str(seat): list(trials) for seat, trials in self.recent_trials.items()
        }
        view["paused"] = self.paused
        return view

    # -- the loop ----------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self.ended and not self.fenced:
            self.alive_ms = self._wall()
            deadline = None if self.paused else self.engine.next_deadline(self.state)
            timeout = None if deadline is None else max(0, deadline - self.clock.now()) / 1000
            # Wake at least every ALIVE_EVERY_MS to stamp the heartbeat, even when idle.
            alive_s = ALIVE_EVERY_MS / 1000
            due = timeout is not None and timeout <= alive_s
            item = await self._next_item(alive_s if timeout is None else min(timeout, alive_s))
            if item is not None:
                await self._handle(item)
            elif due:
                await self._tick()

    async def _next_item(self, wait_s: float) -> _Item | None:
        """The inbox's next item, or None after ``wait_s`` without one.

        An item waiting already is taken at once, and one that comes is awaited in the
        loop's own task: a table's moves cost no task and no ``asyncio.wait`` each. A timeout
        that fires as an item comes leaves the item in the inbox for the next turn.
        """
        if not self._inbox.empty():
            return self._inbox.get_nowait()
        if wait_s <= 0:
            await asyncio.sleep(0)  # a table that is always due still lets the others run
            return self._inbox.get_nowait() if not self._inbox.empty() else None
        try:
            async with asyncio.timeout(wait_s):
                return await self._inbox.get()
        except TimeoutError:
            return None

    async def _handle(self, item: _Item) -> None:
        if isinstance(item, _Sync):
            await self._send_state(item.listener, events=[])
        elif isinstance(item, _Control):
            await self._control(item.command)
        elif isinstance(item, _Takeover):
            await self._takeover(item)
        else:
            await self._act(item)

    async def _control(self, command: str) -> None:
        if command == "pause":
            self.clock.pause()
        elif command == "resume":
            self.clock.resume()
        elif command == "end":
            self.ended = True
        if command in ("pause", "resume"):
            self.clock_mark = self._mark_unsaved = _mark(
                self.clock.now(), self._unix(), paused=self.paused, previous=self.clock_mark
            )
            self._mark_save()
        await self._broadcast(events=[{"kind": command}], at_ms=self._wall())

    async def _takeover(self, item: _Takeover) -> None:
        if self.ended:
            return
        began = self._wall()
        now = self.clock.now()
        outcome = self.engine.takeover(self.state, item.seat, item.level, now)
        if outcome.state is self.state:
            return  # a bot plays it already (or the game is over)
        entry = LogEntry(self.next_seq, "bot", item.seat, {"bot": item.level}, now)
        if await self._commit(entry, outcome):
            await self._broadcast(events=_events(outcome), at_ms=began)
        elif not self.fenced:
            # Storage is down: the seat must still go to a bot once it is back.
            asyncio.get_running_loop().call_later(TAKEOVER_RETRY_S, self._inbox.put_nowait, item)

    async def _act(self, item: _Act) -> None:
        if self.ended:
            await self._reply_error(item, "ended", GAME_FINISHED)
            return
        if self.paused:
            await self._reply_error(item, "paused", GAME_PAUSED)
            return
        began = self._wall()
        if item.listener.seat is None:
            await self._reply_error(item, "not_a_player", PLAYERS_ONLY)
            return
        if item.client_id is not None and item.client_id in self._seen_clients:
            # Sent again (a retry, a duplicated frame): it is in the log already.
            await self._deliver(item.listener, self._ack(item.seq))
            return
        now = self.clock.now()
        action = self._timed(item)
        outcome = self.engine.act(self.state, item.listener.seat, action, now)
        if outcome.rejected is not None:
            if outcome.trials:
                await self._record_refusal(item, action, now, outcome)
            await self._reply_error(item, "rejected", outcome.rejected)
            return
        entry = LogEntry(
            self.next_seq, "act", item.listener.seat, action_plain(action), now, item.client_id
        )
        if not await self._commit(entry, outcome, item):
            if not self.fenced:
                await self._reply_error(item, "not_saved", NOT_SAVED)
            # Fenced: no answer. The host stops, the tablet reconnects to the table's new
            # owner and sends the input again there (an error would make it drop the tap).
            return
        ack = (item.listener, self._ack(item.seq))
        await self._broadcast(events=_events(outcome), at_ms=began, first=ack)

    def _timed(self, item: _Act) -> ActionInput:
        """The input as the engine takes it (and the log keeps it): a round trip it carries
        (``rtt_ms``, the server's own measure, games.live.round_trip) grows by the time the
        input waited in this host's inbox, since that wait is in the stimulus's age too
        (games.engine.reaction). A busy table never makes an honest tablet's time look forged."""
        action = item.action
        rtt = (
            action.get("rtt_ms") if isinstance(action, Mapping) else getattr(action, "rtt_ms", None)
        )
        if item.arrived_ms is None or not isinstance(rtt, int) or isinstance(rtt, bool):
            return action
        if not 0 <= rtt <= MAX_RTT_MS:  # stays as sent, for the engine to refuse
            return action
        timed = min(MAX_RTT_MS, rtt + max(0, self._wall() - item.arrived_ms))
        if isinstance(action, Mapping):
            return {**action, "rtt_ms": timed}
        return msgspec.structs.replace(action, rtt_ms=timed)

    async def _tick(self) -> None:
        began = self._wall()
        now = self.clock.now()
        due = self.engine.next_deadline(self.state)
        late_ms = 0 if due is None else max(0, now - due)
        outcome = self.engine.tick(self.state, now)
        if outcome.state is self.state and not outcome.events and not outcome.trials:
            return
        if not outcome.logged:
            # Deterministic motion: replaying the next logged entry recomputes it.
            self.state = outcome.state
            await self._stream_motion(began, now)
            return
        payload = None if outcome.checkpoint is None else {"checkpoint": outcome.checkpoint}
        entry = LogEntry(self.next_seq, "tick", None, payload, now)
        if await self._commit(entry, outcome):
            await self._broadcast(events=_events(outcome), at_ms=began, late_ms=late_ms)
        elif not self.fenced:
            # Refused (or given up on): wait a moment rather than spin on the same deadline.
            await self._sleep(0.5)

    async def _commit(
        self, entry: LogEntry, outcome: Outcome[Any], item: _Act | None = None
    ) -> bool:
        """Persist first; only a stored change becomes the table's state.

        A store that is unavailable (the database is down) is tried again for up to
        STORE_RETRY_FOR_MS; the input's tablet hears "pending" meanwhile. Later inputs wait in
        the inbox, so the table's order is kept.
        """
        give_up_at = self._wall() + STORE_RETRY_FOR_MS
        attempt = 0
        while True:
            try:
                await self.store.append(entry, outcome.trials)
                break
            except StoreFenced:
                logger.warning("table %s: taken over by another process; stopping", self.table_id)
                self.fenced = True
                return False
            except StoreUnavailable as error:
                if attempt == 0:
                    # One line, no traceback: an outage hits every table at once.
                    logger.warning(
                        "table %s: could not store log entry %s (%s); trying again",
                        self.table_id,
                        entry.seq,
                        error,
                    )
                if self._wall() >= give_up_at:
                    logger.error(
                        "table %s: gave up storing log entry %s after %d tries",
                        self.table_id,
                        entry.seq,
                        attempt + 1,
                    )
                    return False
                if attempt == 0 and item is not None:
                    pending = server_frame_encode(Pending(seq=item.seq, reason="saving"))
                    await self._deliver(item.listener, pending)
                delay = STORE_RETRY_DELAYS_S[min(attempt, len(STORE_RETRY_DELAYS_S) - 1)]
                attempt += 1
                # Waiting for the store is progress (the heartbeat stays fresh).
                self.alive_ms = self._wall()
                await self._sleep(delay)
                self.alive_ms = self._wall()
            except Exception:
                # Not a matter of waiting (a refused row): this input cannot be stored.
                logger.exception("table %s: could not store log entry %s", self.table_id, entry.seq)
                return False
        if attempt:
            logger.warning(
                "table %s: stored entry %s after %d tries", self.table_id, entry.seq, attempt + 1
            )
        self.state = outcome.state
        self.next_seq = entry.seq + 1
        self.version += 1
        if entry.client_id is not None:
            self._seen_clients.add(entry.client_id)
        self._remember_trials(outcome)
        if self._on_change is not None:
            self._on_change(self)
        return True

    # -- the clock mark ----------------------------------------------------------------------

    def _mark_save(self) -> None:
        """Store the latest clock mark in the background (the table never waits for it)."""
        if self._clock_store is None or self._mark_unsaved is None:
            return
        if self._mark_task is None or self._mark_task.done():
            self._mark_task = asyncio.create_task(
                self._mark_write(self._clock_store), name=f"table-{self.table_id}-clock"
            )

    async def _mark_write(self, store: ClockStore) -> None:
        tries = 0
        while self._mark_unsaved is not None and tries < CLOCK_SAVE_TRIES:
            mark, tries = self._mark_unsaved, tries + 1
            try:
                await store.clock_save(mark)
            except StoreFenced:
                return  # a newer owner keeps the table's clock now
            except Exception:
                logger.warning("table %s: could not store its clock", self.table_id, exc_info=True)
                if self.finished:
                    return  # stopped: whoever hosts the table next writes its own mark
                await asyncio.sleep(CLOCK_SAVE_RETRY_S)
                continue
            if self._mark_unsaved == mark:
                self._mark_unsaved = None

    async def _record_refusal(
        self, item: _Act, action: ActionInput, now: int, outcome: Outcome[Any]
    ) -> None:
        """A refused input that is still a measurement (a false alarm): log it with its trials.

        Replaying it is refused again and changes nothing, so the log stays a faithful
        history; the table's state and version do not move.
        """
        assert item.listener.seat is not None
        entry = LogEntry(
            self.next_seq, "act", item.listener.seat, action_plain(action), now, item.client_id
        )
        try:
            await self.store.append(entry, outcome.trials)
        except StoreFenced:
            self.fenced = True
            return
        except Exception:
            logger.exception("table %s: could not store refused input %s", self.table_id, entry.seq)
            return
        self.next_seq = entry.seq + 1
        if entry.client_id is not None:
            self._seen_clients.add(entry.client_id)
        self._remember_trials(outcome)

    def _remember_trials(self, outcome: Outcome[Any]) -> None:
        for trial in outcome.trials:
            recent = self.recent_trials.setdefault(trial.seat, deque(maxlen=RECENT_TRIALS_PER_SEAT))
            recent.append({"kind": trial.kind, **trial.data})

    # -- sending -----------------------------------------------------------------------------

    async def _deliver(self, listener: Listener, frame: str) -> None:
        """One socket's own answer; a socket that went away must not stop the table."""
        try:
            await listener.deliver(frame)
        except Exception:
            logger.debug("table %s: dropping a listener", self.table_id, exc_info=True)
            self._listeners.discard(listener)

    def _ack(self, seq: int) -> str:
        return server_frame_encode(Ack(seq=seq, version=self.version, epoch=self.epoch))

    async def _reply_error(self, item: _Act, code: str, message: str) -> None:
        frame = ErrorFrame(code=code, message=message, seq=item.seq)
        await self._deliver(item.listener, server_frame_encode(frame))

    async def _stream_motion(self, began: int, now: int) -> None:
        if began < self._motion_due_ms and self.engine.next_deadline(self.state) is not None:
            return  # a frame went out moments ago; the last one before rest always goes
        self._motion_due_ms = next_motion_due(self._motion_due_ms, began)
        # Only engines with moving parts (physics) have frames, and only they stream.
        if not isinstance(self.engine, Framed):
            return
        frame_of = self.engine.frame
        frame = MotionFrame(
            version=self.version,
            frame=frame_of(self.state),
            at_ms=began,
            game_ms=now,
            epoch=self.epoch,
        )
        encoded = server_frame_encode(frame)  # once, for every socket
        for listener in list(self._listeners):
            try:
                await listener.deliver(encoded)
            except Exception:
                logger.debug("table %s: dropping a listener", self.table_id, exc_info=True)
                self._listeners.discard(listener)

    def _frame_for(
        self, seat: int | None, events: list[dict[str, Any]], at_ms: int, late_ms: int = 0
    ) -> str:
        view = self.engine.view(self.state, seat)
        view["paused"] = self.paused
        view["ended"] = self.ended
        # Game time of this frame: lets a tablet count down to the view's own deadlines.
        view["game_ms"] = self.clock.now()
        frame = StateFrame(
            version=self.version,
            view=view,
            events=events,
            at_ms=at_ms,
            epoch=self.epoch,
            late_ms=late_ms,
        )
        return server_frame_encode(frame)

    async def _send_state(self, listener: Listener, events: list[dict[str, Any]]) -> None:
        await self._deliver(listener, self._frame_for(listener.seat, events, self._wall()))

    async def _broadcast(
        self,
        events: list[dict[str, Any]],
        at_ms: int,
        first: tuple[Listener, str] | None = None,
        late_ms: int = 0,
    ) -> None:
        """Send every socket of the table its view of a stored change (``first``: the actor's
        ack, before it).

        All or nothing: the frames are built first, then delivered in a task the host's own
        cancellation does not reach. A host stopped mid-broadcast (its table given up, the
        process shutting down) used to leave part of the table without the change: a flip
        that reached one tablet of four, which the others, replayed elsewhere, never got.
        """
        frames: dict[int | None, str] = {}
        deliveries = [first] if first is not None else []
        for listener in list(self._listeners):
            # One view and one serialization per distinct seat, shared by its sockets.
            if listener.seat not in frames:
                frames[listener.seat] = self._frame_for(listener.seat, events, at_ms, late_ms)
            deliveries.append((listener, frames[listener.seat]))
        self._delivering = asyncio.ensure_future(self._deliver_all(deliveries))
        await asyncio.shield(self._delivering)

    async def _deliver_all(self, deliveries: list[tuple[Listener, str]]) -> None:
        for listener, frame in deliveries:
            await self._deliver(listener, frame)


def _timeline_now(mark: ClockMark | None, unix_now: int) -> int:
    """Where the table's timeline stands now by its clock mark (0 without one: the host then
    starts at its last logged entry, as :func:`timeline_resume` never goes back before it)."""
    if mark is None:
        return 0
    return mark.frozen_ms if mark.frozen_ms is not None else unix_now - mark.origin_ms


def _mark(game_ms: int, unix_now: int, *, paused: bool, previous: ClockMark | None) -> ClockMark:
    if not paused:
        return ClockMark(unix_now - game_ms)
    # Paused: the origin is replaced when the table resumes; keep the one it had.
    return ClockMark(unix_now - game_ms if previous is None else previous.origin_ms, game_ms)


def _events(outcome: Outcome[Any]) -> list[dict[str, Any]]:
    return [
        {"kind": event.kind, **msgspec.to_builtins(dict(event.data))} for event in outcome.events
    ]
