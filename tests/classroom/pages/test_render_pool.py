"""The teachers' drawing budget pooled by a machine's processes, in a real Redis."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING

import pytest
from redis.asyncio import Redis

from classroom.pages.render_budget import RenderBudget
from classroom.pages.render_pool import (
    GONE_AFTER_S,
    machine_key,
    others_demand,
    render_pool,
    render_pool_once,
)
from tests.services import REDIS_URL, require

if TYPE_CHECKING:
    from collections.abc import AsyncIterator


@pytest.fixture
async def redis() -> AsyncIterator[Redis]:
    require("redis")
    client = Redis.from_url(REDIS_URL)
    yield client
    await client.aclose()


@pytest.fixture
async def key(redis: Redis) -> AsyncIterator[str]:
    key = machine_key(prefix=f"test-{uuid.uuid4().hex[:8]}", host="tablet-room")
    yield key
    await redis.delete(key)


def _demanding(demand: float) -> RenderBudget:
    """A budget whose pages asked for ``demand`` CPU-s per second over its last window."""
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    budget.spend(cpu_s=0.0, now=0.0)
    budget.spend(cpu_s=demand * 2.0, now=1.0)
    budget.stretch(now=2.0)
    assert budget.demand == pytest.approx(demand)
    return budget


async def test_each_process_takes_the_others_demand_and_not_its_own(redis: Redis, key: str) -> None:
    first, second, third = _demanding(0.1), _demanding(0.3), _demanding(0.5)
    await render_pool_once(redis, first, key=key, me="a", now=1000.0)
    await render_pool_once(redis, second, key=key, me="b", now=1000.5)
    await render_pool_once(redis, third, key=key, me="c", now=1001.0)
    await render_pool_once(redis, first, key=key, me="a", now=1002.0)
    assert first.others == pytest.approx(0.8)
    assert second.others == pytest.approx(0.1)
    assert third.others == pytest.approx(0.4)


async def test_a_process_gone_quiet_no_longer_counts_and_its_field_goes(
    redis: Redis, key: str
) -> None:
    gone, staying = _demanding(0.4), _demanding(0.1)
    await render_pool_once(redis, gone, key=key, me="gone", now=1000.0)
    await redis.hset(key, "garbled", "not a demand")  # type: ignore[misc]
    await render_pool_once(redis, staying, key=key, me="here", now=1000.0 + GONE_AFTER_S + 1)
    assert staying.others == 0.0
    assert set(await redis.hkeys(key)) == {b"here"}  # type: ignore[misc]


def test_the_others_are_read_from_what_they_told() -> None:
    told = {b"me": b"9.0 100.0", b"b": b"0.25 99.0", b"c": b"0.5 100.0", b"old": b"1.0 10.0"}
    assert others_demand(told, me="me", now=100.0) == (0.75, ["old"])


async def test_while_redis_is_away_a_process_counts_on_its_own_demand() -> None:
    budget = _demanding(0.1)
    budget.others = 5.0
    unreachable = Redis.from_url("redis://127.0.0.1:1/0")
    pooling = asyncio.create_task(
        render_pool(redis=unreachable, budget=budget, key="k", me="a", clock=lambda: 0.0)
    )
    try:
        async with asyncio.timeout(10):
            while budget.others != 0.0:
                await asyncio.sleep(0.01)
        assert not pooling.done()  # it keeps asking, for when Redis is back
    finally:
        pooling.cancel()
        await unreachable.aclose()
