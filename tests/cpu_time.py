"""CPU-seconds per test file, for a suite run on a shared machine (opt in: ``-p tests.cpu_time``).

Wall times move with whatever else the machine runs; the CPU a file costs does not, much. A
file's figure is the CPU of its worker's whole process tree (the worker, and the Daphne, the
Chromium and the server processes its tests start) from before its first test to after its
last, read from /proc, so what a file's fixtures start counts for that file. PostgreSQL's and
Redis's own processes are not the worker's children and are not counted. Under xdist a file's
tests stay on one worker (tests/conftest.py), so each file is measured whole; the controller
adds the workers' figures up and prints the costliest files at the end.

    .venv/bin/python -m pytest -p tests.cpu_time -n 3 --dist loadscope -m "not alone"
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

SHOWN = 30
_TICKS = os.sysconf("SC_CLK_TCK")
_STASH = pytest.StashKey[dict[str, list[float]]]()


def _tree_cpu_s(root: int) -> float:
    """CPU-seconds of ``root`` and its live descendants, with the children each has reaped."""
    parent_of: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended meanwhile
        # The name in parentheses may hold spaces; the fields after it are fixed.
        fields = stat.rsplit(")", 1)[1].split()
        pid = int(entry.name)
        parent_of[pid] = int(fields[1])
        ticks[pid] = sum(int(field) for field in fields[11:15])  # utime stime cutime cstime
    total = 0
    for pid, used in ticks.items():
        up = pid
        while up not in (root, 0, 1) and up in parent_of:
            up = parent_of[up]
        if up == root:
            total += used
    return total / _TICKS


def _file_of(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STASH] = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[Any]:
    files = item.config.stash[_STASH]
    path = _file_of(item)
    if path not in files:
        files[path] = [-_tree_cpu_s(os.getpid()), -time.monotonic(), 0]
    result = yield
    files[path][2] += 1
    if nextitem is None or _file_of(nextitem) != path:
        files[path][0] += _tree_cpu_s(os.getpid())
        files[path][1] += time.monotonic()
    return result


def pytest_sessionfinish(session: pytest.Session) -> None:
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput["cpu_time"] = json.dumps(session.config.stash[_STASH])


def pytest_testnodedown(node: Any, error: object) -> None:
    output = getattr(node, "workeroutput", {}).get("cpu_time")
    if output:
        node.config.stash[_STASH].update(json.loads(output))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    files = config.stash[_STASH]
    if not files or getattr(config, "workeroutput", None) is not None:
        return
    write = terminalreporter.write_line
    terminalreporter.section("CPU-seconds per file (the worker's process tree)")
    ranked = sorted(files.items(), key=lambda item: -item[1][0])
    for path, (cpu_s, wall_s, tests) in ranked[:SHOWN]:
        write(f"{cpu_s:8.1f} CPU-s {wall_s:8.1f} s wall {int(tests):5d} tests  {path}")
    total = sum(figures[0] for figures in files.values())
    write(f"{total:8.1f} CPU-s in all, {len(files)} files")
