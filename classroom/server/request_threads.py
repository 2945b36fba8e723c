"""Kept threads for HTTP requests, each keeping its SQLite connection.

Django's ASGI handler gives every request a thread of its own (a new ``ThreadSensitiveContext``
and its one-worker executor), so each request also opened a new database connection and
closed it at the end. On SQLite a new connection parses the whole schema at its first query,
which costs more than most queries on it, and a tablet joining makes three requests. Here a
request borrows a kept one-worker executor instead, as a WSGI server's worker thread serves
request after request, and an SQLite connection opened on such a thread stays open between
its requests (``kept_connections``).

When every kept thread is lent, a request waits a moment for one to come back before it gets
a thread of its own: a class tapping "Join" at once is hundreds of requests, and a new thread
with a new connection for each, all racing for the GIL, costs more than the queue
(``tests/load/bench_joins.py``). The wait is
short, so a few long downloads holding kept threads never stall the pages.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import connections

from classroom.server.kept_connections import thread_keeps_connections

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

# Enough for a class joining at once (the joins wait for each other in ``join_queue``) and a
# few downloads, few enough that the kept SQLite connections stay a handful of files.
KEPT_THREADS = 32
# How long a request waits for a kept thread before it gets one of its own: longer than a
# burst of joins keeps them all lent, far shorter than a download holds one.
KEPT_THREAD_WAIT_S = 3.0


class RequestThreads:
    """One-worker executors lent to one request at a time. Used on the event loop only."""

    def __init__(self, *, keep: int = KEPT_THREADS, wait_s: float = KEPT_THREAD_WAIT_S) -> None:
        self._keep = keep
        self._wait_s = wait_s
        self._free: list[ThreadPoolExecutor] = []
        self._made = 0
        self._waiting: deque[asyncio.Future[ThreadPoolExecutor]] = deque()

    @property
    def made(self) -> int:
        """How many kept threads exist (lent or free)."""
        return self._made

    @property
    def waiting(self) -> int:
        """How many requests wait for a kept thread now."""
        return len(self._waiting)

    async def take(self) -> ThreadPoolExecutor:
        if self._free:
            return self._free.pop()  # the most recently used: its thread and connection are warm
        if self._made < self._keep:
            self._made += 1
            return _KeptThread(
                thread_name_prefix="http-request", initializer=thread_keeps_connections
            )
        given: asyncio.Future[ThreadPoolExecutor] = asyncio.get_running_loop().create_future()
        self._waiting.append(given)
        try:
            async with asyncio.timeout(self._wait_s):
                return await asyncio.shield(given)
        except TimeoutError:
            if given.done():  # given back just as the wait ran out: it is this request's
                return given.result()
            self._waiting.remove(given)
            return _OneOff(max_workers=1, thread_name_prefix="http-request-extra")
        except BaseException:
            # The request went away while it waited: a thread given to it meanwhile goes on.
            if given.done():
                self._hand_on(given.result())
            else:
                self._waiting.remove(given)
            raise

    async def give_back(self, executor: ThreadPoolExecutor) -> None:
        if isinstance(executor, _KeptThread):
            # A request whose client went away ends while its thread may still run the view
            # (Django cancels the request's task, not the thread): the thread goes on once it
            # is idle, or the next request lent it would queue behind that view.
            loop = asyncio.get_running_loop()
            if not executor.call_when_idle(partial(_on_loop, loop, self._hand_on, executor)):
                self._hand_on(executor)
            return
        # Its thread ends now: its connections are closed there, not left to the collector.
        await asyncio.get_running_loop().run_in_executor(executor, connections.close_all)
        executor.shutdown(wait=False)

    def _hand_on(self, executor: ThreadPoolExecutor) -> None:
        """A kept thread to the request that has waited longest, or to the free ones."""
        if self._waiting:
            self._waiting.popleft().set_result(executor)
        else:
            self._free.append(executor)


class _KeptThread(ThreadPoolExecutor):
    """A kept one-worker executor that knows whether its thread has work running or queued."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_workers=1, **kwargs)
        self._lock = threading.Lock()
        self._pending = 0
        self._when_idle: Callable[[], None] | None = None

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        with self._lock:
            self._pending += 1
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(self._one_done)
        return future

    def _one_done(self, _future: Future[Any]) -> None:
        with self._lock:
            self._pending -= 1
            callback = self._when_idle if self._pending == 0 else None
            if callback is not None:
                self._when_idle = None
        if callback is not None:
            callback()

    def call_when_idle(self, callback: Callable[[], None]) -> bool:
        """Have ``callback`` called (on the thread) once no work is running or queued; False,
        and no call, when that is so already."""
        with self._lock:
            if self._pending == 0:
                return False
            self._when_idle = callback
            return True


def _on_loop(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    # From a request thread: the pool is the event loop's alone. A loop closed meanwhile (the
    # server stopping) keeps no pool to hand the thread to.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)


class _OneOff(ThreadPoolExecutor):
    """A thread for one request, when every kept one is lent."""
