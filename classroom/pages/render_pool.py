"""The teachers' drawing budget pooled by the processes of one machine, through Redis.

Each serving process of a cluster draws its own sessions' pages in a drawing process of its
own, and all of them draw on the machine's cores: with a budget of their own each, two
processes would draw a school's pages twice as often as one does. So every ``POOL_EVERY_S``
each process tells the others on its machine its pages' demand (``RenderBudget.demand``) and
reads theirs, in one round trip: a hash per machine, a field per process, each stamped with
the wall time it was told (processes on one machine share that clock). A process not heard
from for ``GONE_AFTER_S`` is gone, and its field is removed.

One process (no Redis): nothing to pool; its budget is the machine's.
"""

from __future__ import annotations

import asyncio
import functools
import socket
import time
import weakref
from typing import TYPE_CHECKING, cast

from django.conf import settings
from redis.asyncio import Redis

from classroom import processes
from classroom.pages.render_budget import WINDOW_S, RenderBudget, teacher_render_budget
from classroom.server.outages import outage_warning
from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping

POOL_EVERY_S = WINDOW_S
GONE_AFTER_S = 3 * POOL_EVERY_S
# The hash outlives every process of the machine by this much, then goes by itself.
KEY_TTL_S = 60

_pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def machine_key(*, prefix: str, host: str) -> str:
    return f"{prefix}:render-demand:{host}"


def others_demand(told: Mapping[bytes, bytes], *, me: str, now: float) -> tuple[float, list[str]]:
    """The other processes' demand summed, and the fields of those gone (or unreadable)."""
    total = 0.0
    gone = []
    for field_bytes, value in told.items():
        field = field_bytes.decode()
        if field == me:
            continue
        try:
            demand_text, at_text = value.decode().split()
            demand, at = float(demand_text), float(at_text)
        except ValueError:
            gone.append(field)
            continue
        if now - at > GONE_AFTER_S:
            gone.append(field)
        else:
            total += demand
    return total, gone


async def render_pool_once(
    redis: Redis, budget: RenderBudget, *, key: str, me: str, now: float
) -> None:
    """Tell the machine this process's demand and take the others' into ``budget``."""
    async with redis.pipeline(transaction=False) as pipe:
        pipe.hset(key, me, f"{budget.demand:.6f} {now:.3f}")
        pipe.hgetall(key)
        pipe.expire(key, KEY_TTL_S)
        _, told, _ = await pipe.execute()
    budget.others, gone = others_demand(told, me=me, now=now)
    if gone:
        # redis-py types its commands for the sync and async clients at once.
        await cast("Awaitable[int]", redis.hdel(key, *gone))


async def render_pool(
    *,
    redis: Redis,
    budget: RenderBudget,
    key: str,
    me: str,
    clock: Callable[[], float] = time.time,
) -> None:
    """Pool the budget every ``POOL_EVERY_S`` for ever; while Redis is away the process
    counts on its own demand alone (the others' last word would go stale)."""
    while True:
        try:
            await render_pool_once(redis, budget, key=key, me=me, now=clock())
        except Exception as error:
            budget.others = 0.0
            outage_warning("could not pool the teachers' drawing budget", error)
        await asyncio.sleep(POOL_EVERY_S)


def render_pool_ensure() -> None:
    """In a cluster, pool this process's budget with its machine's (one task per loop)."""
    if not settings.REDIS_URL:
        return
    loop = asyncio.get_running_loop()
    task = _pools.get(loop)
    if task is None or task.done():
        pooling = functools.partial(
            render_pool,
            redis=Redis.from_url(settings.REDIS_URL),
            budget=teacher_render_budget,
            key=machine_key(prefix=settings.LEASE_PREFIX, host=socket.gethostname()),
            me=processes.PROCESS_ID,
        )
        _pools[loop] = loop.create_task(
            supervised("teachers' drawing budget pool", pooling), name="render-pool"
        )
