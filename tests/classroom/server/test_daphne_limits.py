"""A real Daphne, started with the project's timeout flags, cuts off requests that trickle in.

Before ``classroom.server.daphne_limits``, one byte every few seconds kept a request open for good
(Twisted's idle timer restarts on every byte; ``--http-timeout`` starts only once the request
is whole). The test sets ``--http-timeout 1`` so a trickle is cut within seconds.
"""

from __future__ import annotations

import socket
import time
from typing import TYPE_CHECKING

import pytest

from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS
from tests.served_site import served

if TYPE_CHECKING:
    from collections.abc import Iterator

DEADLINE_S = 1
# A trickle of one byte every 0.2 s: far more than the deadline's worth of bytes, so an open
# connection after all of them means nothing cut it off.
STEP_S = 0.2
TRICKLE_BYTES = 150


@pytest.fixture(scope="module")
def daphne(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    workdir = tmp_path_factory.mktemp("daphne-limits")
    with served(workdir, *DAPHNE_TIMEOUT_ARGS, "--http-timeout", str(DEADLINE_S)) as port:
        yield port


def _trickle(port: int, start: bytes, drip: bytes) -> bytes:
    """Send ``start`` at once, then ``drip`` a byte at a time; what the server sent back,
    once it closed the connection (or an AssertionError if it never did)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as client:
        client.sendall(start)
        client.settimeout(STEP_S)
        received = b""
        for byte in drip:
            try:
                client.sendall(bytes([byte]))
                chunk = client.recv(4096)
            except TimeoutError:
                continue
            except (BrokenPipeError, ConnectionResetError):
                return received
            if not chunk:
                return received
            received += chunk
        raise AssertionError(f"still open after {len(drip)} trickled bytes: {received!r}")


def test_the_flags_bound_every_phase_of_a_connection() -> None:
    flags = DAPHNE_TIMEOUT_ARGS
    for flag in (
        "--http-timeout",
        "--websocket_connect_timeout",
        "--ping-interval",
        "--ping-timeout",
        "--application-close-timeout",
    ):
        assert flag in flags
        assert float(flags[flags.index(flag) + 1]) > 0


def test_trickled_headers_are_cut_off(daphne: int) -> None:
    answer = _trickle(
        daphne, b"GET /join/ HTTP/1.1\r\nHost: 127.0.0.1\r\n", b"X-Slow: " + b"a" * TRICKLE_BYTES
    )
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_a_trickled_body_is_cut_off(daphne: int) -> None:
    head = (
        b"POST /join/ HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\n\r\n"
    )
    assert _trickle(daphne, head, b"a" * TRICKLE_BYTES).startswith(b"HTTP/1.1 408 ")


def test_a_trickled_request_line_is_cut_off(daphne: int) -> None:
    assert _trickle(daphne, b"G", b"ET /" + b"a" * TRICKLE_BYTES).startswith(b"HTTP/1.1 408 ")


def test_a_trickled_websocket_handshake_is_cut_off(daphne: int) -> None:
    head = (
        b"GET /ws/play/ABCDEF/table/ HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
    )
    answer = _trickle(daphne, head, b"Sec-WebSocket-Key: " + b"a" * TRICKLE_BYTES)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_a_kept_alive_connection_waiting_between_requests_is_not_cut(daphne: int) -> None:
    # Idle between two whole requests is not "arriving slowly" (Twisted's idle timer, 60 s,
    # covers that): the second request, sent after the deadline has passed, is answered.
    request = b"GET /no-such-page/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", daphne), timeout=10) as client:
        client.sendall(request)
        first = client.recv(65536)
        assert first.startswith(b"HTTP/1.1 ")
        assert not first.startswith(b"HTTP/1.1 408")
        time.sleep(DEADLINE_S * 2)
        client.sendall(request)
        second = client.recv(65536)
        assert second.startswith(b"HTTP/1.1 ")
        assert not second.startswith(b"HTTP/1.1 408")
