"""A socket's messages handed to its handlers one at a time, without a task per message."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.exceptions import StopConsumer
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from classroom.sockets.base import Socket
from classroom.sockets.dispatch import dispatch_each
from tests.tasks_created import tasks_created

TIMEOUT = 3


async def test_each_sources_messages_come_in_order_and_one_at_a_time() -> None:
    browser: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    handled: list[str] = []
    busy = False

    async def dispatch(message: dict[str, Any]) -> None:
        nonlocal busy
        assert not busy, "two messages were handled at once"
        busy = True
        await asyncio.sleep(0)  # a handler that awaits lets the other source's pump run
        handled.append(message["type"])
        busy = False
        if message["type"] == "stop":
            raise StopConsumer

    for n in range(5):
        browser.put_nowait({"type": f"b{n}"})
        layer.put_nowait({"type": f"l{n}"})
    loop = asyncio.create_task(dispatch_each([browser.get, layer.get], dispatch))
    while len(handled) < 10:
        await asyncio.sleep(0)
    browser.put_nowait({"type": "stop"})
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(loop, TIMEOUT)
    assert [t for t in handled if t.startswith("b")] == [f"b{n}" for n in range(5)]
    assert [t for t in handled if t.startswith("l")] == [f"l{n}" for n in range(5)]
    assert handled[-1] == "stop"


async def test_a_handlers_error_ends_the_loop_and_the_other_source_stops_listening() -> None:
    browser: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    layer: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def dispatch(message: dict[str, Any]) -> None:
        raise ValueError(f"No handler for message type {message['type']}")

    browser.put_nowait({"type": "odd"})
    with pytest.raises(ValueError, match="odd"):
        await asyncio.wait_for(dispatch_each([browser.get, layer.get], dispatch), TIMEOUT)
    # Nobody waits on the other source any more: a message sent now stays where it is.
    layer.put_nowait({"type": "late"})
    await asyncio.sleep(0)
    assert layer.qsize() == 1


async def test_a_cancelled_loop_stops_its_sources() -> None:
    browser: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def dispatch(message: dict[str, Any]) -> None:
        return None

    loop = asyncio.create_task(dispatch_each([browser.get], dispatch))
    await asyncio.sleep(0)
    loop.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop
    browser.put_nowait({"type": "late"})
    await asyncio.sleep(0)
    assert browser.qsize() == 1


class _Echo(Socket):
    """A socket answering pings and repeating what its group is sent."""

    groups = ["echo"]

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.frame_take(text_data, bytes_data)

    async def echo_note(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


# A socket's disconnect closes the database connections a thread left open, as every Channels
# consumer does, so the test may touch the database even though the socket never queries it.
@pytest.mark.django_db(transaction=True)
async def test_a_socket_handles_frames_and_group_messages_without_a_task_for_each() -> None:
    socket = WebsocketCommunicator(_Echo.as_asgi(), "/ws/echo/")
    connected, _ = await socket.connect(timeout=TIMEOUT)
    assert connected
    layer = get_channel_layer()
    assert layer is not None
    with tasks_created() as created:
        for seq in range(1, 11):
            await socket.send_to(text_data=f'{{"type":"ping","seq":{seq}}}')
            assert f'"seq":{seq}' in await socket.receive_from(timeout=TIMEOUT)
            await layer.group_send("echo", {"type": "echo.note", "text": f"note {seq}"})
            assert await socket.receive_from(timeout=TIMEOUT) == f"note {seq}"
    # Twenty messages handled; Channels' own loop creates a task for every one of them.
    assert created == []
    await socket.disconnect()
