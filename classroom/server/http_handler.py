"""Django's ASGI handler with the middleware chain run synchronously, in one thread hop.

Under ASGI Django builds the chain in async mode, and every ``MiddlewareMixin`` hook
(``process_request``, ``process_view``, ``process_response``) then runs through its own
``sync_to_async``: 20 hand-offs to a thread for one ``GET /healthz`` with this site's
middleware, its sync view included. Nearly every page here is a sync view over the ORM, so
all of that work ends on a thread anyway. Built in sync mode and entered once through
``sync_to_async``, the chain and the view run on one thread; an async view (``/readyz``) is
the one that hops, back to the event loop. ``tests/load/bench_http_handler.py`` prints the
difference per request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import django
from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    _middleware_chain: Callable[[HttpRequest], Awaitable[HttpResponseBase]]

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        chain: Callable[[HttpRequest], HttpResponseBase] = self._middleware_chain  # type: ignore[assignment]
        # thread_sensitive: inside the request's ThreadSensitiveContext (ASGIHandler.handle), so
        # each request keeps a thread of its own, as Django's own sync views do.
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)


def http_application() -> OneHopASGIHandler:
    """What ``django.core.asgi.get_asgi_application`` returns, with the one-hop chain."""
    django.setup(set_prefix=False)
    return OneHopASGIHandler()
