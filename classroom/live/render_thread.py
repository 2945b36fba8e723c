"""The thread that draws the sockets' pages (lobby, console, projector).

Channels runs every ``database_sync_to_async`` call, and Django every sync view, on one shared
thread. A page render costs milliseconds to tens of them, and a busy class asks for many: a
socket's connect (its session and seat checks) or a child's join then waited behind them, and
from about 450 students Daphne dropped teacher pages' handshakes after 20 s
(``tests/load/bench_capacity.py``). Renders queue here instead, one at a time, so what answers
a connect or a join is never behind a page. (One thread: renders of one process share a core.)
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, TypeVar

from channels.db import DatabaseSyncToAsync

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

Result = TypeVar("Result")

_RENDER_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="page-render")


def render_off_request_thread(render: Callable[[], Result]) -> Awaitable[Result]:
    """Run ``render`` on the render thread, with Django's connection hygiene (an old or broken
    connection is closed before and after, as ``database_sync_to_async`` does)."""
    return DatabaseSyncToAsync(render, thread_sensitive=False, executor=_RENDER_THREAD)()  # type: ignore[no-any-return]
