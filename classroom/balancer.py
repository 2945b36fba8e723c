"""A small TCP load balancer for a local cluster demo (``manage.py cluster``).

Round robin over the Daphne processes; a process that refuses the connection (it died) is
skipped for the next one. It works below HTTP, so WebSocket upgrades pass through untouched.
Any process can serve any tablet: the table's owner is found through its lease, so no
stickiness is needed. In production use a real reverse proxy (see the README).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024


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

    async def _open_backend(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        for _attempt in range(len(self.backends)):
            host, port = self.backends[next(self._turns)]
            try:
                return await asyncio.open_connection(host, port)
            except OSError:
                logger.warning("backend %s:%s refused; trying the next", host, port)
        return None

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        backend = await self._open_backend()
        if backend is None:
            writer.close()
            return
        backend_reader, backend_writer = backend
        await asyncio.gather(_pipe(reader, backend_writer), _pipe(backend_reader, writer))

    async def serve(self, host: str, port: int) -> None:
        server = await asyncio.start_server(self.handle, host, port)
        async with server:
            await server.serve_forever()
