"""Benchmark: what renewing a cluster's table leases costs the renewing process, per renewal.

    .venv/bin/python tests/load/bench_lease_renewals.py [--tables 240] [--rounds 20] [--repeats 3]

A cluster process renews the lease of every table it hosts twice a second
(games.live.leases.RENEW_EVERY_MS), each with its own EVAL round trip to Redis: at 240 tables,
480 a second; py-spy put redis-py's ``execute_command`` (these and the channel layer's) at about
a fifth of a busy cluster loop's samples (docs/benchmarks.md, *Capacity*). This times, against the
Redis at ``REDIS_URL`` (default 127.0.0.1:6379, database 13; it writes ``--tables`` keys under a
prefix of its own and deletes them), the same renewal script three ways: one EVAL per lease as
the keeper sends it, one EVALSHA per lease, and every lease of a round in one pipelined round
trip. It prints JSON: wall time and this process's CPU time per renewal, for each way and each
of ``--repeats`` runs, taken in turns so that all see the same machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import time
import uuid
from typing import TYPE_CHECKING, Any

from redis.asyncio import Redis

from games.live.leases import _RENEW, LEASE_TTL_MS

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


async def _one_by_one(redis: Redis, keys: list[str], value: str) -> None:
    for key in keys:
        kept = await redis.eval(_RENEW, 1, key, value, LEASE_TTL_MS)  # type: ignore[misc]
        assert kept, key


async def _by_sha(redis: Redis, sha: str, keys: list[str], value: str) -> None:
    for key in keys:
        kept = await redis.evalsha(sha, 1, key, value, LEASE_TTL_MS)  # type: ignore[misc]
        assert kept, key


async def _pipelined(redis: Redis, sha: str, keys: list[str], value: str) -> None:
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.evalsha(sha, 1, key, value, LEASE_TTL_MS)
        kept = await pipe.execute()
    assert len(kept) == len(keys), kept[:3]
    assert all(kept), kept[:3]


async def _timed(rounds: int, tables: int, run: Callable[[], Awaitable[None]]) -> dict[str, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        await run()
    renewals = rounds * tables
    return {
        "wall_us_per_renewal": round(1e6 * (time.perf_counter() - wall) / renewals, 2),
        "cpu_us_per_renewal": round(1e6 * (time.process_time() - cpu) / renewals, 2),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    redis = Redis.from_url(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/13"))
    prefix = f"bench-leases-{uuid.uuid4().hex[:8]}"
    keys = [f"{prefix}:table:{n}:lease" for n in range(args.tables)]
    value = "1|bench-process"
    try:
        sha = await redis.script_load(_RENEW)
        ways: dict[str, Callable[[], Awaitable[None]]] = {
            "eval_each": lambda: _one_by_one(redis, keys, value),
            "evalsha_each": lambda: _by_sha(redis, sha, keys, value),
            "pipelined": lambda: _pipelined(redis, sha, keys, value),
        }
        runs: dict[str, list[dict[str, float]]] = {name: [] for name in ways}
        for _ in range(args.repeats):
            for name, way in ways.items():
                # Each lease was given a minute; a renewal shortens it to the TTL, so set it
                # back before each way runs.
                for key in keys:
                    await redis.set(key, value, px=60_000)
                runs[name].append(await _timed(args.rounds, args.tables, way))
    finally:
        await redis.delete(*keys)
        await redis.aclose()
    return {"tables": args.tables, "rounds": args.rounds, "runs": runs}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=240)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=3)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=1))
