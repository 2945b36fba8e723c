"""This process's leases on the tables it hosts: which kind, and keeping them while hosts run.

One process (the embedded default): in-memory leases, every table is ours. Several processes
(REDIS_URL set): leases in Redis, so exactly one process hosts each table (games.live.leases).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import TYPE_CHECKING, TypeVar

from django.conf import settings
from redis.asyncio import Redis

from classroom.server.outages import outage_warning
from games.live.leases import (
    LEASE_TTL_MS,
    RENEW_EVERY_MS,
    LocalLeases,
    RedisLeases,
    renew_tick_wait,
)
from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from games.live.host import TableHost
    from games.live.leases import Lease, Leases

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Leases (and their Redis connections) belong to one event loop: one set per loop.
_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Leases] = weakref.WeakKeyDictionary()


class OwnedElsewhere(Exception):
    """Another process hosts this table; inputs go to it over the channel layer."""

    def __init__(self, table_id: int, owner: str) -> None:
        super().__init__(f"table {table_id} is hosted by {owner}")
        self.table_id = table_id
        self.owner = owner


def clustered() -> bool:
    """Several processes share the site (Redis for leases and the channel layer)."""
    return bool(settings.REDIS_URL)


def process_leases() -> Leases:
    loop = asyncio.get_running_loop()
    leases = _by_loop.get(loop)
    if leases is None:
        if clustered():
            leases = RedisLeases(Redis.from_url(settings.REDIS_URL), prefix=settings.LEASE_PREFIX)
        else:
            leases = LocalLeases()
        _by_loop[loop] = leases
    return leases


async def _renewed(lease: Lease, leases: Leases) -> Lease | None:
    """The lease renewed; kept as it is while Redis cannot be reached and the lease is still
    trusted by our own clock; None once it is lost."""
    try:
        return await leases.renew(lease)
    except Exception as error:
        # One line per outage, not one per table twice a second.
        outage_warning("could not renew a table's lease", error)
        return lease if lease.trusted() else None


async def lease_hold_while(
    work: Awaitable[T], lease: Lease, leases: Leases
) -> tuple[T, Lease | None]:
    """Await ``work`` (reading a table's log) while renewing ``lease``, which would otherwise
    lapse when the read takes longer than its TTL (a busy process, a class connecting at
    once); the lease as last renewed, or None if it was lost meanwhile."""
    task = asyncio.ensure_future(work)
    current: Lease | None = lease
    while True:
        done, _ = await asyncio.wait({task}, timeout=RENEW_EVERY_MS / 1000)
        if done:
            return task.result(), current
        if current is not None:  # once lost, the read finishes and the caller gives up
            current = await _renewed(current, leases)


# A host whose heartbeat (TableHost.alive_ms) is older than this is hung or starved: its lease
# is not renewed, so another process replays the table instead of it freezing here.
HOST_STALL_MS = LEASE_TTL_MS
# The same for the one process of the embedded set-up, where no other process can take the
# table: giving it up only closes its tablets (CloseCode.SERVICE_RESTART) for this process to
# replay it again. An overloaded process is late everywhere at once, so a short limit would stop
# every table of a busy school together, losing flips between the close and the replay; only a
# host stuck this long is hung, and a replay may free it.
HOST_STALL_ALONE_MS = 30_000


def host_stall_limit_ms() -> int:
    """How long a host may show no progress before its table is given up."""
    return HOST_STALL_MS if clustered() else HOST_STALL_ALONE_MS


async def lease_renew_if_progressing(host: TableHost, lease: Lease, leases: Leases) -> Lease | None:
    """The lease renewed, if the host is making progress; None if it stalled or lost it."""
    stalled = host.stalled_ms()
    if stalled > host_stall_limit_ms():
        logger.warning(
            "table %s: its host made no progress for %.1f s; giving the table up",
            host.table_id,
            stalled / 1000,
        )
        return None
    return await _renewed(lease, leases)


class _Keeper:
    """One host's lease while it runs (the lease outlives a restart of the keeping loop)."""

    def __init__(self, host: TableHost, lease: Lease, leases: Leases) -> None:
        self.host = host
        self.lease = lease
        self.leases = leases

    async def run(self) -> None:
        while True:
            await renew_tick_wait(every_ms=RENEW_EVERY_MS)
            if self.host.finished:
                return
            renewed = await lease_renew_if_progressing(self.host, self.lease, self.leases)
            if renewed is None:
                logger.warning("table %s: lease lost; stopping its host here", self.host.table_id)
                self.host.fenced = True
                await self.host.stop()
                return
            self.lease = renewed


async def lease_keep(host: TableHost, lease: Lease, leases: Leases) -> None:
    """Renew the host's lease while it runs and makes progress; stop the host when the lease
    is lost (or cannot be confirmed within its TTL, by our own clock) or the host stalls; give
    the lease up when the host stops."""
    keeper = _Keeper(host, lease, leases)
    try:
        await supervised(f"lease keeper of table {host.table_id}", keeper.run)
    finally:
        with contextlib.suppress(Exception):
            await leases.release(keeper.lease)
