"""A plain message leaves framed as autobahn frames it, in one write and without autobahn's
framing path; any other message goes autobahn's way."""

from __future__ import annotations

from typing import Any

import pytest
from autobahn.exception import Disconnected
from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne import ws_protocol
from twisted.internet.testing import StringTransport

from classroom.server.lean_frames import LeanWebSocketProtocol, lean_frames_install

PAYLOADS = [b"", b"x", b"a" * 125, b"b" * 126, b"c" * 0xFFFF, b"d" * 0x10000, "é✓".encode()]


def _open(protocol_class: type[Any], **options: Any) -> tuple[Any, StringTransport]:
    factory = ws_protocol.WebSocketFactory(None)
    factory.protocol = protocol_class
    factory.setProtocolOptions(**options)
    protocol = factory.buildProtocol(("127.0.0.1", 1))
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.state = AutobahnProtocol.STATE_OPEN
    return protocol, transport


@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: f"{len(p)}B")
def test_a_plain_message_has_autobahns_bytes_in_one_write(payload: bytes, binary: bool) -> None:
    lean, lean_wire = _open(LeanWebSocketProtocol)
    daphne, daphne_wire = _open(ws_protocol.WebSocketProtocol)
    writes: list[bytes] = []
    lean_wire.write = writes.append  # type: ignore[method-assign]
    lean.sendMessage(payload, isBinary=binary)
    daphne.sendMessage(payload, isBinary=binary)
    assert writes == [daphne_wire.value()]


def test_a_plain_message_skips_autobahns_framing(monkeypatch: pytest.MonkeyPatch) -> None:
    lean, wire = _open(LeanWebSocketProtocol)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("autobahn framed a plain message")

    monkeypatch.setattr(AutobahnProtocol, "sendFrame", refuse)
    lean.sendMessage(b'{"type":"state"}')
    assert wire.value() == b'\x81\x10{"type":"state"}'


def test_a_closed_socket_refuses_as_autobahn_does() -> None:
    lean, wire = _open(LeanWebSocketProtocol)
    lean.state = AutobahnProtocol.STATE_CLOSING
    with pytest.raises(Disconnected):
        lean.sendMessage(b"late")
    assert wire.value() == b""


@pytest.mark.parametrize(
    ("options", "kwargs"),
    [
        ({"autoFragmentSize": 4}, {}),
        ({}, {"fragmentSize": 4}),
        ({"maskServerFrames": True}, {}),
    ],
    ids=["fragmenting", "fragmented", "masked"],
)
def test_a_message_that_asks_for_more_goes_autobahns_way(
    options: dict[str, Any], kwargs: dict[str, Any]
) -> None:
    lean, lean_wire = _open(LeanWebSocketProtocol, **options)
    daphne, daphne_wire = _open(ws_protocol.WebSocketProtocol, **options)
    lean.sendMessage(b"a longer message", **kwargs)
    daphne.sendMessage(b"a longer message", **kwargs)
    framed = lean_wire.value()
    assert framed != b"\x81\x10a longer message"
    if not options.get("maskServerFrames"):  # a mask is random
        assert framed == daphne_wire.value()


def test_a_message_over_the_size_limit_is_refused_as_autobahn_does() -> None:
    lean, wire = _open(LeanWebSocketProtocol, maxMessagePayloadSize=8)
    with pytest.raises(Exception, match="exceeding payload limit"):
        lean.sendMessage(b"nine bytes")
    assert wire.value() == b""


def test_install_gives_daphnes_sockets_the_lean_protocol(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ws_protocol.WebSocketFactory, "protocol", ws_protocol.WebSocketProtocol)
    lean_frames_install()
    lean_frames_install()
    assert ws_protocol.WebSocketFactory.protocol is LeanWebSocketProtocol
