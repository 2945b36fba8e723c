"""A process's leases while it loads a table: kept alive however long reading the log takes."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field

import pytest
from redis.asyncio import Redis

from classroom import table_leases
from classroom.table_leases import lease_hold_while
from games.live.leases import Lease, RedisLeases
from tests.services import REDIS_URL, require


@dataclass
class ScriptedLeases:
    """Renewals answer from a script: a lease, None (lost) or an exception (Redis down)."""

    answers: list[str]
    renewals: int = 0
    seen: list[Lease] = field(default_factory=list)

    async def renew(self, lease: Lease) -> Lease | None:
        self.seen.append(lease)
        answer = self.answers[min(self.renewals, len(self.answers) - 1)]
        self.renewals += 1
        if answer == "down":
            raise ConnectionError("redis unreachable")
        return None if answer == "lost" else Lease(lease.table_id, lease.owner, lease.epoch, 0.0)


async def _slow(seconds: float) -> str:
    await asyncio.sleep(seconds)
    return "log"


@pytest.fixture(autouse=True)
def quick_renewals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_leases, "RENEW_EVERY_MS", 20)


async def test_a_slow_read_is_covered_by_renewals() -> None:
    leases = ScriptedLeases(["kept"])
    taken = Lease(7, "me", 3, confirmed_ms=0.0)
    result, lease = await lease_hold_while(_slow(0.15), taken, leases)  # type: ignore[arg-type]
    assert result == "log"
    assert leases.renewals >= 3
    assert lease is not None
    assert lease.epoch == 3


async def test_a_quick_read_needs_no_renewal() -> None:
    leases = ScriptedLeases(["kept"])
    taken = Lease(7, "me", 3, confirmed_ms=0.0)
    result, lease = await lease_hold_while(_slow(0), taken, leases)  # type: ignore[arg-type]
    assert (result, lease, leases.renewals) == ("log", taken, 0)


async def test_a_lease_lost_during_the_read_is_reported_and_not_renewed_again() -> None:
    leases = ScriptedLeases(["kept", "lost"])
    taken = Lease(7, "me", 3, confirmed_ms=0.0)
    result, lease = await lease_hold_while(_slow(0.15), taken, leases)  # type: ignore[arg-type]
    assert result == "log"
    assert lease is None
    assert leases.renewals == 2


async def test_redis_down_keeps_the_lease_only_while_it_is_still_trusted() -> None:
    now_ms = asyncio.get_running_loop().time() * 1000
    trusted = Lease(7, "me", 3, confirmed_ms=now_ms)
    _, lease = await lease_hold_while(_slow(0.1), trusted, ScriptedLeases(["down"]))  # type: ignore[arg-type]
    assert lease == trusted
    stale = Lease(7, "me", 3, confirmed_ms=now_ms - 10_000)
    _, lease = await lease_hold_while(_slow(0.1), stale, ScriptedLeases(["down"]))  # type: ignore[arg-type]
    assert lease is None


async def test_in_redis_the_lease_outlives_its_ttl_while_the_log_is_read() -> None:
    require("redis")
    client = Redis.from_url(REDIS_URL)
    leases = RedisLeases(client, prefix=f"test-{uuid.uuid4().hex[:8]}", ttl_ms=100)
    try:
        taken = await leases.acquire(7, "process-a")
        assert taken is not None
        _, lease = await lease_hold_while(_slow(0.4), taken, leases)
        assert lease is not None
        assert await leases.owner_of(7) == "process-a"
        assert await leases.acquire(7, "process-b") is None
        # Without the renewals the same wait loses it.
        await asyncio.sleep(0.4)
        assert await leases.owner_of(7) is None
    finally:
        await client.aclose()
