"""The server's half of the heartbeat: a socket that stops sending is closed.

A tablet whose Wi-Fi drops never says goodbye, and TCP may keep its dead connection open for
minutes; the teacher's console would show it connected all that while. Pages send a frame at
least every 2 s (static/js/lib/heartbeat.js: a ping, or a table page's answer to a probe), so a
socket that then sends nothing at all for ``limit_s`` has lost its tablet.

Only a socket whose page asked for it is held to this (the consumer arms the watchdog when
the page connects with ``?heartbeat=1``): a script, a bot or an older page that pings now and
then is left to Daphne's own keepalive.

A tablet's socket also beats from this side: the watchdog calls ``beat`` every ``beat_every_s``
(the server's round-trip probe, games.live.round_trip), and the tablet's answer is its sign of
life, so a tablet pings only when it hears nothing (static/js/lib/heartbeat.js). One probe and its
answer stand in for a ping, its pong, a probe and its answer: half the frames a school's
tablets cost the server.

Every watchdog of an event loop is kept by one ``Heartbeats``: one task and one timer for all
of them, waking when the earliest is due and handling every watchdog due by then. A task of
its own for each socket would wake the loop once per socket every 2 s, each time with a timer,
a future and a coroutine made for it: thousands a second in a school, and the objects a young
collection walks while every tablet waits.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import weakref
from typing import TYPE_CHECKING

from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)

# A frame missed and the next one late (a page sends one at least every 2 s): long enough for
# a busy tablet or a Wi-Fi hiccup, short enough that the console shows the truth within about
# five seconds.
SILENCE_LIMIT_S = 4.0
# A loop's timer may fire a hair early: what is this close to due is done now, not after one
# more wake-up.
TIMER_SLACK_S = 0.001
# The shortest wait between two rounds of the watchdogs: what falls due meanwhile waits for
# the next round (a probe or a close this much late), so a school's sockets wake the loop
# about 50 times a second rather than once per socket.
ROUND_EVERY_S = 0.02


class SilenceWatchdog:
    """Calls ``on_silent`` once when nothing was heard for ``limit_s`` after ``arm``, and
    ``beat`` (if given) at once and then every ``beat_every_s`` until then.

    ``beat`` sends a frame and returns: it is awaited in the round that every watchdog of the
    loop shares. Made on the event loop that keeps it.
    """

    def __init__(
        self,
        on_silent: Callable[[], Awaitable[None]],
        *,
        limit_s: float = SILENCE_LIMIT_S,
        beat: Callable[[], Awaitable[None]] | None = None,
        beat_every_s: float = 2.0,
    ) -> None:
        self._on_silent = on_silent
        self._limit_s = limit_s
        self._beat = beat
        self._beat_every_s = beat_every_s
        self._last = _now()
        self._next_beat = self._last
        self._armed = False
        self._stopped = False

    def heard(self) -> None:
        """A frame came in (any frame)."""
        self._last = _now()

    def arm(self) -> None:
        """From now on, silence closes the socket (and beats go out)."""
        if self._armed:
            return
        self._armed = True
        self._next_beat = _now()
        heartbeats().keep(self)

    def stop(self) -> None:
        self._stopped = True

    @property
    def armed(self) -> bool:
        return self._armed

    @property
    def stopped(self) -> bool:
        return self._stopped

    def due(self) -> float:
        """When this watchdog next has something to do (the loop's clock)."""
        silent_at = self._last + self._limit_s
        return silent_at if self._beat is None else min(silent_at, self._next_beat)

    def silent(self, now: float) -> bool:
        return now - self._last >= self._limit_s - TIMER_SLACK_S

    def beat_take(self, now: float) -> bool:
        """True when a beat is due by ``now``; the next one is then counted from ``now``."""
        if self._beat is None or now < self._next_beat - TIMER_SLACK_S:
            return False
        self._next_beat = now + self._beat_every_s
        return True

    async def beat(self) -> None:
        if self._beat is None or self._stopped:
            return
        try:
            await self._beat()
        except Exception:
            logger.exception("a heartbeat beat failed")

    async def close_silent(self) -> None:
        try:
            await self._on_silent()
        except Exception:
            logger.exception("closing a silent socket failed")


class Heartbeats:
    """Every armed watchdog of one event loop, in the order they fall due, and the one task
    that wakes for them (while there are any).

    Kept per loop in a map that holds the loop weakly, so it holds the loop, its task and
    that task's wake-up only weakly too: a loop that ends (a test's) is not kept alive by
    them.
    """

    def __init__(self) -> None:
        self._due: list[tuple[float, int, SilenceWatchdog]] = []
        self._order = itertools.count()
        self._task: weakref.ref[asyncio.Task[None]] | None = None
        self._wake: weakref.ref[asyncio.Future[None]] | None = None
        self._wake_at = float("inf")
        # Silent sockets being closed (a close may wait on the database): kept until done.
        self._closing: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._due)

    def keep(self, watchdog: SilenceWatchdog) -> None:
        due = watchdog.due()
        heapq.heappush(self._due, (due, next(self._order), watchdog))
        task = self._task() if self._task is not None else None
        if task is None or task.done():
            # The loop holds the task while it waits for its timer.
            task = asyncio.get_running_loop().create_task(
                supervised("socket heartbeats", self._run), name="socket-heartbeats"
            )
            self._task = weakref.ref(task)
            return
        wake = self._wake() if self._wake is not None else None
        if due < self._wake_at and wake is not None and not wake.done():
            wake.set_result(None)  # due before the task's next round (a first beat)

    async def _run(self) -> None:
        while self._due:
            now = _now()
            if self._due[0][0] <= now + TIMER_SLACK_S:
                await self._round(now)
                if not self._due:
                    return
            # Whatever falls due in the next moments waits for one round with the rest.
            await self._sleep_until(max(self._due[0][0], now + ROUND_EVERY_S))

    async def _round(self, now: float) -> None:
        beats, silent = self._take_due(now)
        for watchdog in beats:
            await watchdog.beat()
        for watchdog in silent:
            closing = asyncio.get_running_loop().create_task(watchdog.close_silent())
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)

    def _take_due(self, now: float) -> tuple[list[SilenceWatchdog], list[SilenceWatchdog]]:
        """Every watchdog due by ``now``: those to beat, and those silent (no longer kept).
        A watchdog heard since it was queued goes back in at its new time."""
        beats: list[SilenceWatchdog] = []
        silent: list[SilenceWatchdog] = []
        while self._due and self._due[0][0] <= now + TIMER_SLACK_S:
            _due, _order, watchdog = heapq.heappop(self._due)
            if watchdog.stopped:
                continue
            if watchdog.silent(now):
                watchdog.stop()
                silent.append(watchdog)
                continue
            if watchdog.beat_take(now):
                beats.append(watchdog)
            heapq.heappush(self._due, (watchdog.due(), next(self._order), watchdog))
        return beats, silent

    async def _sleep_until(self, when: float) -> None:
        loop = asyncio.get_running_loop()
        wake: asyncio.Future[None] = loop.create_future()
        self._wake, self._wake_at = weakref.ref(wake), when
        timer = loop.call_at(when, _resolve, wake)
        try:
            await wake
        finally:
            timer.cancel()
            self._wake, self._wake_at = None, float("inf")


def _now() -> float:
    return asyncio.get_running_loop().time()


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeats] = (
    weakref.WeakKeyDictionary()
)


def heartbeats() -> Heartbeats:
    """The running loop's watchdogs."""
    loop = asyncio.get_running_loop()
    kept = _by_loop.get(loop)
    if kept is None:
        kept = _by_loop[loop] = Heartbeats()
    return kept
