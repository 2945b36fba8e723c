"""The embedded channel layer delivers as Channels' in-memory layer does, sweeping once a second."""

from __future__ import annotations

import asyncio
import time

import pytest
from channels.layers import InMemoryChannelLayer

from classroom.server.process_channel_layer import ProcessChannelLayer


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _layer(clock: Clock, *, capacity: int = 100) -> ProcessChannelLayer:
    return ProcessChannelLayer(clock=clock, capacity=capacity)


async def test_group_send_reaches_every_member_once_with_a_copy_of_its_own() -> None:
    layer = _layer(Clock())
    names = [await layer.new_channel() for _ in range(3)]
    for name in names:
        await layer.group_add("table-1", name)
    await layer.group_add("table-2", names[0])
    message = {"type": "table.frame", "view": {"flip": 3}}
    await layer.group_send("table-1", message)
    received = [await layer.receive(name) for name in names]
    assert received == [message] * 3
    assert all(got is not message for got in received)
    received[0]["view"]["flip"] = 99  # one consumer changing its copy changes no other
    assert received[1]["view"]["flip"] == 3
    assert layer.channels == {}  # emptied queues are dropped, as in the in-memory layer


async def test_a_full_channel_misses_the_message_and_the_others_still_get_it() -> None:
    layer = _layer(Clock(), capacity=1)
    full, other = await layer.new_channel(), await layer.new_channel()
    for name in (full, other):
        await layer.group_add("session-1", name)
    await layer.send(full, {"type": "first"})
    await layer.group_send("session-1", {"type": "second"})
    assert await layer.receive(full) == {"type": "first"}
    assert await layer.receive(other) == {"type": "second"}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(full), timeout=0.05)


async def test_the_sweep_runs_once_a_second_not_on_every_call() -> None:
    clock = Clock()
    layer = _layer(clock)
    name = await layer.new_channel()
    for _ in range(50):
        await layer.send(name, {"type": "x"})
        await layer.receive(name)
        await layer.group_send("nobody", {"type": "x"})
    assert layer.sweeps == 1
    clock.now += 0.999
    await layer.group_send("nobody", {"type": "x"})
    assert layer.sweeps == 1
    clock.now += 0.001
    await layer.group_send("nobody", {"type": "x"})
    assert layer.sweeps == 2


async def test_an_expired_message_is_still_dropped_and_its_channel_leaves_its_groups(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = Clock()
    layer = _layer(clock)
    stale, fresh = await layer.new_channel(), await layer.new_channel()
    for name in (stale, fresh):
        await layer.group_add("teachers-1", name)
    await layer.send(stale, {"type": "never.read"})
    real_time = time.time
    later = [0.0]
    monkeypatch.setattr("channels.layers.time.time", lambda: real_time() + later[0])
    await layer.group_send("nobody", {"type": "x"})  # the first sweep: nothing expired yet
    # Two minutes on: past the message's expiry, well within a group membership's (a day).
    later[0] = 120.0
    await layer.group_send("nobody", {"type": "x"})
    assert stale in layer.groups["teachers-1"]  # within the second: not swept yet
    clock.now += 1.0
    await layer.group_send("teachers-1", {"type": "after"})
    assert stale not in layer.groups["teachers-1"]
    assert stale not in layer.channels
    assert await layer.receive(fresh) == {"type": "after"}


def test_it_is_the_embedded_set_ups_layer() -> None:
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    assert isinstance(layer, ProcessChannelLayer)
    assert isinstance(layer, InMemoryChannelLayer)
