"""A process's leases while it loads a table: kept alive however long reading the log takes."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest
from redis.asyncio import Redis

from classroom.hosting import lease_keeper
from classroom.hosting.lease_keeper import lease_hold_while
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
    monkeypatch.setattr(lease_keeper, "RENEW_EVERY_MS", 20)


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
    # Real time against a real Redis: the TTL leaves room for a busy machine between the
    # read's end and the checks (100 ms was once too little with a load average of 15).
    leases = RedisLeases(client, prefix=f"test-{uuid.uuid4().hex[:8]}", ttl_ms=400)
    try:
        taken = await leases.acquire(7, "process-a")
        assert taken is not None
        _, lease = await lease_hold_while(_slow(1.6), taken, leases)
        assert lease is not None
        assert await leases.owner_of(7) == "process-a"
        assert await leases.acquire(7, "process-b") is None
        # Without the renewals the same wait loses it.
        await asyncio.sleep(1.6)
        assert await leases.owner_of(7) is None
    finally:
        await client.aclose()


# -- renewing only while the host makes progress (issue 16, finding 1) -------------------------


class _StalledHost:
    """The keeper's view of a host: its heartbeat on an injected clock."""

    table_id = 7
    finished = False
    fenced = False

    def __init__(self, stalled_ms: int) -> None:
        self._stalled_ms = stalled_ms

    def stalled_ms(self) -> int:
        return self._stalled_ms


async def test_a_host_that_makes_progress_has_its_lease_renewed() -> None:
    leases = ScriptedLeases(["kept"])
    lease = Lease(7, "me", 3, confirmed_ms=0.0)
    host = _StalledHost(stalled_ms=lease_keeper.host_stall_limit_ms() - 1)
    renewed = await lease_keeper.lease_renew_if_progressing(host, lease, leases)  # type: ignore[arg-type]
    assert renewed is not None
    assert leases.renewals == 1


async def test_a_stalled_host_has_its_lease_not_renewed(caplog: pytest.LogCaptureFixture) -> None:
    leases = ScriptedLeases(["kept"])
    lease = Lease(7, "me", 3, confirmed_ms=0.0)
    host = _StalledHost(stalled_ms=lease_keeper.host_stall_limit_ms() + 1)
    renewed = await lease_keeper.lease_renew_if_progressing(host, lease, leases)  # type: ignore[arg-type]
    assert renewed is None
    assert leases.renewals == 0  # not even asked: the lease runs out and another process replays
    assert "made no progress" in caplog.text


async def test_the_keeper_stops_a_hung_host_and_gives_its_table_up() -> None:
    from games.live.host import TableHost
    from games.live.leases import LocalLeases
    from tests.games.live.test_host import SETUP, FakeSocket, NoTicks
    from tests.games.live.test_host_outages import FakeTime, HangingStore

    time = FakeTime()
    host = TableHost(setup=SETUP, engine=NoTicks, store=HangingStore(), wall=time.wall)
    host.start()
    leases = LocalLeases()
    lease = await leases.acquire(SETUP.table_id, "me")
    assert lease is not None
    keeper = asyncio.ensure_future(lease_keeper.lease_keep(host, lease, leases))
    alice = FakeSocket(0)
    await host.join(alice)
    host.submit(alice, 1, {"kind": "add", "n": 1})  # its write never comes back
    for _ in range(5):
        await asyncio.sleep(0)
    assert await leases.owner_of(SETUP.table_id) == "me"
    time.ms += lease_keeper.host_stall_limit_ms() + 1
    await asyncio.wait_for(keeper, timeout=10)
    assert host.finished
    assert host.fenced
    assert await leases.owner_of(SETUP.table_id) is None  # free for another process at once


def test_one_process_gives_a_late_host_much_longer_than_a_cluster(settings: Any) -> None:
    """Alone, no other process could take the table: only a host stuck for long is hung."""
    settings.REDIS_URL = ""
    assert lease_keeper.host_stall_limit_ms() == lease_keeper.HOST_STALL_ALONE_MS
    settings.REDIS_URL = "redis://127.0.0.1:6379/0"
    assert lease_keeper.host_stall_limit_ms() == lease_keeper.HOST_STALL_MS
    assert lease_keeper.HOST_STALL_MS < lease_keeper.HOST_STALL_ALONE_MS


async def test_a_keeper_that_fails_is_restarted_and_keeps_the_lease(
    caplog: pytest.LogCaptureFixture,
) -> None:
    leases = ScriptedLeases(["kept"])
    calls = 0

    class Host(_StalledHost):
        def stalled_ms(self) -> int:
            nonlocal calls
            calls += 1
            if calls == 1:
                raise RuntimeError("a bug in the keeper")
            if calls >= 4:
                self.finished = True
            return 0

    lease = Lease(7, "me", 3, confirmed_ms=0.0)
    released: list[Lease] = []

    async def release(held: Lease) -> None:
        released.append(held)

    leases.release = release  # type: ignore[attr-defined]
    await asyncio.wait_for(lease_keeper.lease_keep(Host(0), lease, leases), timeout=10)  # type: ignore[arg-type]
    assert "lease keeper of table 7 failed" in caplog.text
    assert leases.renewals >= 2  # renewing went on after the failure
    assert released
    assert released[-1].epoch == 3
