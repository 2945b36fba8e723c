"""Soak: 10 minutes (2 in the quick suite) of 40 students across 10 tables; no error, no
unbounded growth of memory, tasks or file descriptors.

    SNAPCLASS_SOAK_SECONDS=600 .venv/bin/pytest tests/soak -s

Two layouts at the same time, each for SNAPCLASS_SOAK_SECONDS (120 in the quick suite): one
real Daphne process (the embedded default: SQLite, in-memory channel layer), and a
cluster of two on PostgreSQL and Redis where each table's students alternate between the
processes (every table then has sockets at its owner and at a stand-in in the other process,
so the router's groups, members and stand-ins come and go all the time), both with
``SNAPCLASS_DIAGNOSTICS=1``; the cluster's figures are the sum over its processes. Ten tables
of four auto-flip Palm Strike; the students slap,
pick cards, drop their sockets now and then, and every ``ROTATE_EVERY_S`` one table moves to a
fresh session (as does any table whose game ends), so table hosts start and are reaped
throughout, not only sockets.

What "unbounded growth" means here: something that grows with the work done (flips, inputs,
reconnects, games) instead of with the load at the moment (sockets open, tables running).
So every figure is compared at equal load, between the first half of the run (after a
warm-up) and the second half:

* running table hosts: never more than the ten being played plus those still waiting out
  the registry's idle time-out (a host that is never reaped is the first leak to look for);
* file descriptors and asyncio tasks, less what the sockets and tables of the moment account
  for, must stay within a small margin (a leak of one per reconnect would pass it within a
  minute: the students reconnect about every 3 s in all);
* resident memory must not grow by more than 15 % or 40 MB from the first half's peak to the
  second half's peak (CPython's allocator keeps freed arenas, so RSS climbs to a plateau
  after warm-up rather than staying flat; a leak keeps climbing), and within the second half
  by no more than 1 MB a minute (2 MB at least, an arena or two), not counting the step
  where a process starts a thread (its own malloc arena). Measured: +1.3 MB over the
  last 4.5 minutes of a 10-minute run; a leak of 50 KB per reconnect would add about 6 MB.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import os
import random
import statistics
import time
import urllib.request
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from games.live.registry import IDLE_STOP_S
from tests.cluster.processes import LAYOUTS, layout_site, layout_start, site_discard
from tests.soak.students import Faults, Seat, SoakStudent, TableSlot

if TYPE_CHECKING:
    from pathlib import Path

    from tests.cluster.processes import Site

DURATION_S = float(os.environ.get("SNAPCLASS_SOAK_SECONDS", "120"))
TABLES = 10
PER_TABLE = 4
SAMPLE_EVERY_S = 10.0
# One table moves to a fresh session this often (plus any whose game ends).
ROTATE_EVERY_S = 30.0
# Each student drops its socket about this often (mean of an exponential wait).
CHURN_EVERY_S = 120.0
# The first samples are warm-up: imports, caches, the allocator's first arenas.
WARM_UP_S = min(60.0, DURATION_S / 4)

# What one tablet socket and one running table may hold, at most: a socket is one fd and
# three tasks (Channels' application task, its channel-layer receive, that receive's queue
# wait); a table is four tasks (its loop, the loop's inbox wait, the lease keeper, and the
# reaper while nobody listens). Upper bounds, so more tables never look like a leak.
LOAD_ALLOWANCE = {"open_fds": (1.0, 0.0), "asyncio_tasks": (3.0, 4.0)}
# Hosts of tables nobody plays at any more are reaped after IDLE_STOP_S; at most this many
# wait at once (one rotation per ROTATE_EVERY_S), so more running hosts than that is a leak.
MAX_LIVE_TABLES = TABLES + math.ceil(IDLE_STOP_S / ROTATE_EVERY_S) + 1
# Allowed drift at equal load between the halves (see the module doc).
FD_MARGIN = 4
TASK_MARGIN = 6
RSS_GROWTH_FRACTION = 0.15
RSS_GROWTH_BYTES = 40 * 1024 * 1024
RSS_LATE_BYTES_PER_MIN = 1024 * 1024
RSS_LATE_FLOOR_BYTES = 2 * 1024 * 1024

SETTINGS = {
    "flip_pacing": "auto",
    "auto_flip_s": 2.0,
    "response_window_s": 1.5,
    # A long game (first to 100 points takes 10 to 15 minutes at this pace); the rotation
    # gives the host churn.
    "points_target": 100,
}

PREPARE = """
from django.contrib.auth.models import User
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
teacher = User.objects.create_user(username="soak-teacher", password="soak-password-123")
sessions = []
for _ in range({sessions}):
    session = session_create(teacher=teacher, game="palm_strike", school_class=None,
        players_per_table={per_table}, settings={settings})
    seats = [seat_join_guest(session=session, nickname=f"S{{n}}") for n in range({per_table})]
    session_start(session=session)
    sessions.append([{{"code": session.code, "token": seat.token}} for seat in seats])
print(json.dumps(sessions))
"""


@dataclass
class Sample:
    at_s: float
    students_connected: int
    figures: dict[str, Any]

    @property
    def listeners(self) -> int:
        return int(self.figures["table_listeners"])

    @property
    def tables(self) -> int:
        return int(self.figures["live_tables"])


def _prepare(site: Site, sessions: int) -> list[list[Seat]]:
    code = PREPARE.format(sessions=sessions, per_table=PER_TABLE, settings=repr(SETTINGS))
    return [[Seat(**seat) for seat in session] for session in site.python(code)]


def _diagnostics(ports: list[int]) -> dict[str, Any]:
    """The processes' figures, summed (task kinds too)."""
    total: dict[str, Any] = {}
    for port in ports:
        url = f"http://127.0.0.1:{port}/_diagnostics/"
        with urllib.request.urlopen(url, timeout=10) as response:
            figures: dict[str, Any] = json.load(response)
        for name, value in figures.items():
            if name == "task_kinds":
                kinds = total.setdefault(name, {})
                for kind, count in value.items():
                    kinds[kind] = kinds.get(kind, 0) + count
            elif name != "pid" and isinstance(value, int | float):
                # Counts add up; a process id or a name (its event loop) does not.
                total[name] = total.get(name, 0) + value
    return total


async def _sample(
    ports: list[int], students: list[SoakStudent], began: float, samples: list[Sample]
) -> None:
    # Prefer a moment when every student is connected (drops last a second or two), so the
    # samples describe the same load; sample anyway after a few seconds.
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline and not all(s.connected for s in students):
        await asyncio.sleep(0.1)
    connected = sum(s.connected for s in students)
    figures = await asyncio.to_thread(_diagnostics, ports)
    samples.append(Sample(time.monotonic() - began, connected, figures))


async def _drive(
    ports: list[int], slots: list[TableSlot], faults: Faults
) -> tuple[list[SoakStudent], list[Sample]]:
    rng = random.Random(20261201)
    students = [
        SoakStudent(
            f"t{slot.number}s{index}",
            slot,
            index,
            ports[index % len(ports)],  # a cluster: the table's seats alternate processes
            faults,
            churn_every_s=CHURN_EVERY_S,
            rng=random.Random(rng.random()),
        )
        for slot in slots
        for index in range(PER_TABLE)
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(student.run(stop)) for student in students]
    samples: list[Sample] = []
    began = time.monotonic()
    next_sample = began + SAMPLE_EVERY_S
    next_rotation = began + ROTATE_EVERY_S
    rotations = 0
    try:
        while (now := time.monotonic()) < began + DURATION_S:
            if now >= next_rotation:
                slots[rotations % len(slots)].rotate()
                rotations += 1
                next_rotation += ROTATE_EVERY_S
            if now >= next_sample:
                await _sample(ports, students, began, samples)
                next_sample += SAMPLE_EVERY_S
            await asyncio.sleep(0.2)
        await _sample(ports, students, began, samples)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    return students, samples


def _residuals(samples: list[Sample], figure: str) -> list[float]:
    """``figure`` less what the sockets and tables of the moment may account for."""
    per_listener, per_table = LOAD_ALLOWANCE[figure]
    return [
        float(s.figures[figure]) - per_listener * s.listeners - per_table * s.tables
        for s in samples
    ]


def _summary(students: list[SoakStudent], samples: list[Sample], slots: list[TableSlot]) -> str:
    latencies = sorted(value for student in students for value in student.latencies_ms)
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    first, last = samples[0].figures, samples[-1].figures
    lines = [
        f"soak {DURATION_S:.0f} s: {len(students)} students, {len(slots)} tables",
        f"flips seen {sum(s.flips_seen for s in students)}, slaps {sum(s.slaps for s in students)}"
        f", refusals {sum(s.refusals for s in students)}, reconnects "
        f"{sum(s.connects for s in students) - len(students)} (drops "
        f"{sum(s.drops for s in students)}), sessions moved "
        f"{sum(slot.generation for slot in slots)} (games over {sum(s.games_over for s in slots)})",
        f"flip to tablet ms p50 {cuts[49]:.1f} p99 {cuts[98]:.1f} max {latencies[-1]:.1f}",
        "samples (s, students, listeners, tables, rss MB, fds, sockets, tasks, threads,"
        " layer buffers/messages):",
    ]
    lines += [
        f"  {s.at_s:6.1f} {s.students_connected:3d} {s.listeners:3d} {s.tables:3d} "
        f"{s.figures['rss_bytes'] / 2**20:7.1f} {s.figures['open_fds']:4d} "
        f"{s.figures['socket_fds']:4d} {s.figures['asyncio_tasks']:4d} {s.figures['threads']:3d} "
        f"{s.figures['layer_buffers']:4d}/{s.figures['layer_buffered_messages']}"
        for s in samples
    ]
    lines.append(f"task kinds first: {first['task_kinds']}")
    lines.append(f"task kinds last:  {last['task_kinds']}")
    return "\n".join(lines)


def _late_growth(samples: list[Sample]) -> int:
    """RSS growth from sample to sample, leaving out the steps where a process started a
    thread: a new thread gets a malloc arena of its own, a one-off step of a few MB (seen:
    +2.5 MB as the threads went 7 -> 8), not a leak."""
    return sum(
        after.figures["rss_bytes"] - before.figures["rss_bytes"]
        for before, after in itertools.pairwise(samples)
        if after.figures["threads"] <= before.figures["threads"]
    )


def _halves(samples: list[Sample]) -> tuple[list[Sample], list[Sample]]:
    settled = [sample for sample in samples if sample.at_s >= WARM_UP_S]
    middle = len(settled) // 2
    return settled[:middle], settled[middle:]


@dataclass
class LayoutRun:
    """One layout's site, its tables and what went wrong there."""

    layout: str
    site: Site
    slots: list[TableSlot]
    faults: Faults
    ports: list[int] = field(default_factory=list)


def _set_up(layout: str, workdir: Path) -> LayoutRun:
    workdir.mkdir()
    site = layout_site(layout, workdir)
    site.env["SNAPCLASS_DIAGNOSTICS"] = "1"
    # Sessions enough for the rotation and for games that end early, made up front: making
    # them while the soak runs would add a Django start-up to the load now and then.
    generations = 2 + math.ceil(DURATION_S / ROTATE_EVERY_S / TABLES) + 2
    prepared = _prepare(site, TABLES * generations)
    slots = [
        TableSlot(number, [prepared[g * TABLES + number] for g in range(generations)])
        for number in range(TABLES)
    ]
    return LayoutRun(layout, site, slots, Faults())


async def _drive_all(runs: list[LayoutRun]) -> list[tuple[list[SoakStudent], list[Sample]]]:
    return list(await asyncio.gather(*(_drive(run.ports, run.slots, run.faults) for run in runs)))


@pytest.mark.timeout(int(DURATION_S) + 240)
@pytest.mark.alone
def test_soak_forty_students_ten_tables_in_each_layout(tmp_path: Path) -> None:
    """Both layouts at once, each with its own forty students: they share only the machine,
    and every figure is per site, so neither hides the other's growth."""
    runs = [_set_up(layout, tmp_path / layout) for layout in LAYOUTS]
    try:
        for run in runs:
            run.ports = layout_start(run.site, run.layout)
        results = asyncio.run(_drive_all(runs))
    finally:
        for run in runs:
            site_discard(run.site)
    for run, (students, samples) in zip(runs, results, strict=True):
        _check(run, students, samples)


def _check(run: LayoutRun, students: list[SoakStudent], samples: list[Sample]) -> None:
    slots, faults = run.slots, run.faults
    log = "\n".join(path.read_text() for path in sorted(run.site.workdir.glob("daphne-*.log")))
    summary = f"{run.layout}: " + _summary(students, samples, slots)
    print(summary)  # shown with -s, and on failure

    assert not faults.errors, f"error frames: {faults.errors[:5]}\n{summary}"
    assert not faults.unexpected_closes, f"closes: {faults.unexpected_closes[:5]}\n{summary}"
    assert not faults.connect_failures, f"connects: {faults.connect_failures[:5]}\n{summary}"
    assert "Traceback" not in log, log[-5000:]
    # Every table kept flipping to the end (a stuck host would stop).
    stale = [slot.number for slot in slots if time.monotonic() - slot.last_flip_at > 30]
    assert not stale, f"tables that stopped flipping: {stale}\n{summary}"

    most_tables = max(sample.tables for sample in samples)
    assert most_tables <= MAX_LIVE_TABLES, f"table hosts are not reaped\n{summary}"

    first, second = _halves(samples)
    assert len(first) >= 2, summary
    assert len(second) >= 2, summary
    growth = []
    for figure, margin in (("open_fds", FD_MARGIN), ("asyncio_tasks", TASK_MARGIN)):
        residuals = _residuals(first + second, figure)
        before, after = max(residuals[: len(first)]), max(residuals[len(first) :])
        growth.append((figure, before, after, margin))
    rss_before = max(sample.figures["rss_bytes"] for sample in first)
    rss_after = max(sample.figures["rss_bytes"] for sample in second)
    allowed = min(RSS_GROWTH_FRACTION * rss_before, RSS_GROWTH_BYTES)
    late = _late_growth(second)
    late_minutes = (second[-1].at_s - second[0].at_s) / 60
    late_allowed = max(RSS_LATE_FLOOR_BYTES, RSS_LATE_BYTES_PER_MIN * late_minutes)
    report = "; ".join(
        f"{figure} beyond load {before:.0f} -> {after:.0f} (margin {margin})"
        for figure, before, after, margin in growth
    )
    report += (
        f"; rss peak {rss_before / 2**20:.1f} -> {rss_after / 2**20:.1f} MB, second half"
        f" {late / 2**20:+.1f} MB in {late_minutes:.1f} min"
    )
    print(report)
    for figure, before, after, margin in growth:
        assert after <= before + margin, f"{figure} grew at equal load: {report}\n{summary}"
    assert rss_after - rss_before <= allowed, f"rss grew: {report}\n{summary}"
    assert late <= late_allowed, f"rss still growing late in the run: {report}\n{summary}"
