"""In a cluster, keep saying this process is alive, so its sockets count as present
(``classroom.processes``)."""

from __future__ import annotations

import asyncio
import logging
import weakref

from asgiref.sync import sync_to_async
from django.conf import settings

from classroom.processes import process_alive_mark
from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from games.live.supervision import supervised

logger = logging.getLogger(__name__)

HEARTBEAT_S = 5.0

_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def heartbeat_ensure() -> None:
    """In a cluster, keep saying this process is alive (one task per event loop)."""
    if not settings.REDIS_URL:
        return
    loop = asyncio.get_running_loop()
    task = _heartbeats.get(loop)
    if task is None or task.done():
        _heartbeats[loop] = loop.create_task(
            supervised("process heartbeat", _heartbeat), name="process-heartbeat"
        )


async def _heartbeat() -> None:
    while True:
        try:
            await sync_to_async(process_alive_mark)()
        except OUTAGE_ERRORS as error:  # the cache is down: presence is stale, play goes on
            outage_warning("could not mark this process alive", error)
        except Exception:
            logger.warning("could not mark this process alive", exc_info=True)
        await asyncio.sleep(HEARTBEAT_S)
