"""Prometheus metrics of one server process (``prometheus_client``, its default registry).

Each Daphne process serves its own ``GET /metrics``; in a cluster, Prometheus scrapes every
process at its own port (127.0.0.1:8001, 8002, … , not through HAProxy, which would answer
from whichever process it picked) and labels each scrape with its target, which is what
"live tables per process" needs. (The library's multiprocess mode, which adds up files that
processes forked from one parent share, fits Gunicorn's workers, not independent Daphnes.)

Off by default: without ``METRICS_TOKEN`` the address answers 404, and with it only a request
carrying ``Authorization: Bearer <token>`` gets the numbers, so a child's tablet on the
classroom Wi-Fi never sees them (``classroom.views.health.metrics``). Each place that counts
calls one function here, in one line.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from typing import TYPE_CHECKING

from prometheus_client import Counter, Gauge, Histogram

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

SOCKETS = Gauge(
    "snapclass_sockets_connected",
    "WebSockets open in this process: tablets (game sockets) and consoles (teacher pages).",
    ["kind"],
)
LIVE_TABLES = Gauge("snapclass_live_tables", "Table hosts running in this process.")
LOG_WRITE_SECONDS = Histogram(
    "snapclass_log_write_seconds",
    "Time one group commit of the action log (entries and their trials) took.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
LOG_WRITE_ENTRIES = Counter(
    "snapclass_log_entries_written", "Action log entries this process has written."
)
TAKEOVERS = Counter(
    "snapclass_table_takeovers",
    "Tables this process took a lease on that another host (here or elsewhere) had held: "
    "failovers, restarts and hosts stopped while idle.",
)
FLOOD_CUTOFFS = Counter("snapclass_flood_cutoffs", "Sockets closed for flooding (4008).", ["kind"])
ASYNC_TASKS = Gauge(
    "snapclass_asyncio_tasks",
    "Tasks in this process's event loop (the supervised loops, table hosts and sockets; "
    "background tasks run in the task worker, snapclass_background_tasks).",
)
BACKGROUND_TASKS = Gauge(
    "snapclass_background_tasks",
    "Background tasks (prepared downloads) waiting for the task worker (queued) and being run "
    "(running). The queue is in the database, so every process reports the same one.",
    ["state"],
)
TEACHER_PAGE_STRETCH = Gauge(
    "snapclass_teacher_page_stretch",
    "How many times their usual gap teacher pages (consoles, projectors) now wait between "
    "two draws, because together they used more than their share of this process "
    "(classroom/pages/render_budget.py); 1 is their usual pace.",
)
PAGE_DRAWING_RESTARTS = Counter(
    "snapclass_page_drawing_restarts",
    "Times the process drawing this process's teacher pages died or hung and was replaced "
    "(classroom/pages/page_drawing.py).",
)
# Both kinds are exported from the start (as 0), so a dashboard's query finds them.
for _kind_name in ("tablet", "console"):
    SOCKETS.labels(kind=_kind_name)
    FLOOD_CUTOFFS.labels(kind=_kind_name)
for _state in ("queued", "running"):
    BACKGROUND_TASKS.labels(state=_state)


def _kind(path: str) -> str:
    return "tablet" if path.startswith("/ws/play/") else "console"


@contextmanager
def socket_open(path: str) -> Iterator[None]:
    """While a WebSocket at ``path`` is open."""
    gauge = SOCKETS.labels(kind=_kind(path))
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


@contextmanager
def log_write(entries: int) -> Iterator[None]:
    """Around one commit of ``entries`` log entries."""
    started = time.perf_counter()
    yield
    LOG_WRITE_SECONDS.observe(time.perf_counter() - started)
    LOG_WRITE_ENTRIES.inc(entries)


def table_taken_over(previous_epoch: int) -> None:
    if previous_epoch > 0:  # 0: the table's first host ever
        TAKEOVERS.inc()


def flood_cutoff(path: str) -> None:
    FLOOD_CUTOFFS.labels(kind=_kind(path)).inc()


def background_tasks_set(counts: Mapping[str, int]) -> None:
    """The task queue as read at a scrape (``classroom.selectors.tasks.tasks_waiting``)."""
    for state, count in counts.items():
        BACKGROUND_TASKS.labels(state=state).set(count)


def live_tables_from(count: Callable[[], int]) -> None:
    """Read the number of running hosts from ``count`` at each scrape."""
    LIVE_TABLES.set_function(count)


def teacher_page_stretch_from(stretch: Callable[[], float]) -> None:
    """Read the teacher pages' stretch from ``stretch`` at each scrape."""
    TEACHER_PAGE_STRETCH.set_function(stretch)
