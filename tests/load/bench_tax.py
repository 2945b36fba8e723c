"""Benchmark: the cluster tax, what a student costs in CPU on two processes against one.

    python tests/load/bench_tax.py [--students 600] [--turns 2] [--window 20] [--layout L]

The same classes as ``bench_capacity.py`` (classes of 30 simulated students on auto-flip Palm
Strike at tables of four, each class's console and projector open, every socket keeping the
page's heartbeat) at the same load, on one process (the default install: SQLite, the in-memory
channel layer) and on two behind HAProxy (PostgreSQL, Redis, sessions kept on one process by
their join code), in turns (one, two, one, two …), so the machine's drift falls on both alike.

Each turn connects the load afresh, lets it settle, and measures two windows. Its cost is the
CPU-seconds of the site's processes (each one's event loop, its other threads, its
page-drawing child) and, on two, of Redis, over the student-flips delivered meanwhile (the
flips that reached their table's last tablet, times the students at a table): CPU-seconds per 1,000
student-flips, split by where it was spent, and the ratio of two processes' to one's, per pair
of turns and over all of them. HAProxy's and PostgreSQL's own CPU are not counted (nor, on one
process, SQLite's, which is inside the process's threads).

With ``--profile``, py-spy (a dev dependency) samples every serving process and its
page-drawing child from outside
through both windows of each turn, and the turn reports its samples' shares by cause (Redis,
the database, log writing, page drawing, socket dispatch, tablet sockets, tables:
``tests/load/stack_profile.py``); the CPU it costs falls outside the processes measured.

``--layout one_process`` (or ``two_processes``) measures that layout alone, each turn afresh:
run from worktrees of two commits in turns, it compares what a student costs each.

Progress goes to stderr; one JSON object to stdout. Exits 1 when a turn lost a flip or had a
silent tablet (``bench_capacity``'s failures), since a cheap turn that dropped work is no
figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
PY_SPY = Path(sys.executable).parent / "py-spy"
ONE = "one_process"
TWO = "two_processes"
PARTS = ("loop", "other_threads", "drawing", "redis")


def _options(args: argparse.Namespace) -> argparse.Namespace:
    """What ``bench_capacity``'s site builders and load read, for a plain measured load."""
    return argparse.Namespace(
        max_students=args.students,
        flip_every=args.flip_every,
        slap=args.slap,
        clients=args.clients,
        window=args.window,
        settle=args.settle,
        heartbeat=True,
        teacher_pages=True,
        timings=False,
        profile_at=0,
        switch_interval=0.0,
        gc_young=0,
        points_target=100,
    )


async def _turn(mode: str, args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    from tests.cluster.processes import drop_database
    from tests.load import bench_capacity as capacity
    from tests.load.stack_profile import causes_counted, causes_shares
    from tests.services import POSTGRES_URL

    options = _options(args)
    if mode == ONE:
        server, classes = capacity._embedded(workdir, options)
    else:
        server, classes = capacity._cluster(
            workdir, options, args.students // capacity.CLASS_SIZE, affinity=True
        )
    samplers: list[subprocess.Popen[bytes]] = []

    def sample() -> None:
        # Through both windows, from outside the processes measured, their drawing ones too.
        for server_pid in server.pids():
            for pid in [server_pid, *capacity.child_pids(server_pid)]:
                samplers.append(_sampler(pid, seconds=2 * args.window, out=workdir / f"{pid}.txt"))

    try:
        load, windows = await capacity.fixed_windows(
            server, classes, options, measuring=sample if args.profile else None
        )
    finally:
        for sampler in samplers:
            sampler.wait(timeout=args.window)
        server.site.stop_all()
        if server.site.postgres_db:
            drop_database(POSTGRES_URL, server.site.postgres_db)
    cost = _cost(
        windows, students_per_table=load.students / load.tables, tables=load.tables, args=args
    )
    if args.profile:
        counted: Counter[str] = Counter()
        for path in workdir.glob("*.txt"):
            counted += causes_counted(path.read_text().splitlines())
        cost["profile_pct_of_busy_samples"] = causes_shares(counted)
    return cost


def _sampler(pid: int, *, seconds: float, out: Path) -> subprocess.Popen[bytes]:
    """py-spy sampling ``pid`` for ``seconds`` without pausing it (collapsed stacks)."""
    command = [str(PY_SPY), "record", "--pid", str(pid), "--duration", str(round(seconds))]
    command += ["--rate", "250", "--nonblocking", "--format", "raw", "--output", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _cost(
    windows: list[Any], *, students_per_table: float, tables: int, args: argparse.Namespace
) -> dict[str, Any]:
    spent = dict.fromkeys(PARTS, 0.0)
    flips = 0
    for window in windows:
        for loop, other, drawing in window.server_cpu:
            spent["loop"] += loop
            spent["other_threads"] += other
            spent["drawing"] += drawing
        spent["redis"] += window.redis_cpu_s or 0.0
        flips += len(window.latencies)
    student_flips = flips * students_per_table
    per_thousand = {part: 1000 * seconds / student_flips for part, seconds in spent.items()}
    last = windows[-1].summary(tables, args.flip_every)
    return {
        "cpu_s_per_1000_student_flips": round(sum(per_thousand.values()), 3),
        "by_part": {part: round(value, 3) for part, value in per_thousand.items()},
        "student_flips": round(student_flips),
        "seconds": round(sum(window.seconds for window in windows), 1),
        "students": last["students"],
        "connected": last["connected"],
        "flip_to_last_tablet_ms": last["flip_to_last_tablet_ms"],
        "lost_flips": sum(window.lost for window in windows),
        "silent_tablets": last["silent_tablets"],
    }


async def main(args: argparse.Namespace) -> None:
    from tests.load import bench_capacity as capacity

    if args.layout != ONE and (missing := capacity._services_up()):
        sys.exit(f"Two processes need PostgreSQL and Redis: {missing}")
    if args.profile and not PY_SPY.exists():
        sys.exit(f"--profile needs py-spy at {PY_SPY}: make setup installs it")
    layouts = (ONE, TWO) if args.layout is None else (args.layout,)
    turns: list[dict[str, Any]] = []
    for turn in range(args.turns):
        pair: dict[str, Any] = {}
        for mode in layouts:
            capacity._log(f"turn {turn + 1}: {args.students} students on {mode.replace('_', ' ')}")
            with tempfile.TemporaryDirectory(prefix=f"snapclass-tax-{mode}-") as tmp:
                pair[mode] = await _turn(mode, args, Path(tmp))
            capacity._log(f"  {pair[mode]['cpu_s_per_1000_student_flips']} CPU-s per 1,000")
        if len(layouts) == 2:
            pair["ratio"] = _ratio(
                pair[TWO]["cpu_s_per_1000_student_flips"],
                pair[ONE]["cpu_s_per_1000_student_flips"],
            )
        turns.append(pair)
    overall = {
        mode: sum(t[mode]["cpu_s_per_1000_student_flips"] for t in turns) / len(turns)
        for mode in layouts
    }
    result = {
        "students": args.students,
        "flip_every_s": args.flip_every,
        "window_s": args.window,
        "turns": turns,
        "ratio": _ratio(overall[TWO], overall[ONE]) if len(layouts) == 2 else None,
        "failures": [
            f"turn {n + 1}, {mode}: {t[mode]['lost_flips']} lost flips, "
            f"{t[mode]['silent_tablets']} silent tablets"
            for n, t in enumerate(turns)
            for mode in layouts
            if t[mode]["lost_flips"] or t[mode]["silent_tablets"]
        ],
    }
    print(json.dumps(result))
    if result["failures"]:
        sys.exit(1)


def _ratio(two: float, one: float) -> float:
    return round(two / one, 2)


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=600)
    parser.add_argument("--turns", type=int, default=2, help="pairs of one and two processes")
    parser.add_argument("--window", type=float, default=20.0, help="seconds per window (two)")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after connecting")
    parser.add_argument("--flip-every", type=float, default=2.5)
    parser.add_argument("--slap", type=float, default=0.3, help="chance a student slaps a flip")
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument(
        "--profile", action="store_true", help="sample the serving processes with py-spy"
    )
    parser.add_argument(
        "--layout",
        choices=(ONE, TWO),
        default=None,
        help="measure this layout alone (no ratio): one process's cost, commit against commit",
    )
    return parser.parse_args()


if __name__ == "__main__":
    # Run as a script: make the project (and its tests package) importable.
    sys.path.insert(0, str(ROOT))
    asyncio.run(main(_arguments()))
