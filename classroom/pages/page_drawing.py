"""Where the teachers' pages are drawn: a process of their own, beside the one serving.

Every console and projector is drawn again as its tables move. Drawn on a thread of the
serving process, the draws would hold its interpreter lock for a large share of the time with
a school playing, and each time the event loop gave the lock up for a system call (a frame
sent) it would wait for the draw to give it back: the flips' tail would be set by the
teachers' pages. Drawn in another process they never hold the loop's lock; the socket sends
plain data (``DrawAsk``) and gets the HTML back.

The drawing process runs at a lower CPU priority (a child waits for the next card, a teacher
reads a tile every few seconds), reads the database through its own connection, and exits
when the serving process is gone. While it starts, and for a few seconds after it died or
hung (it is then replaced), the pages are drawn on the thread every socket's database calls
share: no page waits for a process. A new process draws each page from
nothing once.

``TEACHER_PAGES_DRAWN_APART`` off (the unit tests' in-process sockets, whose database a
process of its own would not see inside a test's transaction): always drawn on that thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

from classroom import processes
from classroom.pages.drawing_process import drawing_process_start
from classroom.pages.page_draws import DrawAsk, Drawn, page_draw, page_forget
from classroom.server import metrics

if TYPE_CHECKING:
    from collections.abc import Callable

logger = logging.getLogger(__name__)

# A draw takes milliseconds; one not back in this long (the queue of every page's draw
# included) is taken for a hung process, which is replaced.
DRAW_TIMEOUT_S = 30.0
# After a failure, the pages are drawn here for this long before another process is tried
# (a process that cannot start is not started again at every draw).
RESTART_AFTER_S = 5.0


def _draw_with_fresh_connection(ask: DrawAsk) -> Drawn:
    # As ``database_sync_to_async`` does: a connection broken meanwhile (a database restart)
    # is replaced rather than failing every draw after it.
    close_old_connections()
    try:
        return page_draw(ask)
    finally:
        close_old_connections()


@dataclass(frozen=True)
class _Drawing:
    pool: ProcessPoolExecutor
    started: Future[int]  # the drawing process's pid, once it is set up


class PageDrawer:
    """The drawing process, started at the first draw asked of it and replaced when it fails.
    While it starts (a second or two) or after it failed, ``draw`` gives None and the socket
    draws the page itself: no page ever waits for a process to start."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._drawing: _Drawing | None = None
        self._lock = threading.Lock()
        self._clock = clock
        self._failed_at = float("-inf")

    def _current(self) -> _Drawing | None:
        with self._lock:
            if self._drawing is None and self._clock() - self._failed_at >= RESTART_AFTER_S:
                pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=drawing_process_start,
                    initargs=(settings.DATABASES, os.getpid(), processes.PROCESS_ID),
                )
                self._drawing = _Drawing(pool=pool, started=pool.submit(os.getpid))
            return self._drawing

    def _replace(self, drawing: _Drawing) -> None:
        with self._lock:
            if self._drawing is not drawing:
                return  # another draw replaced it already
            self._drawing = None
            self._failed_at = self._clock()
        for worker in list(getattr(drawing.pool, "_processes", {}).values()):
            worker.kill()  # a hung process: what was asked of it is dropped
        drawing.pool.shutdown(wait=False, cancel_futures=True)

    def pid(self) -> int | None:
        """The drawing process, if it is up."""
        drawing = self._drawing
        if drawing is None or not drawing.started.done() or drawing.started.exception():
            return None
        return drawing.started.result()

    async def draw(self, ask: DrawAsk) -> Drawn | None:
        """The page drawn in the drawing process; None while none is up."""
        drawing = self._current()
        if drawing is None or not drawing.started.done():
            return None
        try:
            future = asyncio.wrap_future(drawing.pool.submit(_draw_with_fresh_connection, ask))
            return await asyncio.wait_for(future, DRAW_TIMEOUT_S)
        except (BrokenProcessPool, TimeoutError) as error:
            logger.warning(
                "the teacher pages' drawing process failed (%s); starting another",
                type(error).__name__,
            )
            metrics.PAGE_DRAWING_RESTARTS.inc()
            self._replace(drawing)
            return None

    def forget(self, socket: str) -> None:
        drawing = self._drawing
        if drawing is None:
            return
        # A failed process's replacement keeps nothing of the socket anyway.
        with contextlib.suppress(BrokenProcessPool, RuntimeError):
            drawing.pool.submit(page_forget, socket)

    def stop(self) -> None:
        with self._lock:
            drawing, self._drawing = self._drawing, None
        if drawing is not None:
            drawing.pool.shutdown(wait=True, cancel_futures=True)


_drawer = PageDrawer()


async def teacher_page_draw(ask: DrawAsk) -> Drawn:
    """Draw a teacher page: in the drawing process when the settings say so and it is up,
    else on the thread every socket's database calls share."""
    if settings.TEACHER_PAGES_DRAWN_APART and (drawn := await _drawer.draw(ask)) is not None:
        return drawn
    here: Drawn = await database_sync_to_async(page_draw)(ask)
    return here


def teacher_page_forget(socket: str) -> None:
    """The socket closed: what its draws kept goes, wherever they were drawn."""
    if settings.TEACHER_PAGES_DRAWN_APART:
        _drawer.forget(socket)
    page_forget(socket)
