"""Benchmark: flip-to-last-tablet latency of live Palm Strike tables, against a yardstick.

    python tests/load/bench_tables.py [--students 80] [--table-size 4] [--flips 1000] [--runs 3]

Each run starts Daphne on a fresh SQLite database with a started auto-flip session, and a
minimal raw `websockets` server doing the same fan-out (raw_broadcast.py), side by side. The
same simulated tablets connect to both, over real WebSockets, and slap the same way (each
tablet slaps 30 % of the flips, by its own seeded draw). The two are measured in short
alternating blocks, so both see the same load of a shared machine: while one flips, the other
is paused (Snapclass through the teacher's Pause and Resume, the yardstick by its control
socket), until each side has ``--flips`` flips that reached every tablet of their table.

For every flip: fan-out, from the server beginning it to the last tablet of its table
receiving it, and the same plus how late the server's timer woke for it ("from due");
flips some tablet never received are counted as missed. Prints one JSON line: every run's
percentiles and their p99 ratios, and the median of the runs.

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
import urllib.request
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection, connect

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

ROOT = Path(__file__).resolve().parents[2]
SLAP_SHARE = 0.3
# Neither side's clock is read at a block's edges: a flip begun this long after a pause is
# asked for is still on its way to the tablets, and is counted.
SETTLE_S = 1.0


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
    """When each client first saw each flip, when the server began it and how late that was."""

    def __init__(self) -> None:
        self.began: dict[tuple[str, int], float] = {}
        self.late: dict[tuple[str, int], float] = {}
        self.received: dict[tuple[str, int], list[float]] = defaultdict(list)

    def record(self, group: str, flip: int, at_ms: float, late_ms: float = 0.0) -> None:
        key = (group, flip)
        self.began.setdefault(key, at_ms)
        self.late.setdefault(key, late_ms)
        self.received[key].append(_now_ms())

    def latencies(self, group_sizes: dict[str, int]) -> list[float]:
        result = []
        for key, arrivals in self.received.items():
            if len(arrivals) == group_sizes.get(key[0]) and key[1] > 1:
                result.append(max(arrivals) - self.began[key])
        return result


@dataclass
class Side:
    """One server's flips inside its own blocks."""

    fan_out: list[float] = field(default_factory=list)
    from_due: list[float] = field(default_factory=list)
    late: list[float] = field(default_factory=list)
    missed: int = 0  # tablet deliveries owed and never made
    outside_blocks: int = 0  # flips begun while the side was paused: must stay 0

    def summary(self) -> dict[str, Any]:
        return {
            "flips": len(self.fan_out),
            "fan_out_ms": _percentiles(self.fan_out),
            "from_due_ms": _percentiles(self.from_due),
            "timer_late_ms": _percentiles(self.late) | {"max": round(max(self.late, default=0), 1)},
            "missed": self.missed,
            "flips_outside_blocks": self.outside_blocks,
        }


def side_tally(
    arrivals: Arrivals, sizes: dict[str, int], windows: list[tuple[float, float]]
) -> Side:
    """The flips begun inside ``windows``; a flip number skipped inside a window (no tablet
    got it) is missed by the whole table."""
    side = Side()
    inside: dict[tuple[str, int], list[int]] = defaultdict(list)
    for key, began in arrivals.began.items():
        if not windows or began < windows[0][0]:
            continue  # before the measuring began (the session flipped as it was prepared)
        window = next((i for i, (a, b) in enumerate(windows) if a <= began <= b), None)
        if window is None:
            side.outside_blocks += 1
            continue
        inside[(key[0], window)].append(key[1])
        got = arrivals.received[key]
        side.missed += sizes[key[0]] - len(got)
        if len(got) == sizes[key[0]]:
            fan_out = max(got) - began
            side.fan_out.append(fan_out)
            side.late.append(arrivals.late[key])
            side.from_due.append(fan_out + arrivals.late[key])
    for (group, _window), flips in inside.items():
        side.missed += sizes[group] * (max(flips) - min(flips) + 1 - len(flips))
    return side


async def _frames(ws: ClientConnection, stop: asyncio.Event) -> AsyncIterator[dict[str, Any]]:
    """Decoded frames until ``stop`` is set (checking it at least twice a second)."""
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=0.5)
        except TimeoutError:
            continue
        yield json.loads(raw)


@dataclass
class Tablet:
    """A simulated tablet: where it connects, and its own seeded slapping."""

    url: str
    table: str
    seed: int
    headers: dict[str, str] = field(default_factory=dict)
    origin: str | None = None


async def _tablet(
    tablet: Tablet, arrivals: Arrivals, stop: asyncio.Event, connected: list[int]
) -> None:
    async with connect(
        tablet.url,
        additional_headers=tablet.headers,
        origin=tablet.origin,  # type: ignore[arg-type]
    ) as ws:
        connected.append(1)
        seen_flip = 0
        seq = 0
        rng = random.Random(tablet.seed)
        async for frame in _frames(ws, stop):
            if frame.get("type") != "state":
                continue
            flip = int(frame["view"].get("flip") or 0)
            if flip <= seen_flip:
                continue  # the same flip again (a slap was told to the table)
            seen_flip = flip
            arrivals.record(
                tablet.table, flip, float(frame["at_ms"]), float(frame.get("late_ms") or 0)
            )
            if frame["view"].get("phase") == "open" and rng.random() < SLAP_SHARE:
                seq += 1
                slap = {"kind": "slap", "flip": flip, "rt_ms": rng.randint(350, 900)}
                await ws.send(json.dumps({"type": "act", "seq": seq, "action": slap}))


def _fleet_start(
    tablets: list[Tablet], arrivals: Arrivals, stop: asyncio.Event, connected: list[int]
) -> tuple[list[asyncio.Task[None]], dict[str, int]]:
    sizes: dict[str, int] = defaultdict(int)
    for tablet in tablets:
        sizes[tablet.table] += 1
    tasks = [asyncio.create_task(_tablet(t, arrivals, stop, connected)) for t in tablets]
    return tasks, dict(sizes)


def _snapclass_tablets(port: int, setup: dict[str, Any]) -> list[Tablet]:
    code = setup["code"]
    return [
        Tablet(
            url=f"ws://127.0.0.1:{port}/ws/play/{code}/table/",
            table=str(seat["table"]),
            seed=index,
            headers={"Cookie": f"seat_{code}={seat['token']}"},
            origin=f"http://127.0.0.1:{port}",
        )
        for index, seat in enumerate(setup["seats"])
    ]


def tablets_start(
    *, port: int, setup: dict[str, Any], arrivals: Arrivals, stop: asyncio.Event
) -> tuple[list[asyncio.Task[None]], dict[str, int]]:
    """A simulated tablet on each seat of ``setup`` (as bench_prepare.py prints it), and how
    many tablets each table has."""
    return _fleet_start(_snapclass_tablets(port, setup), arrivals, stop, [])


def _teacher_post(port: int, setup: dict[str, Any], action: str) -> None:
    """The console's Pause or Resume, as the signed-in teacher (any 32-character token
    matches a cookie of the same value)."""
    token = "b" * 32
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/sessions/{setup['session']}/{action}/",
        data=b"",
        method="POST",
        headers={
            "Cookie": f"sessionid={setup['teacher_cookie']}; csrftoken={token}",
            "X-CSRFToken": token,
            "HX-Request": "true",  # the console's partial answer, as its buttons get
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:  # noqa: S310 (http, loopback)
        if answer.status != 200:
            raise RuntimeError(f"{action}: HTTP {answer.status}")


def _prepare(args: argparse.Namespace, env: dict[str, str]) -> dict[str, Any]:
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
    return dict(json.loads(prepared.stdout.strip().splitlines()[-1]))


async def _wait_for(condition: Any, what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"gave up waiting for {what}")
        await asyncio.sleep(0.1)


def bench_env(database: Path, **extra: str) -> dict[str, str]:
    """A benchmark site's environment: production settings on its own SQLite file."""
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{database}",
        "SECRET_KEY": "bench-" + "k" * 60,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "classroom.settings",
        "LOG_LEVEL": "ERROR",
        # Every simulated tablet connects from 127.0.0.1: no per-address socket cap here.
        "SOCKETS_PER_ADDRESS": "1000000",
        **extra,
    }


async def _one_run(args: argparse.Namespace, workdir: Path) -> dict[str, Any]:
    env = bench_env(workdir / "bench.sqlite3")
    setup = _prepare(args, env)
    ours_port, raw_port = _free_port(), _free_port()
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "classroom.server.serve", "-b", "127.0.0.1",
             "-p", str(ours_port), "classroom.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ),
        subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "load" / "raw_broadcast.py"), str(raw_port),
             str(args.flip_every)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        ),
    ]  # fmt: skip
    try:
        await _wait_for_port(ours_port)
        await _wait_for_port(raw_port)
        ours_tablets = _snapclass_tablets(ours_port, setup)
        # The yardstick's tablets: the same tables, seeds and slapping, one group a table.
        raw_tablets = [
            Tablet(url=f"ws://127.0.0.1:{raw_port}/t{t.table}", table=t.table, seed=t.seed)
            for t in ours_tablets
        ]
        ours, raw = Arrivals(), Arrivals()
        stop = asyncio.Event()
        connected: list[int] = []
        ours_tasks, sizes = _fleet_start(ours_tablets, ours, stop, connected)
        raw_tasks, _ = _fleet_start(raw_tablets, raw, stop, connected)
        tasks = ours_tasks + raw_tasks
        await _wait_for(lambda: len(connected) == len(tasks), "every tablet to connect")
        async with connect(f"ws://127.0.0.1:{raw_port}/control") as control:

            async def raw_to(command: str) -> None:
                await control.send(command)
                await control.recv()

            async def ours_to(command: str) -> None:
                await asyncio.to_thread(_teacher_post, ours_port, setup, command)

            await ours_to("pause")  # the session began flipping when it was prepared
            await asyncio.sleep(SETTLE_S)
            windows: dict[str, list[tuple[float, float]]] = {"snapclass": [], "raw": []}
            flips = {"snapclass": 0, "raw": 0}
            give_up = time.monotonic() + args.max_s
            while min(flips.values()) < args.flips and time.monotonic() < give_up:
                for name, arrivals, switch in (("snapclass", ours, ours_to), ("raw", raw, raw_to)):
                    began = _now_ms()
                    await switch("resume" if name == "snapclass" else "run")
                    await asyncio.sleep(args.block_s)
                    await switch("pause")
                    windows[name].append((began, _now_ms()))
                    await asyncio.sleep(SETTLE_S)
                    flips[name] = len(side_tally(arrivals, sizes, windows[name]).fan_out)
        stop.set()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [result for result in results if isinstance(result, Exception)]
        if failures:
            raise RuntimeError(f"{len(failures)} tablets failed: {failures[0]!r}")
        snapclass = side_tally(ours, sizes, windows["snapclass"])
        yardstick = side_tally(raw, sizes, windows["raw"])
        return {
            "blocks": len(windows["snapclass"]),
            "snapclass": snapclass.summary(),
            "raw_websockets": yardstick.summary(),
            "p99_ratio": _ratio(snapclass.fan_out, yardstick.fan_out),
            "from_due_p99_ratio": _ratio(snapclass.from_due, yardstick.from_due),
        }
    finally:
        for server in servers:
            _stop(server)


def _ratio(ours: list[float], theirs: list[float]) -> float | None:
    ours_p99, theirs_p99 = _percentiles(ours)["p99"], _percentiles(theirs)["p99"]
    return round(ours_p99 / theirs_p99, 2) if theirs_p99 else None


def _median(values: list[Any]) -> float | None:
    present = [value for value in values if value is not None]
    return round(statistics.median(present), 2) if present else None


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=80)
    parser.add_argument("--table-size", type=int, default=4)
    parser.add_argument("--flips", type=int, default=1000, help="per side, each run")
    parser.add_argument("--flip-every", type=float, default=2.0)
    parser.add_argument("--block-s", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-s", type=float, default=900.0, help="per run")
    args = parser.parse_args()
    runs = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="snapclass-bench-") as workdir:
            runs.append(await _one_run(args, Path(workdir)))
    sides = ("snapclass", "raw_websockets")
    print(
        json.dumps(
            {
                "students": args.students,
                "table_size": args.table_size,
                "flip_every_s": args.flip_every,
                "block_s": args.block_s,
                "median": {
                    "p99_ratio": _median([run["p99_ratio"] for run in runs]),
                    "from_due_p99_ratio": _median([run["from_due_p99_ratio"] for run in runs]),
                    **{
                        f"{side}_{measure}_p99": _median([r[side][measure]["p99"] for r in runs])
                        for side in sides
                        for measure in ("fan_out_ms", "from_due_ms")
                    },
                    "missed": {side: sum(run[side]["missed"] for run in runs) for side in sides},
                },
                "runs": runs,
            }
        )
    )
    if any(run[side]["missed"] for run in runs for side in sides):
        sys.exit(1)  # a tablet that never got a flip is a child missing a card


if __name__ == "__main__":
    asyncio.run(main())
