"""The demo cluster's load balancer: a session's tablets on one process, the rest round robin,
skipping a process that is gone."""

from __future__ import annotations

import asyncio
import socket

from classroom.balancer import Balancer, session_backend


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


async def _balanced(names: list[bytes]) -> tuple[int, list[asyncio.Server], asyncio.Task[None]]:
    servers = [await _named_server(name) for name in names]
    port = _free_port()
    balancer = Balancer([("127.0.0.1", backend_port) for _server, backend_port in servers])
    serving = asyncio.create_task(balancer.serve("127.0.0.1", port))
    await asyncio.sleep(0.1)
    return port, [server for server, _port in servers], serving


async def test_every_tablet_of_a_session_reaches_the_same_process() -> None:
    port, servers, serving = await _balanced([b"a", b"b", b"c"])
    names = "abc"
    for code in ("K7M2QP", "ZZ9XW4", "B3C5D6"):
        request = f"GET /ws/play/{code}/table/ HTTP/1.1".encode()
        answers = {await _ask(port, request) for _ in range(4)}
        expected = names[session_backend(code, 3)]
        assert answers == {expected.encode() + b":" + request + b"\n"}
    # Other pages still take turns.
    plain = [await _ask(port, b"GET /teacher/ HTTP/1.1") for _ in range(3)]
    assert {answer.split(b":")[0] for answer in plain} == {b"a", b"b", b"c"}
    serving.cancel()
    for server in servers:
        server.close()


async def test_a_session_whose_process_is_gone_goes_to_the_next_one() -> None:
    code = next(c for c in ("AAAAAA", "BBBBBB", "CCCCCC") if session_backend(c, 2) == 0)
    alive, alive_port = await _named_server(b"alive")
    port = _free_port()
    balancer = Balancer([("127.0.0.1", _free_port()), ("127.0.0.1", alive_port)])
    serving = asyncio.create_task(balancer.serve("127.0.0.1", port))
    await asyncio.sleep(0.1)
    request = f"GET /ws/play/{code}/table/ HTTP/1.1".encode()
    assert await _ask(port, request) == b"alive:" + request + b"\n"
    serving.cancel()
    alive.close()


def test_the_session_backend_is_stable_and_spreads_sessions() -> None:
    assert session_backend("K7M2QP", 4) == session_backend("K7M2QP", 4)
    spread = {session_backend(f"S{n:05d}", 4) for n in range(40)}
    assert spread == {0, 1, 2, 3}
