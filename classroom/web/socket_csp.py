"""The Content-Security-Policy with the site's own WebSocket addresses in ``connect-src``.

Safari before 16 (iPadOS 15) does not count ``ws:``/``wss:`` URLs as ``'self'`` (WebKit
bugs 201591 and 235873), so a ``connect-src 'self'`` alone keeps every lobby and game socket
of such an iPad shut. The host a tablet reached the site by is known only per request, so
this middleware adds ``ws://<host>`` and ``wss://<host>`` for that host, and no other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase


def socket_sources(request: HttpRequest) -> list[str]:
    """``ws://`` and ``wss://`` for the host this request came to; none for a host the site
    does not serve (``ALLOWED_HOSTS`` refused it, and its page is an error)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return []
    return [f"ws://{host}", f"wss://{host}"]


class SiteSocketsCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        sources = socket_sources(request)
        if sources:
            update = dict(parts.update or {})
            kept = update.get("connect-src") or []
            update["connect-src"] = [*([kept] if isinstance(kept, str) else kept), *sources]
            parts.update = update
        return parts
