"""Identity of this server process, and which processes are alive (for presence).

A seat's open sockets are rows tagged with the process holding them. Rows of a process that
died (kill -9, a crash) are never deleted by it, so presence counts only rows of live
processes: this one alone in the embedded mode; in a cluster, every process that has said it
is alive in the shared cache within the last PROCESS_ALIVE_S.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref
from typing import TYPE_CHECKING

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache

from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Iterable

logger = logging.getLogger(__name__)

PROCESS_ID = uuid.uuid4().hex
PROCESS_ALIVE_S = 15
HEARTBEAT_S = 5.0

_heartbeats: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def process_identity_adopt(process_id: str) -> None:
    """This process speaks for the serving process ``process_id`` (the process drawing its
    teacher pages): the sockets that process holds count as present here too."""
    global PROCESS_ID
    PROCESS_ID = process_id


def _alive_key(process_id: str) -> str:
    return f"snapclass:process:{process_id}:alive"


def process_alive_mark() -> None:
    cache.set(_alive_key(PROCESS_ID), 1, timeout=PROCESS_ALIVE_S)


def processes_alive(process_ids: Iterable[str]) -> set[str]:
    """Those of ``process_ids`` that are alive (always including this process)."""
    wanted = set(process_ids) - {PROCESS_ID}
    if not settings.REDIS_URL or not wanted:
        return {PROCESS_ID}
    found = cache.get_many([_alive_key(process_id) for process_id in wanted])
    return {PROCESS_ID} | {pid for pid in wanted if _alive_key(pid) in found}


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
