"""A small TCP load balancer for a local cluster demo (``manage.py cluster``).

It reads only a connection's request line. The tablets of one class session
(``/ws/play/<code>/…``) all go to one process, picked by a hash of the code, so a table's
owner (the process its first tablet reached) usually has every socket of the table and sends
no frame through Redis. Anything else goes round robin. A process that refuses the
connection (it died) is skipped for the next one. Stickiness is only an optimisation: any
process can serve any tablet, the table's owner is found through its lease. In production use
a real reverse proxy with the same rule (see the README).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import zlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
# Longer request lines are passed on unread (round robin): no Snapclass URL is this long.
REQUEST_LINE_MAX = 8 * 1024
SESSION_PATH = re.compile(rb"^[A-Z]+ /ws/play/([^/ ?]+)/")


def session_backend(code: str, count: int) -> int:
    """The process (index) that serves a session's tablets; stable across restarts."""
    return zlib.crc32(code.encode()) % count


def _session_code(request_line: bytes) -> str | None:
    match = SESSION_PATH.match(request_line)
    return match.group(1).decode("ascii", "replace") if match else None


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


class Balancer:
    def __init__(self, backends: Sequence[tuple[str, int]]) -> None:
        self.backends = list(backends)
        self._turns = itertools.cycle(range(len(self.backends)))

    def _order(self, request_line: bytes) -> list[int]:
        """Backends to try, best first: the session's own process, then the others."""
        count = len(self.backends)
        code = _session_code(request_line)
        first = session_backend(code, count) if code is not None else next(self._turns)
        return [(first + offset) % count for offset in range(count)]

    async def _open_backend(
        self, request_line: bytes
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for index in self._order(request_line):
            host, port = self.backends[index]
            try:
                return await asyncio.open_connection(host, port)
            except OSError:
                logger.warning("backend %s:%s refused; trying the next", host, port)
        return None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request_line = await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError:
            request_line = await reader.read(REQUEST_LINE_MAX)
        except (asyncio.IncompleteReadError, ConnectionError) as cut:
            request_line = getattr(cut, "partial", b"")
        backend = await self._open_backend(request_line)
        if backend is None:
            writer.close()
            return
        backend_reader, backend_writer = backend
        backend_writer.write(request_line)
        await asyncio.gather(_pipe(reader, backend_writer), _pipe(backend_reader, writer))

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self.handle, host, port, limit=REQUEST_LINE_MAX)
        async with server:
            await server.serve_forever()
