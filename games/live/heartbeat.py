"""The server's half of the heartbeat: a socket that stops sending is closed.

A tablet whose Wi-Fi drops never says goodbye, and TCP may keep its dead connection open for
minutes; the teacher's console would show it connected all that while. Pages ping every 2 s
(static/js/heartbeat.js), so a socket that has pinged once and then sends nothing at all,
pings included, for ``limit_s`` has lost its tablet.

Only a socket whose page asked for it is held to this (the consumer arms the watchdog when
the page connects with ``?heartbeat=1``): a script, a bot or an older page that pings now and
then is left to Daphne's own keepalive.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)

# A ping missed and the next one late (a page pings every 2 s): long enough for a busy tablet
# or a Wi-Fi hiccup, short enough that the console shows the truth within about five seconds.
SILENCE_LIMIT_S = 4.0


class SilenceWatchdog:
    """Calls ``on_silent`` once when nothing was heard for ``limit_s`` after ``arm``."""

    def __init__(
        self,
        on_silent: Callable[[], Awaitable[None]],
        *,
        limit_s: float = SILENCE_LIMIT_S,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._on_silent = on_silent
        self._limit_s = limit_s
        self._clock = clock
        self._sleep = sleep
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
        # Sleep until the silence would reach the limit, then look again: one wake-up per
        # limit while frames keep coming, none per frame.
        while (left := self._last + self._limit_s - self._clock()) > 0:
            await self._sleep(left)
        try:
            await self._on_silent()
        except Exception:
            logger.exception("closing a silent socket failed")
