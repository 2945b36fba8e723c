"""How many WebSockets one client address may hold open in this process.

Each open socket holds a file descriptor and a consumer; without a cap one machine could hold
them all. The cap is generous (``SOCKETS_PER_ADDRESS``, 1,000 by default) because a school's
NAT puts several classes, and their teachers' pages, behind one address (the settings give
the count). One seat token holds one live lobby socket and one game socket (a newer one closes
the older with 4409), so a token read off one tablet cannot fill the cap for the rest. It is
counted per server process: a cluster of N processes lets an address hold up to N times as
many.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.http import parse_cookie
from django.utils import translation
from django.utils.translation import gettext_lazy

from classroom.people.languages import language_from_scope
from classroom.server import metrics
from classroom.sockets.close_codes import CloseCode
from classroom.web.client_address import client_address_from_scope
from games.live.protocol import ErrorFrame, server_frame_encode

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, MutableMapping

    Scope = MutableMapping[str, Any]
    Receive = Callable[[], Awaitable[dict[str, Any]]]
    Send = Callable[[dict[str, Any]], Awaitable[None]]
    ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

TOO_MANY = gettext_lazy("Too many connections from this network. Trying again soon.")


class SocketCap:
    """ASGI middleware: refuses a WebSocket over the cap with an error frame and 4429."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        with metrics.socket_open(scope.get("path", "")):
            await self._capped(scope, receive, send)

    async def _capped(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address_from_scope(scope)
        if not address:
            # No address to key on (a UNIX socket without a proxy's header): not counted.
            await self.app(scope, receive, send)
            return
        if self.open[address] >= settings.SOCKETS_PER_ADDRESS:
            await _refuse(scope, receive, send)
            return
        self.open[address] += 1
        try:
            # Returns once the socket has gone (the consumer stops on its disconnect).
            await self.app(scope, receive, send)
        finally:
            self.open[address] -= 1
            if self.open[address] <= 0:
                del self.open[address]


async def _refuse(scope: Scope, receive: Receive, send: Send) -> None:
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    # Accepted, then closed: a refused handshake reaches the browser as 1006, with no reason.
    await send({"type": "websocket.accept"})
    headers = dict(scope.get("headers", []))
    cookies = parse_cookie(headers.get(b"cookie", b"").decode("latin-1"))
    with translation.override(language_from_scope({**scope, "cookies": cookies})):
        frame = ErrorFrame(code="too_many_sockets", message=str(TOO_MANY))
    await send({"type": "websocket.send", "text": server_frame_encode(frame)})
    await send({"type": "websocket.close", "code": int(CloseCode.TOO_MANY_SOCKETS)})
