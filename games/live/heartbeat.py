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
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)

# A frame missed and the next one late (a page sends one at least every 2 s): long enough for
# a busy tablet or a Wi-Fi hiccup, short enough that the console shows the truth within about
# five seconds.
SILENCE_LIMIT_S = 4.0
# A loop's timer may fire a hair early: a beat that is this close to due goes now, not after
# one more wake-up.
TIMER_SLACK_S = 0.001


class SilenceWatchdog:
    """Calls ``on_silent`` once when nothing was heard for ``limit_s`` after ``arm``."""

    def __init__(
        self,
        on_silent: Callable[[], Awaitable[None]],
        *,
        limit_s: float = SILENCE_LIMIT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        beat: Callable[[], Awaitable[None]] | None = None,
        beat_every_s: float = 2.0,
    ) -> None:
        self._on_silent = on_silent
        self._limit_s = limit_s
        self._clock = clock
        self._sleep = sleep
        self._beat = beat
        self._beat_every_s = beat_every_s
        self._last = clock()
        self._task: asyncio.Task[None] | None = None

    def heard(self) -> None:
        """A frame came in (any frame)."""
        self._last = self._clock()

    def arm(self) -> None:
        """From now on, silence closes the socket."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._watch())

    def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()

    @property
    def armed(self) -> bool:
        return self._task is not None

    async def _watch(self) -> None:
        # Sleep until the silence would reach the limit (or the next beat is due), then look
        # again: one wake-up per limit (or beat) while frames keep coming, none per frame.
        next_beat = self._clock()
        while (left := self._last + self._limit_s - (now := self._clock())) > 0:
            if self._beat is None:
                await self._sleep(left)
                continue
            if now >= next_beat - TIMER_SLACK_S:
                next_beat = now + self._beat_every_s
                try:
                    await self._beat()
                except Exception:
                    logger.exception("a heartbeat beat failed")
                continue
            await self._sleep(min(left, next_beat - now))
        try:
            await self._on_silent()
        except Exception:
            logger.exception("closing a silent socket failed")
