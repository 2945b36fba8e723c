"""The thread the tablets' lobby sockets make their database calls on.

Every other ``database_sync_to_async`` call runs on the one thread asgiref shares: the game
sockets', the teacher pages'. A class tapping "Join" at once opens dozens of lobby sockets,
each reading its seat and drawing its lobby, one after the other, on a new SQLite connection
each (``CONN_MAX_AGE`` 0); on the shared thread the game sockets and teacher pages of every
other class would wait behind them. The lobbies get a thread of their own, which keeps its
SQLite connection (``kept_connections``). The shared thread still closes its connection after
each call (see ``kept_connections``); this thread is quiet while classes play.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from asgiref.sync import ThreadSensitiveContext
from channels.db import database_sync_to_async

from classroom.server.kept_connections import thread_keeps_connections

if TYPE_CHECKING:
    from collections.abc import Callable

P = ParamSpec("P")
R = TypeVar("R")

_lobby_thread = ThreadPoolExecutor(
    max_workers=1, thread_name_prefix="lobby-sockets", initializer=thread_keeps_connections
)


async def lobby_database_call(call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``database_sync_to_async(call)(*args, **kwargs)``, on the lobbies' thread."""
    async with ThreadSensitiveContext(executor=_lobby_thread):
        result: R = await database_sync_to_async(call)(*args, **kwargs)
    return result
