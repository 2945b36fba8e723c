"""Benchmark: what each fault costs the children: inputs lost or applied twice, time to resume.

    python tests/load/bench_faults.py [--repeats 2] [--tablets 8] [--only cluster]

Scripted tablets (tests/cluster/tablets.py: they flip on their turn, tag every input with an
id, reconnect with backoff and send again what was not answered) play Palm Strike, four to a
table. Then, one after another, each fault strikes while they play:

* embedded (one process, SQLite): kill -9 of the process, started again after 1 s;
* cluster (two processes, PostgreSQL, Redis; every table starts on process A, its tablets split
  over both): kill -9 of the owner (started again afterwards), SIGSTOP of the owner for 3 s,
  Redis stopped for 1 s (killed and started again: a private redis-server on a free port,
  never a shared one), and every PostgreSQL connection of the site's own database terminated
  (pg_terminate_backend).

Every fault gets a session of its own (fresh tables and tablets). A tablet has resumed when it
is shown a newer table version than it had when the fault struck; a fault's resume figures are
over all its tablets and repeats, from the moment the fault struck and from the moment it was
lifted (the process answering again, SIGCONT, Redis back). Lost: inputs the server
acknowledged that are not in the action log; duplicated: inputs in the log more than once.
A tablet not resumed within 20 s counts in ``not_resumed``; a cluster left broken by a fault
(a table or a process frozen) is started afresh before the next one, and a session whose play
never began is tried once more (``did_not_start`` counts the second failures). Prints one
JSON document. Loopback only, a few minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import psycopg  # noqa: E402

from tests.cluster.processes import (  # noqa: E402
    Site,
    cluster_site,
    drop_database,
    embedded_site,
    free_port,
)
from tests.cluster.tablets import ScriptedTablet  # noqa: E402
from tests.faults.live import palm_strike  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

POSTGRES_URL = os.environ.get(
    "SNAPCLASS_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)
RESUME_TIMEOUT_S = 20.0
SETTINGS = {"flip_pacing": "tap", "response_window_s": 1.0}


@dataclass
class TimedTablet(ScriptedTablet):
    """A scripted tablet that also notes when it was shown each table version."""

    seen: list[tuple[float, int, int]] = field(default_factory=list)

    async def _maybe_flip(self, socket: Any, view: dict[str, Any]) -> None:
        self.seen.append((time.monotonic(), self._epoch, self._version))
        await super()._maybe_flip(socket, view)

    def resumed_at(self, struck: float, had: tuple[int, int]) -> float | None:
        return next(
            (at for at, epoch, version in self.seen if at > struck and (epoch, version) > had),
            None,
        )


class PrivateRedis:
    """A redis-server of the benchmark's own on a free loopback port (nothing persisted)."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.workdir = workdir
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise SystemExit("bench-faults needs redis-server (Debian: redis-server)")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            done = subprocess.run(
                ["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True
            )
            if done.stdout.strip() == "PONG":
                return
            time.sleep(0.05)
        raise RuntimeError("the private redis-server did not start")

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None


@dataclass
class FaultRun:
    """One fault striking one session's tablets."""

    tablets: list[TimedTablet]
    # Play began before the fault (else the fault was not tried; see ``did_not_start``).
    started: bool = True
    struck: float = 0.0
    lifted: float = 0.0
    resumed_from_strike: list[float] = field(default_factory=list)
    resumed_from_lift: list[float] = field(default_factory=list)
    not_resumed: int = 0


async def _until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _acknowledged(tablets: list[TimedTablet]) -> int:
    return sum(len(tablet.acknowledged) for tablet in tablets)


async def _play_through(
    site: Site,
    name: str,
    tablets_count: int,
    owner: int,
    fault: Callable[[], Awaitable[None]],
    lifted: Callable[[], float],
) -> FaultRun:
    """Start a session whose tables ``owner`` hosts, play, strike, and watch every tablet."""
    prepared = await asyncio.to_thread(
        palm_strike, site, players=tablets_count, table_size=4, settings=SETTINGS
    )
    ports = list(site.processes)

    def via(home: int) -> Callable[[], list[int]]:
        # A tablet keeps to its process while it lives; then the balancer sends it on.
        return lambda: [home] if home in site.processes else sorted(site.processes)

    tablets = []
    for index, seat in enumerate(prepared["seats"]):
        home = owner if index % 4 == 0 else ports[index % len(ports)]
        tablets.append(TimedTablet(f"{name}-t{index}", prepared["code"], seat["token"], via(home)))
    stop = asyncio.Event()
    # The first tablet of each table starts it, on the owner.
    firsts = tablets[::4]
    tasks = [asyncio.create_task(tablet.run(stop)) for tablet in firsts]
    await _until(lambda: all(tablet.views > 0 for tablet in firsts), 30)
    tasks += [asyncio.create_task(t.run(stop)) for t in tablets if t not in firsts]
    started = await _until(
        lambda: _acknowledged(tablets) >= 2 * len(firsts) and all(t.views for t in tablets), 30
    )
    run = FaultRun(tablets, started=started)
    if not started:
        stop.set()
        await asyncio.gather(*tasks)
        return run
    had = {tablet.name: (tablet._epoch, tablet._version) for tablet in tablets}
    run.struck = time.monotonic()
    await fault()
    run.lifted = lifted()
    await _until(
        lambda: all(t.resumed_at(run.struck, had[t.name]) is not None for t in tablets),
        RESUME_TIMEOUT_S,
    )
    for tablet in tablets:
        at = tablet.resumed_at(run.struck, had[tablet.name])
        if at is None:
            run.not_resumed += 1
        else:
            run.resumed_from_strike.append(at - run.struck)
            run.resumed_from_lift.append(max(0.0, at - run.lifted))
    # A little more play after the fault, so inputs sent around it are settled.
    count = _acknowledged(tablets)
    await _until(lambda: _acknowledged(tablets) > count, 5)
    stop.set()
    await asyncio.gather(*tasks)
    return run


def _stored_client_ids(site: Site) -> list[str]:
    url = site.env["DATABASE_URL"]
    query = "SELECT client_id FROM classroom_actionlogentry WHERE client_id != ''"
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///"), timeout=10) as connection:
            return [str(cid) for (cid,) in connection.execute(query)]
    with psycopg.connect(url) as connection:
        return [str(cid) for (cid,) in connection.execute(query)]


def _percentiles(values: list[float]) -> dict[str, float | None]:
    if not values:
        return {"p50": None, "max": None}
    return {"p50": round(statistics.median(values), 2), "max": round(max(values), 2)}


def _summary(site: Site, runs: list[FaultRun]) -> dict[str, Any]:
    stored = Counter(_stored_client_ids(site))
    acknowledged = {cid for run in runs for tablet in run.tablets for cid in tablet.acknowledged}
    prefixes = {tablet.name + ":" for run in runs for tablet in run.tablets}
    ours = {cid: n for cid, n in stored.items() if cid.split(":")[0] + ":" in prefixes}
    tried = [run for run in runs if run.started]
    return {
        "faults": len(tried),
        "did_not_start": len(runs) - len(tried),
        "tablets": sum(len(run.tablets) for run in tried),
        "acknowledged": len(acknowledged),
        "lost": len(acknowledged - set(ours)),
        "duplicated": sum(n - 1 for n in ours.values() if n > 1),
        "not_resumed": sum(run.not_resumed for run in runs),
        "resume_s": _percentiles([s for run in runs for s in run.resumed_from_strike]),
        "resume_after_lifted_s": _percentiles([s for run in runs for s in run.resumed_from_lift]),
    }


def _kill_all(site: Site) -> None:
    for port in list(site.processes):
        site.kill(port)


async def _heal(site: Site, ports: list[int]) -> None:
    """Start every process afresh (after a fault that left a table frozen)."""
    _kill_all(site)
    for port in ports:
        await asyncio.to_thread(site.start, port)


async def bench_embedded(workdir: Path, repeats: int, tablets: int) -> dict[str, Any]:
    workdir.mkdir(parents=True)
    site = embedded_site(workdir)
    port = site.start()
    runs: list[FaultRun] = []
    back = [0.0]

    async def kill_and_restart() -> None:
        site.kill(port)
        await asyncio.sleep(1.0)  # the classroom laptop takes a moment to come back
        await asyncio.to_thread(site.start, port)
        back[0] = time.monotonic()

    try:
        for repeat in range(repeats):
            run = await _play_through(
                site, f"e{repeat}", tablets, port, kill_and_restart, lambda: back[0]
            )
            runs.append(run)
        return {"kill -9, back after 1 s": _summary(site, runs)}
    finally:
        _kill_all(site)


async def bench_cluster(workdir: Path, repeats: int, tablets: int) -> dict[str, Any]:
    workdir.mkdir(parents=True)
    redis = PrivateRedis(workdir)
    redis.start()
    site = cluster_site(workdir, postgres_url=POSTGRES_URL, redis_url=redis.url)
    assert site.postgres_db is not None
    database = site.postgres_db
    ports = [site.start(), site.start()]
    owner = ports[0]
    results: dict[str, Any] = {}
    at = [0.0]

    async def kill_owner() -> None:
        site.kill(owner)
        at[0] = time.monotonic()

    async def stall_owner() -> None:
        process = site.processes[owner]
        process.send_signal(signal.SIGSTOP)
        await asyncio.sleep(3.0)
        process.send_signal(signal.SIGCONT)
        at[0] = time.monotonic()

    async def redis_down() -> None:
        redis.kill()
        await asyncio.sleep(1.0)
        await asyncio.to_thread(redis.start)
        at[0] = time.monotonic()

    async def terminate_connections() -> None:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (database,),
            )
        at[0] = time.monotonic()

    faults: list[tuple[str, str, Callable[[], Awaitable[None]]]] = [
        ("kill -9 of the owner", "k", kill_owner),
        ("SIGSTOP of the owner for 3 s", "s", stall_owner),
        ("Redis stopped for 1 s", "r", redis_down),
        ("PostgreSQL connections terminated", "p", terminate_connections),
    ]
    try:
        healed = 0
        for label, tag, fault in faults:
            runs = []
            for repeat in range(repeats):
                for attempt in range(2):
                    run = await _play_through(
                        site, f"c{tag}{repeat}{attempt}", tablets, owner, fault, lambda: at[0]
                    )
                    if owner not in site.processes or run.not_resumed or not run.started:
                        # Left broken (or was already): the next fault gets fresh processes.
                        healed += 1
                        await _heal(site, ports)
                    if run.started:
                        break
                runs.append(run)
            results[label] = _summary(site, runs)
        results["processes_restarted_between_faults"] = healed
        return results
    finally:
        _kill_all(site)
        drop_database(POSTGRES_URL, database)
        redis.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=2, help="times each fault strikes")
    parser.add_argument("--tablets", type=int, default=8, help="tablets per fault (4 a table)")
    parser.add_argument("--only", choices=("embedded", "cluster"))
    args = parser.parse_args()
    began = time.monotonic()
    report: dict[str, Any] = {}
    workdir = Path(tempfile.mkdtemp(prefix="snapclass-bench-faults-"))
    try:
        if args.only in (None, "embedded"):
            report["embedded"] = asyncio.run(
                bench_embedded(workdir / "embedded", args.repeats, args.tablets)
            )
        if args.only in (None, "cluster"):
            report["cluster"] = asyncio.run(
                bench_cluster(workdir / "cluster", args.repeats, args.tablets)
            )
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    report["seconds"] = round(time.monotonic() - began, 1)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
