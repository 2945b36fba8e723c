"""Django's ASGI handler with the middleware chain run synchronously, in one thread hop.

Under ASGI Django builds the chain in async mode, and every ``MiddlewareMixin`` hook
(``process_request``, ``process_view``, ``process_response``) then runs through its own
``sync_to_async``: 20 hand-offs to a thread for one ``GET /healthz`` with this site's
middleware, its sync view included. Nearly every page here is a sync view over the ORM, so
all of that work ends on a thread anyway. Built in sync mode and entered once through
``sync_to_async``, the chain and the view run on one thread; an async view (``/readyz``) is
the one that hops, back to the event loop. ``tests/load/bench_http_handler.py`` prints the
difference per request.

Each request also runs on a kept thread (``request_threads``) rather than a new one, and its
SQLite connection outlives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler

from classroom.server.request_threads import RequestThreads

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping
    from typing import Any

    from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    _middleware_chain: Callable[[HttpRequest], Awaitable[HttpResponseBase]]

    def __init__(self) -> None:
        super().__init__()
        self.request_threads = RequestThreads()

    async def __call__(
        self,
        scope: dict[str, Any],
        receive: Callable[[], Awaitable[Mapping[str, Any]]],
        send: Callable[[Mapping[str, Any]], Awaitable[None]],
    ) -> None:
        # Django's own ThreadSensitiveContext inside finds this one and keeps it: every
        # thread-sensitive call of the request (its signals, the chain, a streamed body) runs
        # on the lent thread.
        executor = await self.request_threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await super().__call__(scope, receive, send)
        finally:
            await self.request_threads.give_back(executor)

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Callable[[HttpRequest], HttpResponseBase] = self._middleware_chain  # type: ignore[assignment]
        # thread_sensitive: on the thread lent to the request (``__call__``), as the request's
        # other sync calls.
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)


def http_application() -> OneHopASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` returns, with the one-hop chain."""
    django.setup(set_prefix=False)
    return OneHopASGIHandler()
