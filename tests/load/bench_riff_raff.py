"""Benchmark: Riff Raff tables simulating and streaming at once in one process.

    python tests/load/bench_riff_raff.py [--tables 10] [--seconds 30]

1. In process: runs ``--tables`` real table hosts (the same TableHost the site uses, with an
in-memory log store) of four quick bots each, in one asyncio loop, each with four listening
"tablets" that receive and decode every frame. The engine steps the pymunk ship on its fixed
16 ms grid while anything moves and the host streams motion frames (about 20 a second).
Reports:

- how late the hosts' timers ran against their deadlines (p50/p95/p99/max): lag that grows
  means the process cannot keep up in real time;
- CPU per table (process CPU time / tables / wall time);
- frame-to-listener latency inside the process (p50/p95/p99).

2. Over the wire: Daphne on a fresh SQLite database with ``--tables`` sessions, each one
   table of a scripted student (a real WebSocket that picks its lowest card, declares one
   piece and drops it in the middle of the area) and three quick bots. Reports the Daphne
   process's CPU per table and, for every motion and state frame, the time from the server
   beginning it (``at_ms``, the machine's monotonic clock) to the tablet receiving it.

Prints one JSON line. Not a test: figures for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games.live import host as host_module  # noqa: E402
from games.live.host import TableHost, TableSetup, wall_ms  # noqa: E402
from games.riff_raff import rules as game  # noqa: E402
from games.riff_raff.bots import BOT_LEVELS  # noqa: E402
from games.riff_raff.config import Config  # noqa: E402
from tests.load.bench_server import bench_server  # noqa: E402
from tests.load.bench_tables import (  # noqa: E402
    _now_ms,
    _percentiles,
)

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
    session = session_create(teacher=teacher, game="riff_raff", school_class=None,
        players_per_table={seats}, settings={{"wave_strength": 0.6, "bot_skill": "quick"}})
    seat = seat_join_guest(session=session, nickname="Sailor")
    session_start(session=session)
    out.append({{"code": session.code, "token": seat.token}})
print(json.dumps(out))
"""


def _student_move(view: dict[str, Any]) -> dict[str, Any] | None:
    """What the scripted student does on this view (None: nothing to do)."""
    me, phase = view["you"], view["phase"]
    if phase == "choosing" and not view["chosen"][str(me)] and view["cards_left"]:
        return {"kind": "choose_card", "card": min(view["cards_left"])}
    if phase == "captain_tie" and view["tie_chooser"] == me:
        return {"kind": "pick_captain", "seat": view["tied"][0]}
    if phase == "order_tie" and view["captain"] == me:
        return {"kind": "order", "seats": [view["tied"][0]]}
    if phase == "declaring" and view["active"] == me:
        return {"kind": "declare", "pieces": 1}
    if phase == "placing" and view["active"] == me and view["drop_zone"]:
        supply = next(p for p in view["players"] if p["seat"] == me)["supply"]
        zone = view["drop_zone"]
        x = round((zone["x_min"] + zone["x_max"]) / 2, 1)
        return {"kind": "drop", "piece": supply[0]["id"], "x": x, "angle": 0}
    return None


async def _student(
    url: str, cookie: str, origin: str, latencies: list[float], stop: asyncio.Event
) -> None:
    async with connect(url, additional_headers={"Cookie": cookie}, origin=origin) as ws:  # type: ignore[arg-type]
        seq = 0
        joined = False
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame.get("type") not in ("state", "motion"):
                continue
            if joined:  # the first frame is the join, not a change
                latencies.append(_now_ms() - float(frame["at_ms"]))
            joined = True
            move = _student_move(frame["view"]) if frame["type"] == "state" else None
            if move is not None:
                seq += 1
                await ws.send(json.dumps({"type": "act", "seq": seq, "action": move}))


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def over_the_wire(tables: int, seconds: float) -> dict[str, Any]:
    async with bench_server(PREPARE.format(tables=tables, seats=SEATS)) as server:
        latencies: list[float] = []
        stop = asyncio.Event()
        cpu_began, wall_began = _cpu_seconds(server.process.pid), time.perf_counter()
        tasks = [
            asyncio.create_task(
                _student(
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
        cpu = _cpu_seconds(server.process.pid) - cpu_began
        wall = time.perf_counter() - wall_began
        stop.set()
        await asyncio.gather(*tasks)
    return {
        "tables": tables,
        "seats": SEATS,
        "seconds": round(wall, 1),
        "server_cpu_per_table_percent": round(100 * cpu / wall / tables, 1),
        "frames": len(latencies),
        "frame_to_tablet_ms": _percentiles(latencies),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    in_process = asyncio.run(run(args.tables, args.seconds))
    wire = asyncio.run(over_the_wire(args.tables, args.seconds))
    print(json.dumps({"in_process": in_process, "over_the_wire": wire}))


if __name__ == "__main__":
    main()
