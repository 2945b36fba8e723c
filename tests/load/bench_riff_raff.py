"""Benchmark: Riff Raff tables simulating and streaming at once in one process.

    python tests/load/bench_riff_raff.py [--tables 10] [--seconds 30]

Runs ``--tables`` real table hosts (the same TableHost the site uses, with an in-memory log
store) of four quick bots each, in one asyncio loop, each with four listening "tablets" that
receive and decode every frame. The engine steps the pymunk ship on its fixed 16 ms grid
while anything moves and the host streams motion frames (about 20 a second). Reports:

- how late the hosts' timers ran against their deadlines (p50/p95/p99/max): lag that grows
  means the process cannot keep up in real time;
- CPU per table (process CPU time / tables / wall time);
- frame-to-listener latency inside the process (p50/p95/p99).

Prints one JSON line. Not a test: figures for the README. Loopback sockets are not involved
(see bench_tables.py and bench_commotion.py for over-the-wire latency).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.live import host as host_module  # noqa: E402
from games.live.host import TableHost, TableSetup, wall_ms  # noqa: E402
from games.riff_raff import game  # noqa: E402
from games.riff_raff.bots import BOT_LEVELS  # noqa: E402
from games.riff_raff.config import Config  # noqa: E402
from tests.load.bench_tables import _now_ms, _percentiles  # noqa: E402

SEATS = 4


class NullStore:
    async def append(self, entry: Any, trials: Any) -> None:
        return None


class Listener:
    def __init__(self, seat: int, latencies: list[float]) -> None:
        self.seat: int | None = seat
        self.latencies = latencies

    async def deliver(self, frame: str) -> None:
        decoded = json.loads(frame)
        if decoded.get("type") in ("motion", "state") and decoded.get("at_ms"):
            self.latencies.append(_now_ms() - float(decoded["at_ms"]))


def _measure_lag(lags: list[float]) -> None:
    """Record how late each host timer fires (wrapping the host's tick)."""
    original = TableHost._tick

    async def timed(self: TableHost) -> None:
        deadline = self.engine.next_deadline(self.state)
        if deadline is not None:
            lags.append(max(0.0, self.clock.now() - deadline))
        await original(self)

    TableHost._tick = timed  # type: ignore[method-assign]


async def run(tables: int, seconds: float) -> dict[str, Any]:
    lags: list[float] = []
    latencies: list[float] = []
    _measure_lag(lags)
    hosts = []
    for number in range(tables):
        setup = TableSetup(
            table_id=number,
            config=Config(wave_strength=0.6, pieces_per_player=8, bot_skill="quick"),
            seats=tuple(range(SEATS)),
            seed=number,
            bots=dict.fromkeys(range(SEATS), BOT_LEVELS["quick"]),
        )
        host = TableHost(setup=setup, engine=game, store=NullStore())
        for seat in range(SEATS):
            await host.join(Listener(seat, latencies))
        hosts.append(host)
    cpu_began, wall_began = time.process_time(), time.perf_counter()
    for host in hosts:
        host.start()
    await asyncio.sleep(seconds)
    cpu, wall = time.process_time() - cpu_began, time.perf_counter() - wall_began
    for host in hosts:
        await host.stop()
    return {
        "tables": tables,
        "seats": SEATS,
        "seconds": round(wall, 1),
        "motion_frame_ms": host_module.MOTION_FRAME_MS,
        "cpu_per_table_percent": round(100 * cpu / wall / tables, 1),
        "timer_lag_ms": _percentiles(lags) | {"max": round(max(lags, default=0.0), 1)},
        "frame_to_listener_ms": _percentiles(latencies),
        "started_at_ms": wall_ms(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.tables, args.seconds))))


if __name__ == "__main__":
    main()
