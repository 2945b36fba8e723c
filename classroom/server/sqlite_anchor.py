"""Keep one idle connection open to the embedded SQLite database for the process's life.

Django opens a connection per request thread and per ``database_sync_to_async`` call and
closes it afterwards (``CONN_MAX_AGE`` 0). In WAL mode the *last* connection to close
checkpoints the log into the database and deletes it, and the next write creates and syncs
a new one: with nothing else open, every short call pays that, milliseconds at its commit and
at its close, while a class joining at once queues behind it on the one thread the sockets
share. An idle connection that has read the database keeps the log
open, so those closes cost a fraction of a millisecond; the log is still checkpointed as it
grows (SQLite's automatic checkpoint, on commit), and again when the process exits.

The anchor also checkpoints the log itself, every second, in a thread of its own, so the live
tables' log writer never has to (``sqlite_checkpoints_leave``). SQLite's automatic checkpoint
runs inside the commit that crossed 1,000 pages of log and ends with an fsync of the database
file, which on a busy disk takes a hundred milliseconds or more, and every flip waiting on
that commit of the log writer would wait as long. A passive
checkpoint from another connection holds no lock a writer needs; the log is reset whenever a
checkpoint catches up between two commits, which at a class's pace (a commit every few tens
of milliseconds) is nearly every time. Every other connection keeps the automatic checkpoint,
so the log stays bounded even if this thread stopped.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from typing import Any

logger = logging.getLogger(__name__)

CHECKPOINT_EVERY_S = 1.0

_lock = threading.Lock()
_anchors: dict[str, sqlite3.Connection] = {}
_stops: dict[str, threading.Event] = {}


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
        stop = _stops[name] = threading.Event()
        threading.Thread(
            target=sqlite_checkpoints_run,
            args=(anchor, stop),
            name="sqlite-checkpoint",
            daemon=True,
        ).start()


def sqlite_checkpoints_run(
    anchor: sqlite3.Connection, stop: threading.Event, every_s: float = CHECKPOINT_EVERY_S
) -> None:
    """Checkpoint the log passively every ``every_s`` until ``stop`` is set. A failure (the
    file locked for a moment, the disk full) is logged and the next tick tries again."""
    while not stop.wait(every_s):
        try:
            anchor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.ProgrammingError:
            return  # the anchor was closed (released)
        except sqlite3.Error as error:
            logger.warning("SQLite checkpoint failed (%s); trying again in %s s", error, every_s)


def sqlite_checkpoints_leave(connection: Any) -> None:
    """Turn the automatic checkpoint off on ``connection`` (a Django connection wrapper): the
    anchor's thread does them. For the live log writer only, whose commits flips wait on; it
    calls this before each write, so a connection it has not opened yet gets it at the next."""
    if connection.vendor != "sqlite" or not _is_file(str(connection.settings_dict.get("NAME"))):
        return
    raw = connection.connection
    if raw is None:
        return
    if getattr(connection, "_checkpoints_left_to", None) is raw:
        return  # this very connection already has it
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_autocheckpoint=0")
    connection._checkpoints_left_to = raw


def sqlite_anchors_release() -> None:
    """Close the idle connections (a test that swaps the database file underneath)."""
    with _lock:
        for stop in _stops.values():
            stop.set()
        for anchor in _anchors.values():
            anchor.close()
        _anchors.clear()
        _stops.clear()
