"""Where the teachers' pages are drawn: a process of their own, beside the one serving.

Every console and projector is drawn again as its tables move. Drawn on a thread of the
serving process, the draws took about two fifths of the time its interpreter lock was held
with a school playing, and each time the event loop gave the lock up for a system call (a
frame sent) it waited for the draw to give it back: the flips' tail at 540 students was set
by the teachers' pages (py-spy, README *Capacity and soak*), and without the pages it stayed
at 14 ms at 600 students. Drawn in another process they never hold the loop's lock; the
socket sends plain data (``DrawAsk``) and gets the HTML back.

The drawing process runs at a lower CPU priority (a child waits for the next card, a teacher
reads a tile every few seconds), reads the database through its own connection, and exits
when the serving process is gone. One that dies or hangs is replaced at the next draw: a draw
is asked again once on a new process, which draws each page from nothing once.

``TEACHER_PAGES_DRAWN_APART`` off (the unit tests' in-process sockets, whose database a
process of its own would not see inside a test's transaction): drawn on the thread every
socket's database calls share, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from channels.db import database_sync_to_async
from django.conf import settings

from classroom.live.page_draws import DrawAsk, Drawn, page_draw, page_forget
from classroom.server import metrics
from classroom.server.drawing_process import drawing_process_start

logger = logging.getLogger(__name__)

# A draw takes milliseconds; one not back in this long (the queue of every page's draw
# included) is taken for a hung process, which is replaced.
DRAW_TIMEOUT_S = 30.0


def _draw_with_fresh_connection(ask: DrawAsk) -> Drawn:
    from django.db import close_old_connections

    # As ``database_sync_to_async`` does: a connection broken meanwhile (a database restart)
    # is replaced rather than failing every draw after it.
    close_old_connections()
    try:
        return page_draw(ask)
    finally:
        close_old_connections()


class PageDrawer:
    """The drawing process, started at the first draw and replaced when it fails."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool_get(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=drawing_process_start,
                    initargs=(settings.DATABASES, os.getpid()),
                )
            return self._pool

    def _replace(self, pool: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._pool is not pool:
                return  # another draw replaced it already
            self._pool = None
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()  # a hung process: what was asked of it is dropped
        pool.shutdown(wait=False, cancel_futures=True)

    async def draw(self, ask: DrawAsk) -> Drawn:
        for attempt in (1, 2):
            pool = self._pool_get()
            try:
                future = asyncio.wrap_future(pool.submit(_draw_with_fresh_connection, ask))
                return await asyncio.wait_for(future, DRAW_TIMEOUT_S)
            except (BrokenProcessPool, TimeoutError) as error:
                logger.warning(
                    "the teacher pages' drawing process failed (%s); starting another",
                    type(error).__name__,
                )
                metrics.PAGE_DRAWING_RESTARTS.inc()
                self._replace(pool)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def forget(self, socket: str) -> None:
        with self._lock:
            pool = self._pool
        if pool is None:
            return
        # A failed process's replacement keeps nothing of the socket anyway.
        with contextlib.suppress(BrokenProcessPool, RuntimeError):
            pool.submit(page_forget, socket)

    def stop(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


_drawer = PageDrawer()


async def teacher_page_draw(ask: DrawAsk) -> Drawn:
    """Draw a teacher page where the settings say."""
    if settings.TEACHER_PAGES_DRAWN_APART:
        return await _drawer.draw(ask)
    drawn: Drawn = await database_sync_to_async(page_draw)(ask)
    return drawn


def teacher_page_forget(socket: str) -> None:
    """The socket closed: what its draws kept goes, where they were drawn."""
    if settings.TEACHER_PAGES_DRAWN_APART:
        _drawer.forget(socket)
    else:
        page_forget(socket)
