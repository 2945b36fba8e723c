"""Benchmark: live flips while a class workbook is built in the background.

    python tests/load/bench_exports.py [--students 48] [--builds 4] [--no-writers]

Seeds a throwaway SQLite database with a demo class of 30 students x 20 sessions x 200
trials (120,000 trials) and a started auto-flip Palm Strike session of simulated tablets,
starts Daphne and the task worker (``manage.py tasks_worker``, as ``make run`` does), and
measures flip-to-last-tablet latency (as ``make bench``) in blocks that alternate: ``--idle-s``
with the site idle, then while the worker builds the class's workbook (asked for as the
teacher's "Prepare" button does, ``export_prepare``), ``--builds`` times. The target: p99
while building at most 1.5x the idle p99. Then times the xlsx writers on the same 120,000 rows
(``bench_xlsx_writers.py``). Prints one JSON line. Loopback only; bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS  # noqa: E402
from tests.load.bench_tables import (  # noqa: E402
    Arrivals,
    _free_port,
    _now_ms,
    _percentiles,
    _stop,
    _wait_for_port,
    bench_env,
    tablets_start,
)

TARGET_RATIO = 1.5

PREPARE = """
import json, os, django
django.setup()
from django.contrib.auth.models import User
from classroom.models import Trial
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
from tests.seeding.palm_strike import demo_class_seed as seed

teacher = User.objects.create_user(username="bench-teacher", password="bench-password-123")
school_class = seed(teacher=teacher, students=30, sessions=20, trials_per_session=200, seed=7)
session = session_create(
    teacher=teacher, game="palm_strike", school_class=None, players_per_table=%(table)d,
    settings={"flip_pacing": "auto", "auto_flip_s": %(every)s, "response_window_s": 1.5,
              "points_target": 100},
)
seats = [seat_join_guest(session=session, nickname=f"S{n:03d}") for n in range(%(students)d)]
session_start(session=session)
for seat in seats:
    seat.refresh_from_db()
print(json.dumps({"teacher": teacher.pk, "class": school_class.pk, "code": session.code,
                  "trials": Trial.objects.count(),
                  "seats": [{"token": s.token, "table": s.table_id} for s in seats]}))
"""

ENQUEUE = """
import django
django.setup()
from django.contrib.auth.models import User
from classroom.models import SchoolClass
from classroom.services.exports import export_prepare
teacher = User.objects.get(pk=%(teacher)d)
export = export_prepare(owner=teacher, kind="workbook.xlsx",
                        school_class=SchoolClass.objects.get(pk=%(class)d))
print(export.pk)
"""


def _status(database: Path, export_id: int) -> str:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5) as db:
        row = db.execute(
            "SELECT status FROM classroom_export WHERE id = ?", (export_id,)
        ).fetchone()
    return str(row[0]) if row else "missing"


async def _build(env: dict[str, str], database: Path, prepared: dict[str, Any]) -> dict[str, Any]:
    """One workbook build: asked for, then watched until it is ready (or failed)."""
    enqueue = ENQUEUE % {"teacher": prepared["teacher"], "class": prepared["class"]}
    asked = subprocess.run(
        [sys.executable, "-c", enqueue],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    export_id = int(asked.stdout.strip().splitlines()[-1])
    started = finished = None
    deadline = time.monotonic() + 300
    status = "queued"
    while time.monotonic() < deadline:
        status = await asyncio.to_thread(_status, database, export_id)
        if status == "running" and started is None:
            started = _now_ms()
        if status in {"ready", "failed"}:
            finished = _now_ms()
            break
        await asyncio.sleep(0.1)
    if started is None or finished is None or status != "ready":
        raise RuntimeError(f"export {export_id} ended {status}")
    return {"started_ms": started, "finished_ms": finished}


def _latencies_in(
    arrivals: Arrivals, sizes: dict[str, int], windows: list[tuple[float, float]]
) -> list[float]:
    result = []
    for key, times in arrivals.received.items():
        began = arrivals.began[key]
        if len(times) != sizes.get(key[0]) or key[1] <= 1:
            continue
        if any(start <= began <= end for start, end in windows):
            result.append(max(times) - began)
    return result


async def _bench(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    database = workdir / "bench.sqlite3"
    env = bench_env(database, PYTHONPATH=str(ROOT), EXPORTS_ROOT=str(workdir / "exports"))
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    seeding = time.perf_counter()
    prepare = PREPARE % {
        "table": args.table_size,
        "every": args.flip_every,
        "students": args.students,
    }
    seeded = subprocess.run(
        [sys.executable, "-c", prepare], cwd=ROOT, env=env, capture_output=True, text=True
    )
    if seeded.returncode:
        raise RuntimeError(f"seeding failed:\n{seeded.stderr[-3000:]}")
    prepared = json.loads(seeded.stdout.strip().splitlines()[-1])
    seeded_s = time.perf_counter() - seeding
    port = _free_port()
    log = (workdir / "server.log").open("wb")
    server = subprocess.Popen(
        [sys.executable, "-m", "classroom.server.serve", "-b", "127.0.0.1", "-p", str(port),
         *DAPHNE_TIMEOUT_ARGS, "classroom.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "manage.py", "tasks_worker", "-v", "0", "--interval", "0.2"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log,
    )  # fmt: skip
    try:
        await _wait_for_port(port)
        arrivals = Arrivals()
        stop = asyncio.Event()
        tasks, sizes = tablets_start(port=port, setup=prepared, arrivals=arrivals, stop=stop)
        await asyncio.sleep(3.0)  # every table has flipped once
        # Idle and building blocks alternate, so both see the same load from the rest of the
        # machine (which is shared and drifts).
        idle: list[tuple[float, float]] = []
        builds = []
        for _ in range(args.builds):
            idle_start = _now_ms()
            await asyncio.sleep(args.idle_s)
            idle.append((idle_start, _now_ms()))
            builds.append(await _build(env, database, prepared))
        await asyncio.sleep(1.5)  # the last flips of the last build reach their tablets
        stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [result for result in results if isinstance(result, Exception)]
        if failures:
            raise RuntimeError(f"{len(failures)} tablets failed: {failures[0]!r}")
        quiet = _percentiles(_latencies_in(arrivals, sizes, idle))
        windows = [(b["started_ms"], b["finished_ms"]) for b in builds]
        building = _percentiles(_latencies_in(arrivals, sizes, windows))
        build_s = [round((b["finished_ms"] - b["started_ms"]) / 1000, 2) for b in builds]
        ratio = round(building["p99"] / quiet["p99"], 2) if quiet["p99"] else None
        return {
            "students": args.students,
            "table_size": args.table_size,
            "flip_every_s": args.flip_every,
            "trials": prepared["trials"],
            "seeded_s": round(seeded_s, 1),
            "idle_ms": quiet,
            "while_building_ms": building,
            "p99_ratio": ratio,
            "target_ratio": TARGET_RATIO,
            "met": ratio is not None and ratio <= TARGET_RATIO,
            "workbook_build_s": build_s,
        }
    finally:
        _stop(worker)
        _stop(server)
        log.close()


def _writers(rows: int) -> list[dict[str, Any]]:
    script = ROOT / "tests" / "load" / "bench_xlsx_writers.py"
    found = subprocess.run(
        [sys.executable, str(script), "--rows", str(rows)],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return [json.loads(line) for line in found.stdout.splitlines() if line.startswith("{")]


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=48)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--flip-every", type=float, default=2.0)
    parser.add_argument("--idle-s", type=float, default=15.0)
    parser.add_argument("--builds", type=int, default=4)
    parser.add_argument("--no-writers", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="snapclass-bench-") as workdir:
        report = await _bench(args, Path(workdir))
    if not args.no_writers:
        report["xlsx_writers_120000_rows"] = _writers(120_000)
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
