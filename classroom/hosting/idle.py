"""Ending sessions nobody plays any more: a supervised task per event loop looks every minute.

A teacher who forgets to press End leaves the session running (its code joinable, its tables
"Playing"); after ``classroom.services.sessions.IDLE_END_AFTER`` without a tablet it ends by
itself. The clock and the sleep are injected, so a test drives the loop without waiting.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from django.utils import timezone

from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from datetime import datetime

logger = logging.getLogger(__name__)

LOOK_EVERY_S = 60.0

_watchers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}


def _idle_end(now: datetime) -> list[int]:
    # Imported here: the sessions service imports the live runtime, which imports this module.
    from classroom.services.sessions import sessions_idle_end

    return sessions_idle_end(now=now)


async def idle_watch(
    *,
    clock: Callable[[], datetime] = timezone.now,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    rounds: int | None = None,
) -> None:
    """Every ``LOOK_EVERY_S``, end the sessions idle for too long (``rounds`` looks, or for
    ever)."""
    done = 0
    while rounds is None or done < rounds:
        # Sleep first: a process just started has had no time to see its tablets come back.
        await sleep(LOOK_EVERY_S)
        try:
            ended = await database_sync_to_async(_idle_end)(clock())
        except OUTAGE_ERRORS as error:  # the database is away: look again next time
            outage_warning("could not look for idle sessions", error)
        else:
            if ended:
                logger.info("ended idle sessions %s", ended)
        done += 1


def idle_watch_ensure() -> None:
    """Start the watcher of this event loop once (a socket opening calls it)."""
    loop = asyncio.get_running_loop()
    task = _watchers.get(loop)
    if task is None or task.done():
        _watchers[loop] = loop.create_task(
            supervised("idle session watch", idle_watch), name="idle-session-watch"
        )
