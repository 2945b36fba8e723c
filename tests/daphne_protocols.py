"""Daphne's WebSocket protocol opened in memory, as after the handshake: frames written go to
a ``StringTransport`` and messages read go to a list; and a browser's frames to feed it (the
lean frames' tests and benchmark)."""

from __future__ import annotations

from typing import Any

from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne import ws_protocol
from twisted.internet.testing import StringTransport


class ApplicationQueue(list[dict[str, Any]]):
    """Daphne's queue of messages for the application, kept as a list."""

    def put_nowait(self, item: dict[str, Any]) -> None:
        self.append(item)


def protocol_opened(
    protocol_class: type[Any], **options: Any
) -> tuple[Any, StringTransport, ApplicationQueue]:
    """A protocol of ``protocol_class`` (Daphne's or a subclass), open, with the factory's
    ``options``; its transport and its application's queue."""
    factory = ws_protocol.WebSocketFactory(None)
    factory.protocol = protocol_class
    factory.setProtocolOptions(**options)
    protocol = factory.buildProtocol(("127.0.0.1", 1))
    transport = StringTransport()
    protocol.makeConnection(transport)
    # What autobahn's handshake and Daphne's connect set before the first frame is read.
    protocol.state = AutobahnProtocol.STATE_OPEN
    protocol.inside_message = False
    protocol.current_frame = None
    protocol.data = b""
    protocol.websocket_version = 13
    protocol.muted = False
    protocol.client_addr = ("127.0.0.1", 1)
    protocol.application_queue = queue = ApplicationQueue()
    transport.registerProducer(protocol, True)
    return protocol, transport, queue


def client_frame(payload: bytes, *, opcode: int = 1, mask: bytes = b"\x0f\xa5\x3c\x81") -> bytes:
    """A browser's frame: FIN set, masked, the shortest length form."""
    length = len(payload)
    if length <= 125:
        header = bytes((0x80 | opcode, 0x80 | length))
    elif length <= 0xFFFF:
        header = bytes((0x80 | opcode, 0x80 | 126)) + length.to_bytes(2, "big")
    else:
        header = bytes((0x80 | opcode, 0x80 | 127)) + length.to_bytes(8, "big")
    return header + mask + bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
