"""The cluster's table router: stand-ins for remote hosts, and the owner answering them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from channels.layers import get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError

from classroom.hosting.lease_keeper import process_leases
from classroom.hosting.router import RemoteTable, TableRouter
from classroom.sockets.close_codes import CloseCode
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

    def seats_listening(self) -> bool:
        return bool(self.listeners)


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
    assert socket.closed_with == [CloseCode.SERVICE_RESTART]


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


class FakeLeases:
    def __init__(self, owner: str | None) -> None:
        self.owner = owner

    async def owner_of(self, _table_id: int) -> str | None:
        return self.owner


@pytest.mark.parametrize(("owner_now", "taken_here"), [(None, True), ("another", False)])
async def test_when_a_dead_owners_lease_runs_out_the_table_is_taken_over_here_at_once(
    monkeypatch: pytest.MonkeyPatch, owner_now: str | None, taken_here: bool
) -> None:
    # Nobody holds the lease any more: this process, whose tablets are about to reconnect,
    # reads the table's log now rather than when the first of them is back. If another
    # process already took it, it is left to that one.
    host = FakeHost(table_id=7)
    loaded: list[int] = []

    async def loader(table_id: int) -> FakeHost:
        loaded.append(table_id)
        return host

    monkeypatch.setattr("classroom.hosting.router.process_leases", lambda: FakeLeases(owner_now))
    registry = HostRegistry(loader, idle_stop_s=3600)  # type: ignore[arg-type]
    router = _router(registry)
    router.address = await router.layer.new_channel()
    remote = RemoteTable(router, 7, "dead-owner")
    router._remotes[7] = remote
    socket = FakeSocket()
    remote._listeners[0] = {socket}

    router.spawn(router._watch_owners())
    for _ in range(100):
        if socket.closed_with and (loaded or not taken_here):
            break
        await asyncio.sleep(0.05)

    assert socket.closed_with == [CloseCode.SERVICE_RESTART]  # sent to reconnect either way
    assert loaded == ([7] if taken_here else [])
    assert (registry.running(7) is host) == taken_here  # type: ignore[comparison-overlap]
    await router.stop()
    if host.task is not None:
        host.task.cancel()
    for reaper in registry._reapers.values():
        reaper.cancel()


# -- through a Redis outage (issue 16, finding 2) ---------------------------------------------


class FlakyLayer:
    """The in-memory layer, except that Redis is "down" for the first ``down`` calls of a kind."""

    def __init__(self, layer: Any, *, receive_down: int = 0, send_down: int = 0) -> None:
        self._layer = layer
        self.receive_down = receive_down
        self.send_down = send_down
        self.recoveries = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._layer, name)

    async def receive(self, channel: str) -> Any:
        if self.receive_down:
            self.receive_down -= 1
            raise RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")
        return await self._layer.receive(channel)

    async def group_send(self, group: str, message: Any) -> None:
        if self.send_down:
            self.send_down -= 1
            raise RedisConnectionError("Connection reset by peer")
        await self._layer.group_send(group, message)


@dataclass(eq=False)
class RecordingSocket(FakeSocket):
    frames: list[str] = field(default_factory=list)

    async def deliver(self, frame: str) -> None:
        self.frames.append(frame)


async def test_the_router_keeps_receiving_after_the_layer_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    layer = FlakyLayer(get_channel_layer(), receive_down=2)
    router = TableRouter(layer, HostRegistry(_no_host))  # type: ignore[arg-type]
    owner = await layer.new_channel()
    await process_leases().acquire(7, owner)  # the table's host is that other process
    await router.start()
    remote = router.remote_table(7, owner)
    socket = RecordingSocket()
    await remote.join(socket)  # type: ignore[arg-type]
    frame = {"type": "table.frame", "table_id": 7, "seat": 0, "frame": '{"type":"state"}'}
    await layer.send(router.address, frame)
    for _ in range(200):
        if socket.frames:
            break
        await asyncio.sleep(0.01)
    await router.stop()
    assert socket.frames == ['{"type":"state"}']
    failures = [r for r in caplog.records if "table router receiving loop failed" in r.message]
    assert len(failures) == 2
    assert all(record.exc_info is not None for record in failures)


async def test_a_view_that_could_not_reach_other_processes_does_not_drop_their_sockets() -> None:
    from classroom.hosting.router import _GroupListener

    layer = FlakyLayer(get_channel_layer(), send_down=1)
    listener = _GroupListener(layer, 7, 0)  # type: ignore[arg-type]
    await listener.deliver('{"type":"state"}')  # raising would make the host forget it
    member = await layer.new_channel()
    await layer.group_add("tbl.7.0", member)
    await listener.deliver('{"type":"state","version":2}')
    message = await asyncio.wait_for(layer.receive(member), timeout=2)
    assert message["frame"] == '{"type":"state","version":2}'


async def test_stand_ins_rejoin_their_groups_on_every_heartbeat() -> None:
    layer = FlakyLayer(get_channel_layer())
    router = TableRouter(layer, HostRegistry(_no_host))  # type: ignore[arg-type]
    router.address = await layer.new_channel()
    owner = await layer.new_channel()
    remote = router.remote_table(7, owner)
    await remote.join(RecordingSocket(seat=1))  # type: ignore[arg-type]
    await layer.group_discard("tbl.7.1", router.address)  # Redis restarted and forgot it
    await router.rejoin()
    # Back in the seat's group: the owner's next view reaches this process again.
    await layer.group_send("tbl.7.1", {"type": "table.frame", "table_id": 7, "seat": 1})
    assert (await asyncio.wait_for(layer.receive(router.address), timeout=2))["seat"] == 1
    await router.stop()


async def test_after_an_outage_stand_ins_send_their_sockets_to_reconnect() -> None:
    layer = FlakyLayer(get_channel_layer())
    router = TableRouter(layer, HostRegistry(_no_host))  # type: ignore[arg-type]
    router.address = await layer.new_channel()
    remote = router.remote_table(7, await layer.new_channel())
    socket = RecordingSocket(seat=1)
    await remote.join(socket)  # type: ignore[arg-type]
    await router.reconnect_after_outage()
    assert socket.closed_with == []  # no outage yet
    layer.recoveries += 1  # receiving failed and came back: frames in flight were lost
    await router.reconnect_after_outage()
    # Reconnecting, the tablet gets a fresh view and resends what was never answered.
    assert socket.closed_with == [CloseCode.SERVICE_RESTART]
    assert router.remote_table(7, remote.owner) is not remote
    await router.stop()


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
