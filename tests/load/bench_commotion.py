"""Benchmark: Commotion's engine speed, and play-to-tablet latency with ten racing tables.

    python tests/load/bench_commotion.py [--tables 10] [--seconds 30] [--games 20]

1. Engine: all-bot tables of 6 at maximum speed (the fastest bot pace the engine allows),
   driven straight through ``tick`` at each ``next_deadline``; counts the inputs (bot moves
   and other state changes) the engine applies per second in this one process.
2. Live: Daphne on a fresh SQLite database with ``--tables`` sessions, each one table of a
   watching student and 5 quick bots; the student's tablet is a real WebSocket. For every
   frame it measures the time from the server beginning the change (``at_ms``, the machine's
   monotonic clock) to the tablet receiving it: p50/p95/p99.

Prints one JSON line. Not a test: figures for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.commotion import rules  # noqa: E402
from games.commotion.bots import MIN_MOVE_MS, BotSkill  # noqa: E402
from games.commotion.config import Config  # noqa: E402
from tests.load.bench_server import bench_server  # noqa: E402
from tests.load.bench_tables import (  # noqa: E402
    _now_ms,
    _percentiles,
)

SEATS = 6


def engine_throughput(games: int) -> dict[str, Any]:
    fastest = BotSkill(move_every_ms=MIN_MOVE_MS, error_rate=0.05)
    inputs = 0
    rounds = 0
    began = time.perf_counter()
    for seed in range(games):
        state = rules.setup(
            Config(target_score=60, bot_speed="quick"),
            range(SEATS),
            seed,
            dict.fromkeys(range(SEATS), fastest),
        )
        while state.phase != "game_over":
            deadline = rules.next_deadline(state)
            if deadline is None:
                break
            outcome = rules.tick(state, deadline)
            if outcome.state is not state:
                inputs += 1
            state = outcome.state
        rounds += state.round
    seconds = time.perf_counter() - began
    return {
        "games": games,
        "rounds": rounds,
        "inputs": inputs,
        "seconds": round(seconds, 2),
        "inputs_per_s": round(inputs / seconds),
    }


PREPARE = """
import json, os, django
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
django.setup()
from django.contrib.auth.models import User
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
teacher = User.objects.create_user(username="bench-teacher", password="bench-password-123")
out = []
for number in range({tables}):
    session = session_create(teacher=teacher, game="commotion", school_class=None,
        players_per_table={seats}, settings={{"target_score": 300, "bot_speed": "quick"}})
    seat = seat_join_guest(session=session, nickname="Watcher")
    session_start(session=session)
    out.append({{"code": session.code, "token": seat.token}})
print(json.dumps(out))
"""


async def _tablet(
    url: str, cookie: str, origin: str, latencies: list[float], stop: asyncio.Event
) -> None:
    async with connect(url, additional_headers={"Cookie": cookie}, origin=origin) as ws:  # type: ignore[arg-type]
        version = -1
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame.get("type") != "state" or frame["version"] <= version:
                continue
            if version >= 0:  # the first frame is the join, not a change
                latencies.append(_now_ms() - float(frame["at_ms"]))
            version = frame["version"]


async def live_latency(tables: int, seconds: float) -> dict[str, Any]:
    async with bench_server(PREPARE.format(tables=tables, seats=SEATS)) as server:
        latencies: list[float] = []
        stop = asyncio.Event()
        tasks = [
            asyncio.create_task(
                _tablet(
                    server.table_url(entry["code"]),
                    f"seat_{entry['code']}={entry['token']}",
                    server.origin,
                    latencies,
                    stop,
                )
            )
            for entry in server.prepared
        ]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks)
    return {"tables": tables, "seats_per_table": SEATS, "seconds": seconds,
            "frames": len(latencies), "latency_ms": _percentiles(latencies)}  # fmt: skip


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    engine = engine_throughput(args.games)
    live = await live_latency(args.tables, args.seconds)
    print(json.dumps({"engine": engine, "live": live}))


if __name__ == "__main__":
    asyncio.run(main())
