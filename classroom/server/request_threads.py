"""Kept threads for HTTP requests.

Django's ASGI handler gives every request a thread of its own (a new ``ThreadSensitiveContext``
and its one-worker executor), started and ended per request. Here a request borrows a kept
one-worker executor instead, as a WSGI server's worker thread serves request after request,
and Django's own ``close_old_connections`` (``request_started``/``request_finished``, run on
that thread) keeps or closes its database connection by ``CONN_MAX_AGE``: 0 here, since kept
SQLite connections slowed live flips (``classroom/settings.py``).

Nothing ever waits for a thread: past ``keep`` requests at once, a request gets a thread of its
own as before, closed with its connections after it.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from django.db import connections

# Enough for a class joining at once (the joins wait for each other in ``join_queue``) and a
# few downloads, few enough that the kept SQLite connections stay a handful of files.
KEPT_THREADS = 32


class RequestThreads:
    """One-worker executors lent to one request at a time. Used on the event loop only."""

    def __init__(self, *, keep: int = KEPT_THREADS) -> None:
        self._keep = keep
        self._free: list[ThreadPoolExecutor] = []
        self._made = 0

    @property
    def made(self) -> int:
        """How many kept threads exist (lent or free)."""
        return self._made

    def take(self) -> ThreadPoolExecutor:
        if self._free:
            return self._free.pop()  # the most recently used: its thread and connection are warm
        if self._made < self._keep:
            self._made += 1
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix="http-request")
        return _OneOff(max_workers=1, thread_name_prefix="http-request-extra")

    async def give_back(self, executor: ThreadPoolExecutor) -> None:
        if not isinstance(executor, _OneOff):
            self._free.append(executor)
            return
        # Its thread ends now: its connections are closed there, not left to the collector.
        await asyncio.get_running_loop().run_in_executor(executor, connections.close_all)
        executor.shutdown(wait=False)


class _OneOff(ThreadPoolExecutor):
    """A thread for one request, when every kept one is lent."""
