"""The CPU-heavy background work at a low priority, on a thread of its own.

Linux gives each thread its own nice value (``setpriority`` on a thread id), so the task
worker keeps the site's priority and only a build (a class workbook, the printed reports)
runs at ``nice 19``, where the kernel gives Daphne the CPU whenever it wants it. A purge
stays at the site's priority: at ``nice 19`` it would hold SQLite's write lock while the
kernel ran everything else first, and every write of a live table would wait behind a paused
batch (a priority inversion; ``make bench-purge`` measures the longest such wait).

``manage.py tasks_worker`` sets the niceness once when it starts; anywhere else (a request
running tasks at once, a test) the work runs inline, on the caller's thread and connection.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, TypeVar

from django.db import connections

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

_niceness = 0


def low_priority_set(*, niceness: int) -> None:
    """How far below the process's priority :func:`low_priority_run` runs its work (0: inline)."""
    if not 0 <= niceness <= 19:
        raise ValueError(f"niceness must be within 0-19, got {niceness}")
    global _niceness
    _niceness = niceness


def low_priority_run(work: Callable[[], T]) -> T:
    """``work()`` on a thread lowered by the set niceness, waited for; its result or its error."""
    if _niceness == 0:
        return work()
    outcome: list[T] = []
    failure: list[BaseException] = []

    def body() -> None:
        thread_id = threading.get_native_id()
        # A new thread starts at its creator's nice value; lower it from there, as ``nice`` does.
        own = os.getpriority(os.PRIO_PROCESS, thread_id)
        os.setpriority(os.PRIO_PROCESS, thread_id, min(19, own + _niceness))
        try:
            outcome.append(work())
        except BaseException as error:  # handed to the caller's thread below
            failure.append(error)
        finally:
            connections.close_all()  # this thread's own

    thread = threading.Thread(target=body, name="low-priority")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]
