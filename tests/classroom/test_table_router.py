"""The cluster's table router: stand-ins for remote hosts, and the owner answering them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.layers import get_channel_layer

from classroom.table_router import CLOSE_SERVICE_RESTART, RemoteTable, TableRouter
from games.live.registry import HostRegistry


@dataclass
class FakeHost:
    """Just what the router touches on a host."""

    table_id: int
    ended: bool = False
    listeners: list[Any] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    def start(self) -> asyncio.Task[None]:
        self.task = asyncio.ensure_future(asyncio.sleep(3600))
        return self.task

    def on_stop(self, callback: Any) -> None:
        pass

    async def join(self, listener: Any) -> None:
        self.listeners.append(listener)


@dataclass(eq=False)  # hashed by identity, as sockets are
class FakeSocket:
    seat: int | None = 0
    reply_to: str = "reply"
    closed_with: list[int] = field(default_factory=list)

    async def deliver(self, frame: str) -> None:
        pass

    async def close(self, code: int) -> None:
        self.closed_with.append(code)


def _router(registry: HostRegistry) -> TableRouter:
    layer = get_channel_layer()
    assert layer is not None
    return TableRouter(layer, registry)


async def _no_host(_table_id: int) -> None:
    return None


async def test_a_socket_reaching_a_stand_in_whose_host_went_away_is_sent_to_reconnect() -> None:
    # The consumer gets the stand-in, then awaits other things before joining: if the owner
    # went away in between, joining must not leave the tablet on a stand-in nobody feeds.
    router = _router(HostRegistry(_no_host))
    router.address = await router.layer.new_channel()
    remote = router.remote_table(7, "elsewhere")
    await remote.owner_gone()
    router.forget(remote)

    stopped: list[str] = []
    remote.on_stop(lambda: stopped.append("reconnect"))
    await remote.join(FakeSocket())  # type: ignore[arg-type]

    assert stopped == ["reconnect"]
    assert remote.seats() == []


async def test_a_stand_in_still_served_keeps_its_sockets() -> None:
    router = _router(HostRegistry(_no_host))
    router.address = await router.layer.new_channel()
    remote = RemoteTable(router, 7, await router.layer.new_channel())
    stopped: list[str] = []
    remote.on_stop(lambda: stopped.append("reconnect"))
    socket = FakeSocket()
    await remote.join(socket)  # type: ignore[arg-type]

    assert stopped == []
    assert remote.seats() == [0]
    await remote.owner_gone()
    assert stopped == ["reconnect"]
    assert socket.closed_with == [CLOSE_SERVICE_RESTART]


async def test_the_owner_answers_a_join_that_arrives_while_it_is_still_loading_the_table() -> None:
    loading = asyncio.Event()
    release = asyncio.Event()
    host = FakeHost(table_id=7)

    async def slow_loader(_table_id: int) -> FakeHost:
        loading.set()
        await release.wait()
        return host

    registry = HostRegistry(slow_loader)  # type: ignore[arg-type]
    router = _router(registry)
    member = await router.layer.new_channel()
    start = asyncio.ensure_future(registry.host_for(7))
    await loading.wait()

    await router._dispatch({"type": "table.join", "table_id": 7, "seat": 1, "member": member})
    release.set()
    assert await start is host
    await asyncio.sleep(0.05)

    assert len(host.listeners) == 1  # joined, not answered "gone"
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(router.layer.receive(member), timeout=0.2)
    await router.stop()
    assert host.task is not None
    host.task.cancel()


async def test_a_table_not_hosted_here_is_answered_gone() -> None:
    router = _router(HostRegistry(_no_host))
    member = await router.layer.new_channel()
    await router._dispatch({"type": "table.join", "table_id": 9, "seat": 0, "member": member})
    message = await asyncio.wait_for(router.layer.receive(member), timeout=2)
    assert message == {"type": "table.gone", "table_id": 9}


async def test_the_owner_hands_a_seat_to_a_bot_when_another_process_asks() -> None:
    # A child taken off the class list on a page served by another process.
    taken: list[tuple[int, str]] = []
    host = FakeHost(table_id=7)
    host.seat_to_bot = lambda seat, level: taken.append((seat, level))  # type: ignore[attr-defined]

    async def loader(_table_id: int) -> FakeHost:
        return host

    registry = HostRegistry(loader)  # type: ignore[arg-type]
    router = _router(registry)
    member = await router.layer.new_channel()
    assert await registry.host_for(7) is host
    message = {"type": "table.to_bot", "table_id": 7, "seat": 1, "level": "steady"}
    await router._dispatch({**message, "member": member})
    assert taken == [(1, "steady")]
    await router.stop()
    assert host.task is not None
    host.task.cancel()
