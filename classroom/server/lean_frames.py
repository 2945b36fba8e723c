"""A WebSocket message framed in a few lines when nothing asks for more.

autobahn frames every message its general way: type assertions, timings, traffic counters,
compression, fragmentation, masking, frame and octet logs, then a debug-log call whose
arguments (the peer, the method's name) are formatted although the log is off. A table's
tablets get several frames a second each, and every one of them took that whole path on the
one event loop. ``LeanWebSocketProtocol`` writes the header and the payload itself
when the socket is open and none of that is asked for: a server frame (never masked), one
frame per message, no compression, nothing queued before it, within the size limit. Any
other message goes autobahn's way. autobahn's traffic counters, which nothing here reads, do
not count the lean frames.
"""

from __future__ import annotations

import struct
from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne import ws_protocol

# Daphne's protocol is untyped; it is subclassed as Daphne's own factory uses it.
_DaphneProtocol: Any = ws_protocol.WebSocketProtocol

_OPEN = AutobahnProtocol.STATE_OPEN
# FIN set, no reserved bits; opcode 1 (text) or 2 (binary).
_TEXT, _BINARY = 0x81, 0x82


def frame_header(*, binary: bool, length: int) -> bytes:
    """An unmasked, unfragmented frame's header for a payload of ``length`` bytes
    (RFC 6455 section 5.2)."""
    first = _BINARY if binary else _TEXT
    if length <= 125:
        return bytes((first, length))
    if length <= 0xFFFF:
        return struct.pack("!BBH", first, 126, length)
    return struct.pack("!BBQ", first, 127, length)


class LeanWebSocketProtocol(_DaphneProtocol):  # type: ignore[misc]
    """Daphne's WebSocket protocol, framing a plain message itself."""

    def sendMessage(
        self,
        payload: bytes,
        isBinary: bool = False,
        fragmentSize: int | None = None,
        sync: bool = False,
        doNotCompress: bool = False,
    ) -> None:
        if fragmentSize is None and not sync and self._plain(len(payload)):
            self.transport.write(frame_header(binary=isBinary, length=len(payload)) + payload)
            return
        super().sendMessage(payload, isBinary, fragmentSize, sync, doNotCompress)

    def _plain(self, length: int) -> bool:
        return (
            self.state == _OPEN
            and self._perMessageCompress is None
            and not self.send_queue
            and not self.autoFragmentSize
            and not self.maskServerFrames
            and not self.trackedTimings
            and not self.logFrames
            and not self.logOctets
            and not 0 < self.maxMessagePayloadSize < length
        )


def lean_frames_install() -> None:
    """Give every WebSocket Daphne accepts from now on ``LeanWebSocketProtocol``
    (idempotent). Call before Daphne listens."""
    factory: Any = ws_protocol.WebSocketFactory
    factory.protocol = LeanWebSocketProtocol
