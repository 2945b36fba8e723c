"""WebSocket messages framed and read in a few lines when nothing asks for more.

autobahn frames every message its general way: type assertions, timings, traffic counters,
compression, fragmentation, masking, frame and octet logs, then a debug-log call whose
arguments (the peer, the method's name) are formatted although the log is off. A table's
tablets get several frames a second each, and every one of them took that whole path on the
one event loop. ``LeanWebSocketProtocol`` writes the header and the payload itself
when the socket is open and none of that is asked for: a server frame (never masked), one
frame per message, no compression, nothing queued before it, within the size limit. Any
other message goes autobahn's way.

Reading is the same: every tablet answers the server's probe every 2 s, and autobahn reads
each of those small frames through a frame object, a masker built for it (a foreign call),
an incremental UTF-8 validator, an observer signal and, per read, a formatted debug line.
A read that starts at a frame boundary takes its whole, masked, unfragmented text or binary
frames within the size limits straight to Daphne's ``onMessage``; whatever else it holds
from the first frame that is not one of those (a control frame, a fragment, a frame cut
short by TCP, invalid UTF-8, an unmasked frame) goes autobahn's way, which reads, answers or
refuses it as it always does. autobahn's traffic counters, which nothing here reads, do not
count the lean frames.
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
_MASKED = 0x80
# A masked frame's shortest header: two octets and the mask.
_MASKED_HEADER = 6


def frame_header(*, binary: bool, length: int) -> bytes:
    """An unmasked, unfragmented frame's header for a payload of ``length`` bytes
    (RFC 6455 section 5.2)."""
    first = _BINARY if binary else _TEXT
    if length <= 125:
        return bytes((first, length))
    if length <= 0xFFFF:
        return struct.pack("!BBH", first, 126, length)
    return struct.pack("!BBQ", first, 127, length)


def unmask(payload: bytes, mask: bytes) -> bytes:
    """A client frame's payload unmasked (RFC 6455 section 5.3): one XOR of two integers."""
    length = len(payload)
    if not length:
        return b""
    key = (mask * (length // 4 + 1))[:length]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(key, "little")).to_bytes(
        length, "little"
    )


class LeanWebSocketProtocol(_DaphneProtocol):  # type: ignore[misc]
    """Daphne's WebSocket protocol, framing and reading a plain message itself."""

    def dataReceived(self, data: bytes) -> None:
        if self._reads_plainly():
            data = self._plain_messages_take(data)
            if not data:
                return
        self._dataReceived(data)

    def _reads_plainly(self) -> bool:
        # At a frame boundary of an open socket, and nothing asked of autobahn's reading.
        return (
            self.state == _OPEN
            and self.current_frame is None
            and not self.data
            and not self.inside_message
            and self._perMessageCompress is None
            and self.applyMask
            and not self.trackedTimings
            and not self.logFrames
            and not self.logOctets
        )

    def _plain_messages_take(self, data: bytes) -> bytes:
        """Hand each whole plain message at the front of ``data`` to ``onMessage``; return
        the rest, from the first frame that is not one."""
        start, end = 0, len(data)
        while end - start >= _MASKED_HEADER and self.state == _OPEN:
            first, second = data[start], data[start + 1]
            if first not in (_TEXT, _BINARY) or not second & _MASKED:
                break
            length = second & 0x7F
            mask_at = start + 2
            if length == 126:
                length = int.from_bytes(data[mask_at : mask_at + 2], "big")
                if length < 126:
                    break  # not the shortest form: autobahn refuses it
                mask_at += 2
            elif length == 127:
                break
            payload_at = mask_at + 4
            if payload_at + length > end or not self._within_limits(length):
                break
            payload = unmask(data[payload_at : payload_at + length], data[mask_at:payload_at])
            binary = first == _BINARY
            if not binary and not _utf8(payload):
                break
            start = payload_at + length
            if self.autoPingTimeoutCall and self.autoPingRestartOnAnyTraffic:
                self._cancelAutoPingTimeoutCall()  # as autobahn does on a data frame
            self.onMessage(payload, binary)
        return data[start:]

    def _within_limits(self, length: int) -> bool:
        return not (
            0 < self.maxFramePayloadSize < length or 0 < self.maxMessagePayloadSize < length
        )

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


def _utf8(payload: bytes) -> bool:
    try:
        payload.decode()
    except UnicodeDecodeError:
        return False
    return True


def lean_frames_install() -> None:
    """Give every WebSocket Daphne accepts from now on ``LeanWebSocketProtocol``
    (idempotent). Call before Daphne listens."""
    factory: Any = ws_protocol.WebSocketFactory
    factory.protocol = LeanWebSocketProtocol
