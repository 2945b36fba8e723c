"""What every socket does alike: the heartbeat, the flood limit, garbage answered with an
error and a ping with a pong."""

from __future__ import annotations

import contextlib
import functools
import logging
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs

from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


from classroom.server import metrics
from classroom.sockets.close_codes import CloseCode
from classroom.sockets.dispatch import dispatch_each
from classroom.sockets.outage_calm import OutageCalmSocket
from games.live.flood import Cooldown, TokenBucket
from games.live.heartbeat import SilenceWatchdog
from games.live.host import wall_ms
from games.live.protocol import (
    ClientFrame,
    ErrorFrame,
    Ping,
    Pong,
    ProtocolError,
    client_frame_decode,
    server_frame_encode,
)
from games.live.round_trip import PROBE_EVERY_MS

logger = logging.getLogger(__name__)

# Sustained flooding (this many refused frames on one socket) closes the socket.
FLOOD_STRIKES_TO_CLOSE = 40
# A tablet closed for flooding is refused at once for this long (games.live.flood.Cooldown).
FLOOD_COOLDOWN = Cooldown(seconds=10.0)


class Socket(OutageCalmSocket, AsyncWebsocketConsumer):
    """What every socket here does alike with an incoming frame: the heartbeat hears it, the
    flood limit meters it, garbage is answered with an error and a ping with a pong."""

    # Set once this side has closed the socket. Until the browser answers the close (and the
    # disconnect arrives) frames may still come in: none of them is read or answered.
    closed_here = False
    watchdog: SilenceWatchdog | None = None
    bucket: TokenBucket | None = None

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closed_here = True
        # Daphne's WebSocket layer (autobahn) takes a close code of type int and nothing else:
        # a CloseCode goes as its number.
        plain = int(code) if isinstance(code, CloseCode) else code
        await super().close(code=plain, reason=reason)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        """Channels' own, with its messages handed on by ``dispatch_each`` rather than by a
        task and a wait per message."""
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        self.base_send = send
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            sources.append(functools.partial(self.channel_layer.receive, self.channel_name))
        with contextlib.suppress(StopConsumer):
            await dispatch_each(sources, self.dispatch)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own, without the ``aclose_old_connections()`` it runs before every
        handler.

        That call queues ``close_old_connections`` on the one thread every
        ``database_sync_to_async`` call shares, so each message a socket handles (a slap, a
        ping, a table's move) would wait behind the teacher pages' draws there: under a
        school's load a console's handshake takes seconds, and a teacher page falls so far
        behind its channel that the in-memory layer drops it from every group, frozen with
        nothing said. Every database call of these sockets goes through
        ``database_sync_to_async``, which closes old connections itself, in that thread,
        before and after the call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def frame_take(
        self, text_data: str | None, bytes_data: bytes | None
    ) -> ClientFrame | None:
        """The frame for this socket to act on, or None when it was answered here."""
        if self.closed_here:
            return None  # e.g. a flood closed with 4008: tokens refilled since must not reopen it
        if self.watchdog is not None:
            self.watchdog.heard()
        if self.bucket is None:
            self.bucket = TokenBucket()
        if not self.bucket.take(wall_ms()):
            if self.bucket.strikes >= FLOOD_STRIKES_TO_CLOSE:
                await self.flooded()
                return None
            frame = ErrorFrame(code="slow_down", message="Too many messages. Slow down a little.")
            await self.send(text_data=server_frame_encode(frame))
            return None
        try:
            decoded = client_frame_decode(text_data if text_data is not None else bytes_data)
        except ProtocolError as error:
            await self.send(text_data=server_frame_encode(error.frame()))
            return None
        if isinstance(decoded, Ping):
            await self.pinged(decoded.seq)
            return None
        return decoded

    async def pinged(self, seq: int) -> None:
        await self.send_unanswered(server_frame_encode(Pong(seq=seq)), what="a pong")

    async def send_unanswered(self, text_data: str, *, what: str) -> bool:
        """Send a frame nothing waits on (a pong, a probe, a page); False when the socket was
        closing. Daphne raises on a socket in its closing handshake until its disconnect is
        handled, and a goodbye is no fault worth a traceback in the server's log."""
        try:
            await self.send(text_data=text_data)
        except Disconnected:
            logger.debug("dropped %s for a closing socket", what, exc_info=True)
            return False
        return True

    async def flooded(self) -> None:
        """Sustained flooding: the socket is closed (a tablet's is also kept out a while)."""
        metrics.flood_cutoff(self.scope["path"])
        await self.close(code=CloseCode.POLICY)


def heartbeat_for(
    scope: dict[str, Any],
    on_silent: Callable[[], Awaitable[None]],
    *,
    beat: Callable[[], Awaitable[None]] | None = None,
) -> SilenceWatchdog | None:
    """Held to the heartbeat: closed after 4 s without a frame (games.live.heartbeat), and
    ``beat`` called every PROBE_EVERY_MS.

    Only pages that keep the heartbeat ask for it (?heartbeat=1: the table socket and the
    live pages' scripts); scripts, bots, tests and pages of another release are left to
    Daphne's keepalive.
    """
    if "1" not in query_params(scope).get("heartbeat", []):
        return None
    watchdog = SilenceWatchdog(on_silent, beat=beat, beat_every_s=PROBE_EVERY_MS / 1000)
    watchdog.arm()
    return watchdog


def query_params(scope: dict[str, Any]) -> dict[str, list[str]]:
    return parse_qs(scope.get("query_string", b"").decode("latin-1"))
