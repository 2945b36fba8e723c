"""A plain message leaves framed as autobahn frames it, in one write and without autobahn's
framing path, and a browser's frames are read as Daphne reads them, the plain ones without
autobahn's reading path; any other message goes autobahn's way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from autobahn.exception import Disconnected
from autobahn.websocket.protocol import WebSocketProtocol as AutobahnProtocol
from daphne import ws_protocol
from hypothesis import given
from hypothesis import strategies as st

from classroom.server.lean_frames import LeanWebSocketProtocol, lean_frames_install, unmask
from tests.daphne_protocols import client_frame, protocol_opened

if TYPE_CHECKING:
    from twisted.internet.testing import StringTransport

PAYLOADS = [b"", b"x", b"a" * 125, b"b" * 126, b"c" * 0xFFFF, b"d" * 0x10000, "é✓".encode()]


def _open(protocol_class: type[Any], **options: Any) -> tuple[Any, StringTransport]:
    protocol, transport, _queue = protocol_opened(protocol_class, **options)
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


def _read_both(stream: bytes, cuts: list[int], **options: Any) -> tuple[Any, ...]:
    """The same bytes, read in the same pieces, by the lean protocol and by Daphne's."""
    read = []
    for protocol_class in (LeanWebSocketProtocol, ws_protocol.WebSocketProtocol):
        protocol, transport, queue = protocol_opened(protocol_class, **options)
        start = 0
        for cut in [*sorted(cuts), len(stream)]:
            protocol.dataReceived(stream[start:cut])
            start = cut
        read.append((list(queue), transport.value(), protocol.state))
    return tuple(read)


_message = st.one_of(
    st.text(max_size=200).map(lambda text: (text.encode(), 1)),
    st.binary(max_size=300).map(lambda data: (data, 2)),
    st.binary(max_size=125).map(lambda data: (data, 9)),  # a ping: answered with a pong
)


@given(
    messages=st.lists(_message, max_size=8),
    masks=st.lists(st.binary(min_size=4, max_size=4), min_size=8, max_size=8),
    cuts=st.lists(st.integers(min_value=0, max_value=4000), max_size=6),
)
def test_any_stream_of_client_frames_reads_as_daphne_reads_it(
    messages: list[tuple[bytes, int]], masks: list[bytes], cuts: list[int]
) -> None:
    stream = b"".join(
        client_frame(payload, opcode=opcode, mask=mask)
        for (payload, opcode), mask in zip(messages, masks, strict=False)
    )
    lean, daphne = _read_both(stream, [cut for cut in cuts if cut <= len(stream)])
    assert lean == daphne


def test_a_whole_plain_frame_skips_autobahns_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    lean, _wire, queue = protocol_opened(LeanWebSocketProtocol)

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("autobahn read a plain frame")

    monkeypatch.setattr(AutobahnProtocol, "processData", refuse)
    lean.dataReceived(client_frame(b'{"type":"ping","seq":7}') + client_frame(b"\x01", opcode=2))
    assert queue == [
        {"type": "websocket.receive", "text": '{"type":"ping","seq":7}'},
        {"type": "websocket.receive", "bytes": b"\x01"},
    ]


@pytest.mark.parametrize(
    ("stream", "options"),
    [
        (client_frame(b"ok") + client_frame(b"\xff\xfe"), {}),
        (client_frame(b"ok") + client_frame(b"caf\xc3"), {}),
        (client_frame(b"ok") + b"\x81\x02no", {}),
        (client_frame(b"ok") + client_frame(b"nine bytes"), {"maxMessagePayloadSize": 8}),
        (client_frame(b"ok") + client_frame(b"nine bytes"), {"maxFramePayloadSize": 8}),
        (client_frame(b"ok") + b"\x81\xfe\x00\x0a" + client_frame(b"x" * 10)[2:], {}),
        (client_frame(b"ok") + client_frame(b"bye", opcode=0), {}),
    ],
    ids=[
        "invalid-utf8",
        "cut-code-point",
        "unmasked",
        "message-too-long",
        "frame-too-long",
        "long-form-for-a-short-length",
        "stray-continuation",
    ],
)
def test_a_bad_frame_is_refused_as_daphne_refuses_it(
    stream: bytes, options: dict[str, Any]
) -> None:
    lean, daphne = _read_both(stream, [], **options)
    assert lean == daphne
    queue, _wire, state = lean
    assert queue == [{"type": "websocket.receive", "text": "ok"}]
    assert state == AutobahnProtocol.STATE_CLOSED  # autobahn drops a peer that breaks the rules


def test_unmask_undoes_a_browsers_mask() -> None:
    payload = bytes(range(256)) * 3
    masked = client_frame(payload, mask=b"\x01\x02\x03\x04")[8:]
    assert unmask(masked, b"\x01\x02\x03\x04") == payload
    assert unmask(b"", b"\x01\x02\x03\x04") == b""
