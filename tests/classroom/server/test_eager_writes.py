"""A server connection sends at once when nothing waits to go, and otherwise as Twisted does:
buffered, in order, when the reactor finds room; a refused send closes it as before."""

from __future__ import annotations

import socket
from typing import TYPE_CHECKING, Any

import pytest
from twisted.internet import main, tcp
from twisted.internet.protocol import Protocol
from twisted.internet.testing import MemoryReactor

from classroom.server.eager_writes import EagerServer, eager_writes_install

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def pair() -> Iterator[tuple[Any, socket.socket, MemoryReactor]]:
    ours, peer = socket.socketpair()
    reactor = MemoryReactor()
    connection = EagerServer(ours, Protocol(), ("127.0.0.1", 1), None, 1, reactor)
    connection.connected = True
    yield connection, peer, reactor
    ours.close()
    peer.close()


def _received(peer: socket.socket) -> bytes:
    peer.setblocking(False)
    chunks = []
    while True:
        try:
            chunk = peer.recv(1 << 16)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_a_frame_goes_out_at_once_without_the_reactor(pair: Any) -> None:
    connection, peer, reactor = pair
    connection.write(b"first")
    connection.write(b"second")
    assert _received(peer) == b"firstsecond"
    assert reactor.getWriters() == []


def test_what_the_kernel_does_not_take_waits_and_goes_in_order(pair: Any) -> None:
    connection, peer, reactor = pair
    # More than the socket pair's buffers hold: the rest waits for the reactor.
    frames = [bytes([n % 251]) * 50_000 for n in range(40)]
    for frame in frames:
        connection.write(frame)
    assert reactor.getWriters() == [connection]
    got = b""
    while connection in reactor.getWriters():
        got += _received(peer)
        assert connection.doWrite() is None
    got += _received(peer)
    assert got == b"".join(frames)


def test_a_refused_send_is_left_to_the_reactor_which_closes_as_before(pair: Any) -> None:
    connection, peer, reactor = pair
    peer.close()
    connection.write(b"to no one")
    assert connection in reactor.getWriters()
    assert connection.doWrite() is main.CONNECTION_LOST


def test_install_makes_new_ports_use_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tcp.Port, "transport", tcp.Server)
    eager_writes_install()
    assert tcp.Port.transport is EagerServer
