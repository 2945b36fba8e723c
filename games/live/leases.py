"""Who runs a table: a lease per table, and a fencing epoch per takeover.

Exactly one process hosts a live table. It holds the table's lease (renewed while its host
runs) and got a fencing epoch when it took the lease; the epoch goes with every log write, and
the store refuses a write whose epoch is older than one it has seen, so a former owner that
was paused (or cut off) can never write after another process took over.

``LocalLeases`` serves the embedded single-process mode; ``RedisLeases`` a cluster (``SET NX
PX`` for the lease, ``INCR`` for the epoch). Both only decide ownership; the store enforces it.

A process renews every table it hosts twice a second. ``RedisLeases`` sends the renewals
asked for in one turn of the event loop as one pipeline (one round trip, one write and one
read of the socket), and the keepers renew on a shared tick (``renew_tick_wait``), so a
process's renewals of all its tables go together: each costs a tenth of one sent alone.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from redis.asyncio import Redis

# How long a lease lasts without renewal, and how often the owner renews it. A dead owner's
# tables are free again after at most LEASE_TTL_MS; renewing four times per TTL rides out a
# busy event loop.
LEASE_TTL_MS = 2000
RENEW_EVERY_MS = 500


@dataclass(frozen=True)
class Lease:
    table_id: int
    owner: str  # the owning process's address (its channel name in a cluster)
    epoch: int
    # The owner's own monotonic clock (ms) when the lease was last confirmed: a host that
    # cannot renew stops trusting its lease after the TTL, by its own clock, without asking.
    confirmed_ms: float

    def trusted(self, now_ms: float | None = None) -> bool:
        now = time.monotonic() * 1000 if now_ms is None else now_ms
        return now - self.confirmed_ms < LEASE_TTL_MS


class Leases(Protocol):
    async def acquire(self, table_id: int, owner: str, *, floor: int = 0) -> Lease | None:
        """Take the table's lease for ``owner`` with a new epoch above ``floor``; None if
        another owner holds it."""
        ...

    async def renew(self, lease: Lease) -> Lease | None:
        """The same lease, confirmed now; None if it is lost (expired or taken)."""
        ...

    async def release(self, lease: Lease) -> None:
        """Give the lease up, if it is still ours."""
        ...

    async def owner_of(self, table_id: int) -> str | None:
        """The process holding the table's lease, or None if nobody does."""
        ...


def _now_ms() -> float:
    return time.monotonic() * 1000


class LocalLeases:
    """One process owns everything: leases always granted, epochs counted up from ``floor``."""

    def __init__(self) -> None:
        self._held: dict[int, Lease] = {}
        self._epochs: dict[int, int] = {}

    async def acquire(self, table_id: int, owner: str, *, floor: int = 0) -> Lease | None:
        held = self._held.get(table_id)
        if held is not None and held.owner != owner:
            return None
        epoch = max(self._epochs.get(table_id, 0), floor) + 1
        self._epochs[table_id] = epoch
        lease = Lease(table_id, owner, epoch, _now_ms())
        self._held[table_id] = lease
        return lease

    async def renew(self, lease: Lease) -> Lease | None:
        held = self._held.get(lease.table_id)
        if held is None or held.owner != lease.owner or held.epoch != lease.epoch:
            return None
        renewed = Lease(lease.table_id, lease.owner, lease.epoch, _now_ms())
        self._held[lease.table_id] = renewed
        return renewed

    async def release(self, lease: Lease) -> None:
        held = self._held.get(lease.table_id)
        if held is not None and held.epoch == lease.epoch:
            del self._held[lease.table_id]

    async def owner_of(self, table_id: int) -> str | None:
        held = self._held.get(table_id)
        return held.owner if held is not None else None


# Renew or release only a lease that is still ours (compare and act in one step on the server).
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""
# The epoch counter never goes below the store's highest epoch (a Redis that lost its data
# must not hand out an epoch the store would refuse).
_NEXT_EPOCH = """
local epoch = redis.call('INCR', KEYS[1])
if epoch <= tonumber(ARGV[1]) then
  epoch = tonumber(ARGV[1]) + 1
  redis.call('SET', KEYS[1], epoch)
end
return epoch
"""


class RedisLeases:
    """Leases shared by every process of a cluster, in Redis."""

    def __init__(self, redis: Redis, *, prefix: str = "snapclass", ttl_ms: int = LEASE_TTL_MS):
        self._redis = redis
        self._prefix = prefix
        self._ttl_ms = ttl_ms
        # Renewals asked for in this turn of the loop, sent together by one flush.
        self._renewals: list[tuple[str, str, asyncio.Future[Any]]] = []
        self._flushes: set[asyncio.Task[None]] = set()

    def _lease_key(self, table_id: int) -> str:
        return f"{self._prefix}:table:{table_id}:lease"

    def _epoch_key(self, table_id: int) -> str:
        return f"{self._prefix}:table:{table_id}:epoch"

    @staticmethod
    def _value(owner: str, epoch: int) -> str:
        return f"{epoch}|{owner}"

    async def _eval(self, script: str, key: str, *args: str | int) -> Any:
        # redis-py types eval for its sync and async clients at once; this one is async.
        return await cast("Awaitable[Any]", self._redis.eval(script, 1, key, *args))

    async def acquire(self, table_id: int, owner: str, *, floor: int = 0) -> Lease | None:
        key = self._lease_key(table_id)
        # Claim first with a placeholder, then stamp the epoch: two claimants never both win.
        claim = self._value(owner, 0)
        if not await self._redis.set(key, claim, nx=True, px=self._ttl_ms):
            current = await self._redis.get(key)
            if current is None or _owner(current) != owner:
                return None
            # We hold it already (a host reloading in this process): keep it, new epoch.
        epoch = int(await self._eval(_NEXT_EPOCH, self._epoch_key(table_id), floor))
        await self._redis.set(key, self._value(owner, epoch), px=self._ttl_ms)
        return Lease(table_id, owner, epoch, _now_ms())

    async def renew(self, lease: Lease) -> Lease | None:
        began = _now_ms()
        value = self._value(lease.owner, lease.epoch)
        answer = asyncio.get_running_loop().create_future()
        self._renewals.append((self._lease_key(lease.table_id), value, answer))
        if len(self._renewals) == 1:
            # Begins after the other tasks woken in this turn have asked for theirs.
            flush = asyncio.create_task(self._renewals_send())
            self._flushes.add(flush)
            flush.add_done_callback(self._flushes.discard)
        kept = await answer
        # Confirmed as of when we asked, not when the answer came: the safe side.
        return Lease(lease.table_id, lease.owner, lease.epoch, began) if kept else None

    async def _renewals_send(self) -> None:
        """Send every renewal asked for so far in one pipeline and answer each."""
        asked, self._renewals = self._renewals, []
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key, value, _ in asked:
                    pipe.eval(_RENEW, 1, key, value, self._ttl_ms)
                results = await pipe.execute(raise_on_error=False)
        except Exception as error:  # Redis away: every renewal of the batch fails alike
            results = [error] * len(asked)
        for (_, _, answer), result in zip(asked, results, strict=True):
            if answer.done():  # its keeper was cancelled meanwhile
                continue
            if isinstance(result, BaseException):
                answer.set_exception(result)
            else:
                answer.set_result(result)

    async def release(self, lease: Lease) -> None:
        value = self._value(lease.owner, lease.epoch)
        await self._eval(_RELEASE, self._lease_key(lease.table_id), value)

    async def owner_of(self, table_id: int) -> str | None:
        current = await self._redis.get(self._lease_key(table_id))
        return _owner(current) if current is not None else None


def renew_tick_wait(*, every_ms: float = RENEW_EVERY_MS) -> asyncio.Future[None]:
    """Done at the process's next renewal tick: the loop's clock at a whole multiple of
    ``every_ms``, the same instant for every keeper, so their renewals go out together.

    One timer wakes every keeper waiting for a tick: a sleep of its own for each would be a
    timer, a future and a coroutine made for every table twice a second. Each keeper waits on
    a future of its own, so cancelling one leaves the others' waits alone.
    """
    loop = asyncio.get_running_loop()
    every = every_ms / 1000
    at = (loop.time() // every + 1) * every
    ticks = _ticks.get(loop)
    if ticks is None:
        ticks = _ticks[loop] = weakref.WeakValueDictionary()
    tick = ticks.get(at)
    if tick is None:
        tick = ticks[at] = _Tick()
        loop.call_at(at, tick.come)
    woken: asyncio.Future[None] = loop.create_future()
    tick.waiting.append(woken)
    return woken


class _Tick:
    """The keepers waiting for one tick. Its timer holds it; the map below only finds it, so
    a loop that ends with keepers waiting is not kept alive by their futures."""

    __slots__ = ("__weakref__", "waiting")

    def __init__(self) -> None:
        self.waiting: list[asyncio.Future[None]] = []

    def come(self) -> None:
        for woken in self.waiting:
            if not woken.done():  # a keeper cancelled meanwhile
                woken.set_result(None)


# The ticks to come, by time, per event loop.
_ticks: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, weakref.WeakValueDictionary[float, _Tick]
] = weakref.WeakKeyDictionary()


def _owner(value: bytes | str) -> str:
    text = value.decode() if isinstance(value, bytes) else value
    return text.split("|", 1)[1]
