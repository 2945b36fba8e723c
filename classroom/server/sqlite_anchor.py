"""Keep one idle connection open to the embedded SQLite database for the process's life.

Django opens a connection per request thread and per ``database_sync_to_async`` call and
closes it afterwards (``CONN_MAX_AGE`` 0). In WAL mode the *last* connection to close
checkpoints the log into the database and deletes it, and the next write creates and syncs
a new one: with nothing else open, every short call paid that, about 10 ms at its commit and
15 ms at its close on this machine, while a class joining at once queued behind it on the
one thread the sockets share. An idle connection that has read the database keeps the log
open, so those closes cost a fraction of a millisecond; the log is still checkpointed as it
grows (SQLite's automatic checkpoint, on commit), and again when the process exits.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

_lock = threading.Lock()
_anchors: dict[str, sqlite3.Connection] = {}


def _is_file(name: str) -> bool:
    return bool(name) and name != ":memory:" and "mode=memory" not in name


def sqlite_anchor_hold(*, sender: Any, connection: Any, **_kwargs: Any) -> None:
    """``connection_created`` receiver: on the first SQLite connection to a database file,
    open the process's idle connection to it (once per file)."""
    if connection.vendor != "sqlite":
        return
    name = str(connection.settings_dict.get("NAME") or "")
    if not _is_file(name) or name in _anchors:
        return
    with _lock:
        if name in _anchors:
            return
        anchor = sqlite3.connect(name, check_same_thread=False, isolation_level=None)
        # Reading opens the log and its shared memory; a connection that has not read yet
        # holds nothing open.
        anchor.execute("SELECT count(*) FROM sqlite_master").fetchall()
        _anchors[name] = anchor


def sqlite_anchors_release() -> None:
    """Close the idle connections (a test that swaps the database file underneath)."""
    with _lock:
        for anchor in _anchors.values():
            anchor.close()
        _anchors.clear()
