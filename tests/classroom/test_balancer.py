"""The demo cluster's load balancer: round robin, skipping a process that is gone."""

from __future__ import annotations

import asyncio
import socket

from classroom.balancer import Balancer


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _named_server(name: bytes) -> tuple[asyncio.Server, int]:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request = await reader.readline()
        writer.write(name + b":" + request)
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    return server, int(server.sockets[0].getsockname()[1])


async def _ask(port: int, text: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(text + b"\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), timeout=3)
    writer.close()
    return answer


async def test_connections_take_turns_and_bytes_pass_both_ways() -> None:
    (first, first_port), (second, second_port) = (
        await _named_server(b"a"),
        await _named_server(b"b"),
    )
    port = _free_port()
    balancer = Balancer([("127.0.0.1", first_port), ("127.0.0.1", second_port)])
    serving = asyncio.create_task(balancer.serve("127.0.0.1", port))
    await asyncio.sleep(0.1)
    answers = [await _ask(port, b"hello") for _ in range(4)]
    assert answers == [b"a:hello\n", b"b:hello\n", b"a:hello\n", b"b:hello\n"]
    serving.cancel()
    first.close()
    second.close()


async def test_a_process_that_is_gone_is_skipped() -> None:
    alive, alive_port = await _named_server(b"alive")
    port = _free_port()
    balancer = Balancer([("127.0.0.1", _free_port()), ("127.0.0.1", alive_port)])
    serving = asyncio.create_task(balancer.serve("127.0.0.1", port))
    await asyncio.sleep(0.1)
    assert [await _ask(port, b"hi") for _ in range(3)] == [b"alive:hi\n"] * 3
    serving.cancel()
    alive.close()
