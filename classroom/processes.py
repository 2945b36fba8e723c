"""Identity of this server process, and which processes are alive (for presence).

A seat's open sockets are rows tagged with the process holding them. Rows of a process that
died (kill -9, a crash) are never deleted by it, so presence counts only rows of live
processes: this one alone in the embedded mode; in a cluster, every process that has said it
is alive in the shared cache within the last PROCESS_ALIVE_S (``classroom.server.heartbeat``
keeps saying it).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache

if TYPE_CHECKING:
    from collections.abc import Iterable

PROCESS_ID = uuid.uuid4().hex
PROCESS_ALIVE_S = 15


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
