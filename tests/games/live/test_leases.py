"""Table leases and fencing epochs: in memory (embedded mode) and in a real Redis (a cluster)."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING

import pytest
from redis.asyncio import Redis

from games.live.leases import LEASE_TTL_MS, Lease, Leases, LocalLeases, RedisLeases
from tests.services import REDIS_URL, require

if TYPE_CHECKING:
    from collections.abc import AsyncIterator


async def _redis_leases() -> AsyncIterator[RedisLeases]:
    require("redis")
    client = Redis.from_url(REDIS_URL)
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    yield RedisLeases(client, prefix=prefix, ttl_ms=300)
    keys = [key async for key in client.scan_iter(f"{prefix}:*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


@pytest.fixture
async def redis_leases() -> AsyncIterator[RedisLeases]:
    async for leases in _redis_leases():
        yield leases


@pytest.fixture(params=["local", "redis"])
async def leases(request: pytest.FixtureRequest) -> AsyncIterator[Leases]:
    if request.param == "local":
        yield LocalLeases()
        return
    async for redis_leases in _redis_leases():
        yield redis_leases


async def test_one_owner_at_a_time(leases: Leases) -> None:
    first = await leases.acquire(7, "process-a")
    assert first is not None
    assert await leases.acquire(7, "process-b") is None
    assert await leases.owner_of(7) == "process-a"
    assert await leases.owner_of(8) is None


async def test_every_takeover_gets_a_higher_epoch(leases: Leases) -> None:
    first = await leases.acquire(7, "process-a")
    assert first is not None
    await leases.release(first)
    second = await leases.acquire(7, "process-b")
    assert second is not None
    assert second.epoch > first.epoch
    assert await leases.owner_of(7) == "process-b"


async def test_the_epoch_starts_above_the_stores_floor(leases: Leases) -> None:
    lease = await leases.acquire(7, "process-a", floor=41)
    assert lease is not None
    assert lease.epoch == 42


async def test_a_lost_lease_cannot_be_renewed_or_released(leases: Leases) -> None:
    first = await leases.acquire(7, "process-a")
    assert first is not None
    await leases.release(first)
    second = await leases.acquire(7, "process-b")
    assert second is not None
    assert await leases.renew(first) is None
    await leases.release(first)  # a late release from the old owner changes nothing
    assert await leases.owner_of(7) == "process-b"
    renewed = await leases.renew(second)
    assert renewed is not None
    assert renewed.epoch == second.epoch


async def test_an_owner_that_stops_renewing_loses_the_table(redis_leases: RedisLeases) -> None:
    first = await redis_leases.acquire(7, "process-a")
    assert first is not None
    assert await redis_leases.acquire(7, "process-b") is None
    await asyncio.sleep(0.45)  # the test TTL is 300 ms
    second = await redis_leases.acquire(7, "process-b")
    assert second is not None
    assert second.epoch > first.epoch
    assert await redis_leases.renew(first) is None


async def test_renewing_keeps_the_table(redis_leases: RedisLeases) -> None:
    lease = await redis_leases.acquire(7, "process-a")
    for _ in range(4):
        await asyncio.sleep(0.15)
        assert lease is not None
        lease = await redis_leases.renew(lease)
    assert lease is not None
    assert await redis_leases.owner_of(7) == "process-a"


async def test_concurrent_claims_have_exactly_one_winner(redis_leases: RedisLeases) -> None:
    results = await asyncio.gather(*(redis_leases.acquire(9, f"p{n}") for n in range(8)))
    winners = [lease for lease in results if lease is not None]
    assert len(winners) == 1


def test_a_lease_is_trusted_only_within_its_ttl_by_the_owners_clock() -> None:
    lease = Lease(7, "process-a", 3, confirmed_ms=10_000.0)
    assert lease.trusted(now_ms=10_000.0 + LEASE_TTL_MS - 1)
    assert not lease.trusted(now_ms=10_000.0 + LEASE_TTL_MS)
