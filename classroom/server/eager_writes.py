"""A server socket that sends what it is given at once when nothing is waiting to go.

Twisted's TCP transport never sends in ``write``: it keeps the bytes, asks the reactor to
watch the socket for room, and sends on the reactor's next pass, then asks it to stop
watching. Under Daphne's asyncio reactor that is two ``epoll_ctl`` calls and a pass through
Twisted's logging and context wrappers for every frame, and a table's tablets get several
frames a second each while the socket almost always has room. ``EagerServer`` sends at once
when nothing of the connection is still waiting to go; what the kernel does not take (a
full buffer: a slow tablet) waits in Twisted's own buffer and goes Twisted's usual way, in
order. A failed send is left to that way too, so a lost connection ends as it always did.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import tcp

# Twisted's TCP classes are only partly typed; this one is used as Twisted's code uses it.
_Server: Any = tcp.Server


class EagerServer(_Server):  # type: ignore[misc]
    """Twisted's server-side TCP connection, sending at once when its buffer is empty."""

    def write(self, data: bytes) -> None:
        if not self._may_send_now(data):
            super().write(data)
            return
        sent = self.writeSomeData(data)
        if isinstance(sent, BaseException) or sent < 0:
            super().write(data)  # the reactor's pass meets the failure and closes as usual
        elif sent < len(data):
            super().write(data[sent:])

    def _may_send_now(self, data: bytes) -> bool:
        return (
            isinstance(data, bytes)
            and bool(data)
            and self.connected
            and not self.TLS
            and not self.disconnecting
            and not self._writeDisconnected
            and not self._tempDataLen
            and len(self.dataBuffer) == self.offset
        )


def eager_writes_install() -> None:
    """Give the connections of every TCP port opened from now on ``EagerServer``
    (idempotent). Call before Daphne listens."""
    port: Any = tcp.Port
    port.transport = EagerServer
