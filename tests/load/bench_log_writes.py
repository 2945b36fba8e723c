"""Benchmark: one group commit of the live tables' log, with the event loop idle and busy.

    .venv/bin/python tests/load/bench_log_writes.py [--commits 400] [--entries 4] [--busy 0.6]

A flip reaches its tablets only once its log entry is committed (write-ahead), by the log
writer's thread (``classroom.hosting.table_hosts``). Every SQLite step that thread takes lets
the GIL go, and under load it must then win the GIL back from the event loop, which keeps it
for up to the switch interval (``classroom.server.gil_switching``): a commit's time grows with the
number of its steps, not with its work.

The console bench's class (30 guests at 8 tables of auto-flip Palm Strike) is made with the
real services on a fresh SQLite file. Each commit writes ``--entries`` log entries of
different tables, each closing a flip trial for every seat (a bot's is not stored), as the
capacity ramp's commits do (3.6 entries on average), by ``action_log_append_many`` in a
thread of its own, as the writer does. The commits run twice, interleaved in blocks of 20:
with the main thread idle, and with it busy in Python for ``--busy`` of every millisecond (a
loaded event loop; the server's switch interval, 1 ms).
Prints JSON: each mode's commit time percentiles (ms) and the statements one commit runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.bench_tables import bench_env  # noqa: E402

SEATS = 4
BLOCK = 20


def _setup(database: Path) -> list[Any]:
    """The class's tables as their hosts' log records."""
    os.environ.update(bench_env(database))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from classroom.hosting.log_store import table_record
    from classroom.models import Table
    from tests.load.bench_console_render import _class_started

    _session_id, tables = _class_started()
    return [table_record(table=table) for table in Table.objects.filter(pk__in=tables)]


class _Batches:
    """Log entries in the order hosts would write them: each table's seq goes up by one."""

    def __init__(self, records: list[Any], entries: int) -> None:
        self.records = records
        self.entries = entries
        self.next_seq = {record.table_id: 1 for record in records}
        self.turn = 0

    def next(self) -> list[Any]:
        from games.engine.contract import Trial
        from games.live.host import LogEntry

        items = []
        for _ in range(self.entries):
            record = self.records[self.turn % len(self.records)]
            self.turn += 1
            seq = self.next_seq[record.table_id]
            self.next_seq[record.table_id] = seq + 1
            trials = [
                Trial(
                    seat=seat,
                    kind="palm_strike.flip",
                    data={
                        "level": "intermediate",
                        "target": seat % 2 == 0,
                        "responded": seat % 3 == 0,
                        "congruent": False,
                        "rt_ms": 400 + seat * 50,
                        "plausible": True,
                        "correct": True,
                        "public": {"bg": "red", "word": "blue", "ink": "green"},
                    },
                )
                for seat in range(SEATS)
            ]
            entry = LogEntry(seq, "tick", None, None, seq * 2500)
            items.append((record, entry, trials))
        return items


class _BusyLoop:
    """The main thread in Python for ``share`` of every millisecond, asleep the rest."""

    def __init__(self, share: float) -> None:
        self.share = share

    def run_until(self, last: Future[Any]) -> None:
        busy_s, idle_s = 0.001 * self.share, 0.001 * (1 - self.share)
        while not last.done():
            until = time.perf_counter() + busy_s
            spins = 0
            while time.perf_counter() < until:
                spins += 1
            time.sleep(idle_s)


def _statements_per_commit(batches: _Batches) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from classroom.hosting.log_store import action_log_append_many

    with CaptureQueriesContext(connection) as queries:
        action_log_append_many(items=batches.next())
    return len(queries.captured_queries)


def _percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": at(0.95),
        "p99": at(0.99),
        "max": round(ordered[-1], 2),
        "n": len(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=400, help="per mode")
    parser.add_argument("--entries", type=int, default=4, help="log entries per commit")
    parser.add_argument("--busy", type=float, default=0.6, help="the busy loop's share")
    args = parser.parse_args()
    sys.setswitchinterval(0.001)
    with tempfile.TemporaryDirectory() as workdir:
        records = _setup(Path(workdir) / "bench.sqlite3")
        from classroom.hosting.log_store import action_log_append_many

        batches = _Batches(records, args.entries)
        writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-writer")

        def commit() -> float:
            items = batches.next()
            began = time.perf_counter()
            action_log_append_many(items=items)
            return (time.perf_counter() - began) * 1000

        statements = writer.submit(_statements_per_commit, batches).result()
        for _ in range(BLOCK):
            writer.submit(commit).result()  # warm: connection, statements, pages
        times: dict[str, list[float]] = {"idle": [], "busy": []}
        busy = _BusyLoop(args.busy)
        while len(times["busy"]) < args.commits:
            for mode in ("idle", "busy"):
                futures = [writer.submit(commit) for _ in range(BLOCK)]
                if mode == "busy":
                    busy.run_until(futures[-1])
                times[mode].extend(future.result() for future in futures)
        writer.shutdown()
    print(
        json.dumps(
            {
                "entries_per_commit": args.entries,
                "trials_per_entry": SEATS,
                "statements_per_commit": statements,
                "busy_share": args.busy,
                "switch_interval_ms": sys.getswitchinterval() * 1000,
                "commit_ms": {mode: _percentiles(values) for mode, values in times.items()},
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
