"""The host registry: one host per table, started on demand, stopped when idle or ended.

On virtual time: the grace periods pass without waiting for them."""

from __future__ import annotations

import asyncio

import pytest

from games.live.host import TableHost
from games.live.registry import HostRegistry
from tests.games.live.test_host import SETUP, FakeSocket, MemoryStore, NoTicks

pytestmark = pytest.mark.virtual_time


def _registry(loads: list[int], *, idle_stop_s: float = 60.0) -> HostRegistry:
    async def load(table_id: int) -> TableHost | None:
        loads.append(table_id)
        if table_id != SETUP.table_id:
            return None  # not a playing table
        return TableHost(setup=SETUP, engine=NoTicks, store=MemoryStore())

    return HostRegistry(load, idle_stop_s=idle_stop_s)


async def test_concurrent_requests_for_a_table_share_one_host() -> None:
    loads: list[int] = []
    registry = _registry(loads)
    first, second = await asyncio.gather(registry.host_for(7), registry.host_for(7))
    assert first is second
    assert loads == [7]
    assert await registry.host_for(99) is None
    await registry.stop_all()


async def test_an_ended_host_is_forgotten_and_the_next_request_reloads() -> None:
    loads: list[int] = []
    registry = _registry(loads)
    host = await registry.host_for(7)
    assert host is not None
    host.control("end")
    for _ in range(20):
        await asyncio.sleep(0)
    assert registry.running(7) is None
    again = await registry.host_for(7)
    assert again is not host
    assert loads == [7, 7]
    await registry.stop_all()


async def test_a_host_nobody_listens_to_stops_after_the_grace_period() -> None:
    registry = _registry([], idle_stop_s=5.0)
    host = await registry.host_for(7)
    assert host is not None
    tablet = FakeSocket(0)
    await host.join(tablet)
    host.leave(tablet)
    registry.listener_left(host)
    await asyncio.sleep(15)
    assert registry.running(7) is None


async def test_a_reload_within_the_grace_period_keeps_the_host() -> None:
    registry = _registry([], idle_stop_s=10.0)
    host = await registry.host_for(7)
    assert host is not None
    tablet = FakeSocket(0)
    await host.join(tablet)
    host.leave(tablet)
    registry.listener_left(host)
    await host.join(FakeSocket(0))  # the same tablet, back after a reload
    await asyncio.sleep(20)
    assert registry.running(7) is host
    await registry.stop_all()


async def test_a_teacher_page_watching_does_not_keep_the_host_running() -> None:
    registry = _registry([], idle_stop_s=5.0)
    host = await registry.host_for(7)
    assert host is not None
    stopped: list[bool] = []
    host.on_stop(lambda: stopped.append(True))
    tablet, projector = FakeSocket(0), FakeSocket(None)
    await host.join(tablet)
    await host.join(projector)
    host.leave(tablet)
    registry.listener_left(host)
    await asyncio.sleep(15)
    assert registry.running(7) is None
    assert stopped == [True]  # the watching page is told, so it can reconnect later


async def test_on_stop_of_a_host_that_never_ran_calls_back_at_once() -> None:
    host = TableHost(setup=SETUP, engine=NoTicks, store=MemoryStore())
    called: list[bool] = []
    host.on_stop(lambda: called.append(True))
    assert called == [True]


async def test_teacher_views_of_given_tables_only() -> None:
    """A teacher's page asks for its own session's tables, not every table of the school."""
    registry = _registry([])
    await registry.host_for(7)
    assert list(registry.teacher_views()) == [7]
    assert list(registry.teacher_views([7, 8])) == [7]  # 8 does not run here
    assert registry.teacher_views([8]) == {}
    assert registry.teacher_views([]) == {}
    await registry.stop_all()
