"""Table leases and fencing epochs: in memory (embedded mode) and in a real Redis (a cluster)."""

from __future__ import annotations

import asyncio
import uuid
from typing import TYPE_CHECKING, Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from games.live.leases import (
    LEASE_TTL_MS,
    Lease,
    Leases,
    LocalLeases,
    RedisLeases,
    renew_tick_wait,
)
from tests.games.live.virtual_time import loop_outlives
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


class _PipelinesCounted:
    """The real client, with its pipelines counted (each is one round trip)."""

    def __init__(self, client: Redis) -> None:
        self.client = client
        self.pipelines = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def pipeline(self, *args: Any, **kwargs: Any) -> Any:
        self.pipelines += 1
        return self.client.pipeline(*args, **kwargs)


async def test_renewals_asked_for_together_go_in_one_round_trip(
    redis_leases: RedisLeases,
) -> None:
    leases = [await redis_leases.acquire(table, "process-a") for table in range(40)]
    counted = _PipelinesCounted(redis_leases._redis)
    redis_leases._redis = counted  # type: ignore[assignment]
    # Another process took table 3 meanwhile: that renewal alone is refused.
    await counted.client.set(redis_leases._lease_key(3), "99|process-b", px=1000)
    renewed = await asyncio.gather(*(redis_leases.renew(lease) for lease in leases if lease))
    assert counted.pipelines == 1
    assert [lease is None for lease in renewed] == [table == 3 for table in range(40)]
    assert await redis_leases.owner_of(39) == "process-a"


async def test_a_renewal_cancelled_while_it_waits_leaves_the_others_answered(
    redis_leases: RedisLeases,
) -> None:
    first = await redis_leases.acquire(1, "process-a")
    second = await redis_leases.acquire(2, "process-a")
    assert first is not None
    assert second is not None
    cancelled = asyncio.create_task(redis_leases.renew(first))
    kept = asyncio.create_task(redis_leases.renew(second))
    await asyncio.sleep(0)  # both asked for; the flush has not yet sent them
    cancelled.cancel()
    renewed = await kept
    assert renewed is not None
    assert renewed.epoch == second.epoch
    assert cancelled.cancelled()


async def test_while_redis_is_away_every_renewal_of_a_batch_fails() -> None:
    unreachable = Redis.from_url("redis://127.0.0.1:1/0")
    leases = RedisLeases(unreachable, prefix="away")
    try:
        answers = await asyncio.gather(
            *(leases.renew(Lease(table, "process-a", 1, 0.0)) for table in range(3)),
            return_exceptions=True,
        )
    finally:
        await unreachable.aclose()
    assert all(isinstance(answer, RedisConnectionError) for answer in answers)


@pytest.mark.virtual_time
async def test_keepers_that_began_apart_renew_on_the_same_tick() -> None:
    loop = asyncio.get_running_loop()
    woken: list[float] = []

    async def keeper(begins: float) -> None:
        await asyncio.sleep(begins)
        await renew_tick_wait(every_ms=500)
        woken.append(loop.time())

    began = loop.time()
    await asyncio.gather(*(keeper(begins) for begins in (0.05, 0.21, 0.33, 0.49)))
    tick = (began // 0.5 + 1) * 0.5
    assert woken == pytest.approx([tick] * 4)


@pytest.mark.virtual_time
async def test_the_keepers_of_a_tick_share_one_timer_and_a_cancelled_one_stops_no_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()
    timers: list[float] = []
    call_at = loop.call_at

    def counted(when: float, *args: Any, **kwargs: Any) -> asyncio.TimerHandle:
        timers.append(when)
        return call_at(when, *args, **kwargs)

    monkeypatch.setattr(loop, "call_at", counted)
    woken: list[int] = []

    async def keeper(number: int) -> None:
        await renew_tick_wait(every_ms=500)
        woken.append(number)

    keepers = [asyncio.ensure_future(keeper(number)) for number in range(100)]
    await asyncio.sleep(0)
    keepers[0].cancel()
    await asyncio.gather(*keepers, return_exceptions=True)
    assert len(timers) == 1
    assert sorted(woken) == list(range(1, 100))


def test_a_loop_that_ended_with_keepers_waiting_is_not_kept_alive() -> None:
    async def keeper() -> None:
        await renew_tick_wait(every_ms=500)

    async def keepers_cancelled() -> None:
        waiting = [asyncio.ensure_future(keeper()) for _ in range(3)]
        await asyncio.sleep(0)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)

    assert not loop_outlives(keepers_cancelled)
