"""Benchmark: flip-to-last-tablet latency of live Palm Strike tables, against a yardstick.

    python tests/load/bench_tables.py [--students 40] [--table-size 4] [--flips 25]

Starts Daphne on a fresh SQLite database, seats N simulated students in auto-flip tables,
connects them over real WebSockets (some of them slap), and measures for every flip the time
from the server beginning that flip to the last tablet of the table receiving it. Then runs a
minimal raw `websockets` server doing the same fan-out on the same machine and measures it the
same way. Prints one JSON line with both sets of percentiles and their ratio.

Both servers stamp frames with the machine's monotonic clock, which every process shares.
Loopback only; bounded in time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection, connect

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def _now_ms() -> float:
    return time.monotonic_ns() / 1_000_000


def _percentiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        return {"p50": values[0] if values else 0.0, "p95": 0.0, "p99": 0.0, "n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {
        "p50": round(cuts[49], 2),
        "p95": round(cuts[94], 2),
        "p99": round(cuts[98], 2),
        "n": len(values),
    }


async def _wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        await asyncio.sleep(0.2)
    raise RuntimeError(f"nothing listens on {port}")


class Arrivals:
    """When each client first saw each flip, and when the server began it."""

    def __init__(self) -> None:
        self.began: dict[tuple[str, int], float] = {}
        self.received: dict[tuple[str, int], list[float]] = defaultdict(list)

    def record(self, group: str, flip: int, at_ms: float) -> None:
        key = (group, flip)
        self.began.setdefault(key, at_ms)
        self.received[key].append(_now_ms())

    def latencies(self, group_sizes: dict[str, int]) -> list[float]:
        result = []
        for key, arrivals in self.received.items():
            if len(arrivals) == group_sizes.get(key[0]) and key[1] > 1:
                result.append(max(arrivals) - self.began[key])
        return result


async def _frames(ws: ClientConnection, stop: asyncio.Event) -> AsyncIterator[dict[str, Any]]:
    """Decoded frames until ``stop`` is set (checking it at least twice a second)."""
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
        except TimeoutError:
            continue
        yield json.loads(raw)


async def _tablet(
    url: str, cookie: str, origin: str, table: str, arrivals: Arrivals, stop: asyncio.Event
) -> None:
    headers = {"Cookie": cookie}
    async with connect(url, additional_headers=headers, origin=origin) as ws:  # type: ignore[arg-type]
        seen_flip = 0
        seq = 0
        rng = random.Random(cookie)
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            if frame.get("type") != "state":
                continue
            flip = int(frame["view"].get("flip") or 0)
            if flip > seen_flip:
                seen_flip = flip
                arrivals.record(table, flip, float(frame["at_ms"]))
                if frame["view"].get("phase") == "open" and rng.random() < 0.3:
                    seq += 1
                    slap = {"kind": "slap", "flip": flip, "rt_ms": rng.randint(350, 900)}
                    await ws.send(json.dumps({"type": "act", "seq": seq, "action": slap}))


def tablets_start(
    *, port: int, setup: dict[str, Any], arrivals: Arrivals, stop: asyncio.Event
) -> tuple[list[asyncio.Task[None]], dict[str, int]]:
    """A simulated tablet on each seat of ``setup`` (as bench_prepare.py prints it), and how
    many tablets each table has."""
    code = setup["code"]
    url = f"ws://127.0.0.1:{port}/ws/play/{code}/table/"
    sizes: dict[str, int] = defaultdict(int)
    tasks = []
    for seat in setup["seats"]:
        table = str(seat["table"])
        sizes[table] += 1
        cookie = f"seat_{code}={seat['token']}"
        tasks.append(
            asyncio.create_task(
                _tablet(url, cookie, f"http://127.0.0.1:{port}", table, arrivals, stop)
            )
        )
    return tasks, dict(sizes)


async def _bench_snapclass(args: argparse.Namespace, workdir: Path) -> list[float]:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
        "SECRET_KEY": "bench-" + "k" * 60,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "classroom.settings",
        "LOG_LEVEL": "ERROR",
        # Every simulated tablet connects from 127.0.0.1: no per-address socket cap here.
        "SOCKETS_PER_ADDRESS": "1000000",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True
    )
    prepared = subprocess.run(
        [
            sys.executable,
            str(ROOT / "tests" / "load" / "bench_prepare.py"),
            str(args.students),
            str(args.table_size),
            str(args.flip_every),
        ],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        check=True,
        capture_output=True,
        text=True,
    )
    setup = json.loads(prepared.stdout.strip().splitlines()[-1])
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
         "classroom.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await _wait_for_port(port)
        arrivals = Arrivals()
        stop = asyncio.Event()
        tasks, sizes = tablets_start(port=port, setup=setup, arrivals=arrivals, stop=stop)
        await _run_for(args, stop, tasks)
        return arrivals.latencies(dict(sizes))
    finally:
        _stop(server)


async def _raw_tablet(url: str, group: str, arrivals: Arrivals, stop: asyncio.Event) -> None:
    async with connect(url) as ws:
        async for frame in _frames(ws, stop):
            arrivals.record(group, int(frame["flip"]), float(frame["at_ms"]))


async def _bench_raw(args: argparse.Namespace) -> list[float]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "load" / "raw_broadcast.py"), str(port),
         str(args.flip_every)],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await _wait_for_port(port)
        arrivals = Arrivals()
        stop = asyncio.Event()
        sizes: dict[str, int] = defaultdict(int)
        tasks = []
        for index in range(args.students):
            group = f"/t{index // args.table_size}"
            sizes[group] += 1
            url = f"ws://127.0.0.1:{port}{group}"
            tasks.append(asyncio.create_task(_raw_tablet(url, group, arrivals, stop)))
        await _run_for(args, stop, tasks)
        return arrivals.latencies(dict(sizes))
    finally:
        _stop(server)


async def _run_for(args: argparse.Namespace, stop: asyncio.Event, tasks: list[Any]) -> None:
    # The first auto flip comes 1.5 s after a table's host starts; then one per interval.
    await asyncio.sleep(2.0 + args.flips * args.flip_every)
    stop.set()
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failures = [result for result in results if isinstance(result, Exception)]
    if failures:
        raise RuntimeError(f"{len(failures)} tablets failed: {failures[0]!r}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--flips", type=int, default=25)
    parser.add_argument("--flip-every", type=float, default=2.5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="snapclass-bench-") as workdir:
        snapclass = await _bench_snapclass(args, Path(workdir))
    raw = await _bench_raw(args)
    ours, theirs = _percentiles(snapclass), _percentiles(raw)
    print(
        json.dumps(
            {
                "students": args.students,
                "table_size": args.table_size,
                "flips": args.flips,
                "snapclass_ms": ours,
                "raw_websockets_ms": theirs,
                "p99_ratio": round(ours["p99"] / theirs["p99"], 2) if theirs["p99"] else None,
                "p50_ratio": round(ours["p50"] / theirs["p50"], 2) if theirs["p50"] else None,
            }
        )
    )


if __name__ == "__main__":
    asyncio.run(main())
