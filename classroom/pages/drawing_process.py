"""The set-up of the process that draws the teachers' pages (``page_drawing``).

Its own module, importing nothing of the site at the top: the process loads it to find its
set-up before Django is set up, and the site's modules need Django ready.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import Any

# Where Linux's idle scheduling class is missing: above the serving process's 0.
DRAWING_NICENESS = 10
# How often the drawing process checks that the serving process still runs.
PARENT_CHECK_S = 1.0


def drawing_process_start(databases: dict[str, Any], parent_pid: int, parent_id: str) -> None:
    """Set up the drawing process: Django as the serving process has it, at a lower priority,
    and that process's identity (``parent_id``: the sockets it holds are the ones present)."""
    drawing_priority_lower()
    import django
    from django.conf import settings

    # The serving process's databases (in a test, its test database), before anything reads
    # them.
    settings.DATABASES = databases
    django.setup()
    from django.db.backends.signals import connection_created

    from classroom.processes import process_identity_adopt
    from classroom.server.kept_connections import thread_keeps_connections

    process_identity_adopt(parent_id)
    # One draw after another on this thread: its SQLite connection stays open, and the
    # serving process already holds the log open and checkpoints it.
    connection_created.disconnect(dispatch_uid="sqlite-anchor")
    thread_keeps_connections()
    threading.Thread(
        target=_exit_with_parent, args=(parent_pid,), name="parent-watch", daemon=True
    ).start()


def drawing_priority_lower() -> None:
    """Put this process's draws behind the serving process's event loop.

    Under Linux's idle scheduling class a draw gives up its core the moment the loop wakes. A
    nice value only weighs the two's shares: the kernel lets the running draw finish its time
    slice first, and the loop waits for it (docs/benchmarks.md, *The loop's own ceiling*).
    The draws still get every core the site leaves free, which is most of the machine's time:
    the loop uses at most one. Threads started after this inherit it.
    """
    os.nice(DRAWING_NICENESS)
    if hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):  # a system that refuses it keeps the nice value
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def _exit_with_parent(parent_pid: int) -> None:
    # The pool's queues do not tell a worker its parent died (it holds both ends of them):
    # without this it would wait for work forever after a kill -9 of the serving process.
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)
