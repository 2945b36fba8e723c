"""Daphne's timeouts as Snapclass runs it, and the one Daphne lacks: a deadline for a request
to arrive.

What bounds what (Daphne 4.2 on Twisted, read from their source):

- ``--http-timeout`` counts from the moment a request has arrived whole: it bounds the
  application's answer (503 after it), not a client that sends its headers or body slowly.
- Twisted drops an HTTP connection after 60 s *without a byte*, so one byte every 59 s keeps
  a request (and its file descriptor) open for good.
- ``--websocket_connect_timeout`` bounds a WebSocket's handshake until the application
  accepts; ``--ping-interval``/``--ping-timeout`` close a WebSocket that stops answering
  pings; ``--application-close-timeout`` bounds a consumer's clean-up after a disconnect.

``request_deadline_install`` closes the gap: with it, ``--http-timeout`` also bounds the time
from a request's first byte until its headers and body are all in (408, then the connection
closes). Without that flag nothing changes. In front of a proxy, the proxy's own timeouts cut
slow clients first (docs/operations.md).
"""

from __future__ import annotations

import time
from typing import Any

from daphne import http_protocol
from twisted.web import http

# The flags every launcher passes (Makefile's run target repeats them).
DAPHNE_TIMEOUT_ARGS = [
    "--http-timeout", "30",
    "--websocket_connect_timeout", "20",
    "--ping-interval", "20",
    "--ping-timeout", "30",
    "--application-close-timeout", "10",
]  # fmt: skip

# Connections waiting to be accepted. Daphne's -b/-p listen with Twisted's default of 50: a
# class of tablets connecting in the same instant overflows it and some get "connection
# reset". (The kernel caps it at net.core.somaxconn, 4096 on current Linux.)
LISTEN_BACKLOG = 1024


# Daphne's own cap on an incoming WebSocket message and frame (the app refuses frames over
# 4 KiB).
WS_MAX_BYTES = 65536


def daphne_listen_args(host: str, port: int) -> list[str]:
    """Daphne's flags to listen on ``host:port`` with room for a class joining at once."""
    return ["-e", f"tcp:port={port}:interface={host}:backlog={LISTEN_BACKLOG}"]


def daphne_serve_args(host: str, port: int) -> list[str]:
    """Every flag Snapclass is served with, but the log's (the Makefile's run target and
    deploy/systemd/snapclass-web@.service spell them out; tests/deploy holds them equal)."""
    return [
        *daphne_listen_args(host, port),
        "--websocket-max-message-size", str(WS_MAX_BYTES),
        "--websocket-max-frame-size", str(WS_MAX_BYTES),
        *DAPHNE_TIMEOUT_ARGS,
    ]  # fmt: skip


# Twisted's HTTP classes are only partly typed; this one is used as Twisted's code uses it.
_HTTPChannel: Any = http.HTTPChannel

_REQUEST_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"
)


class DeadlineChannel(_HTTPChannel):  # type: ignore[misc]
    """An HTTP connection whose requests must arrive whole within Daphne's ``http_timeout``."""

    _arriving_since: float | None = None
    _deadline: Any = None

    def _timeout(self) -> float | None:
        server = getattr(getattr(self, "factory", None), "server", None)
        value = getattr(server, "http_timeout", None)
        return float(value) if value else None

    def dataReceived(self, data: bytes) -> None:
        # The first byte of a request (not bytes that arrive while one is being answered).
        if self._arriving_since is None and not self._handlingRequest:
            timeout = self._timeout()
            if timeout is not None:
                self._arriving_since = time.monotonic()
                self._deadline = self.callLater(timeout, self._too_slow)
        super().dataReceived(data)

    def allContentReceived(self) -> None:
        # Headers and body are in: from here --http-timeout bounds the answer, as in Daphne.
        self._stop_deadline()
        super().allContentReceived()

    def connectionLost(self, reason: Any) -> None:
        self._stop_deadline()
        super().connectionLost(reason)

    def _stop_deadline(self) -> None:
        self._arriving_since = None
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if self.transport is None:
            return
        self.transport.write(_REQUEST_TIMED_OUT)
        # Twisted's own idle-timeout path: close, and abort if the client will not let go.
        self.timeoutConnection()


def _deadline_protocol(factory: http.HTTPFactory) -> Any:
    # As Twisted's own _genericHTTPChannelProtocolFactory, with this channel.
    return http._GenericHTTPChannelProtocol(DeadlineChannel())


def request_deadline_install() -> None:
    """Serve Daphne's HTTP connections with ``DeadlineChannel`` (idempotent)."""
    factory: Any = http_protocol.HTTPFactory
    factory.protocol = _deadline_protocol
