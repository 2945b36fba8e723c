"""SQLite connections kept open on the threads that serve call after call.

``CONN_MAX_AGE`` is 0 (``classroom/settings.py``): a connection closes after each request or
``database_sync_to_async`` call. On SQLite a new connection parses the whole schema at its
first query, which costs more than most queries on it. The threads marked here keep theirs:
the kept HTTP request threads (``request_threads``) and the lobby sockets' thread
(``lobby_thread``). The one thread every other socket's database calls share does not: a
connection kept there makes live flips slower under load (docs/benchmarks.md).

Only SQLite connections are kept; a connection found unusable still closes.
"""

from __future__ import annotations

import threading
from typing import Any

_this_thread = threading.local()


def thread_keeps_connections() -> None:
    """Mark the calling thread: SQLite connections opened on it from now on stay open."""
    _this_thread.keeps_connections = True


def connection_keep_on_kept_thread(*, connection: Any, **_kwargs: Any) -> None:
    """``connection_created`` receiver: an SQLite connection opened on a marked thread is
    never closed for its age (it still closes when found unusable)."""
    if connection.vendor == "sqlite" and getattr(_this_thread, "keeps_connections", False):
        connection.close_at = None
