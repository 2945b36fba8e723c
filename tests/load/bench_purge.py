"""Benchmark: deleting a 15,000-trial session while tablets play and join in other classes.

    .venv/bin/python tests/load/bench_purge.py [--students 30] [--trials 500]

On a fresh SQLite file with the site's settings, a class's ended session of ``--students`` x
``--trials`` trials (and its tables' log) is deleted by the teacher's request
(``session_delete``), and the task worker (``manage.py tasks_worker --batch``, at its own
niceness) purges it. Meanwhile, in this process, a log writer thread commits live play of
another session (4 log entries a commit, each closing a flip of 4 trials, every 50 ms, by
``action_log_append_many`` as the table hosts' writer does) and a join thread seats a guest in
a third session's lobby every 100 ms. Each write is timed whole, and its wait for SQLite's
write lock on its own (its ``BEGIN IMMEDIATE``). For comparison, the writes alone are timed
first (``--quiet`` seconds), and a second such session is deleted in one transaction at the
end.

Prints JSON: the delete request's time, the purge's time, and the concurrent writes' lock
waits and times with nothing deleted and while each deletion ran (``longest_wait_ms``: the
longest lock wait of a write; target <= 200 ms).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.bench_log_writes import _Batches, _percentiles  # noqa: E402
from tests.load.bench_tables import bench_env  # noqa: E402

PLAY_EVERY_S = 0.05
JOIN_EVERY_S = 0.1
SEATS_PER_TABLE = 4


def _played_session(students: int, trials: int, name: str) -> int:
    """An ended class session: ``students`` children at tables of 4, ``trials`` flips each,
    one log entry per table and flip."""
    from django.contrib.auth.models import User
    from django.utils import timezone

    from classroom.models import ActionLogEntry, GameSession, Seat, Table, Trial
    from classroom.services.classes import class_create
    from classroom.services.sessions import session_create

    teacher = User.objects.create_user(username=f"purge-{name}", password="purge-pass-123")
    school_class = class_create(
        teacher=teacher, name=name, student_names=[f"Pupil {n:02d}" for n in range(students)]
    )
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=school_class, players_per_table=4,
        settings={},
    )  # fmt: skip
    start = timezone.now() - timedelta(days=1)
    GameSession.objects.filter(pk=session.pk).update(
        status=GameSession.Status.ENDED, started_at=start, ended_at=start
    )
    pupils = list(school_class.students.order_by("pk"))
    for number in range(0, students, SEATS_PER_TABLE):
        group = pupils[number : number + SEATS_PER_TABLE]
        table = Table.objects.create(session=session, number=number // 4 + 1, roster=[], seed=1)
        seats = [
            Seat.objects.create(
                session=session, table=table, student=pupil, name=pupil.display_name,
                name_key=pupil.display_name.casefold(), token=f"t-{session.pk}-{pupil.pk}",
            )
            for pupil in group
        ]  # fmt: skip
        ActionLogEntry.objects.bulk_create(
            ActionLogEntry(table=table, seq=flip + 1, kind="tick", payload={}, server_ms=flip)
            for flip in range(trials)
        )
        rows = [
            Trial(
                session=session, table=table, seat=seat, student_id=seat.student_id,
                log_seq=flip + 1, game="palm_strike", kind="palm_strike.flip",
                level="intermediate", target=flip % 3 == 0, responded=flip % 2 == 0,
                congruent=False, rt_ms=400 + flip % 300, correct=True,
                data={"flip": flip + 1},
            )
            for flip in range(trials)
            for seat in seats
        ]  # fmt: skip
        Trial.objects.bulk_create(rows, batch_size=2000)
        Trial.objects.filter(table=table).update(created_at=start)
        for flip in range(0, trials, 50):  # the earliest of each group: a purge's worst case
            Trial.objects.filter(table=table, log_seq=flip + 1).update(
                created_at=start + timedelta(seconds=flip)
            )
    return session.pk


class _Writers:
    """Live play and joins in other sessions, each write timed whole."""

    def __init__(self, records: list[Any], lobby_id: int) -> None:
        self.batches = _Batches(records, 4)
        self.lobby_id = lobby_id
        self.stop = threading.Event()
        # kind, began, took, waited for the write lock (s)
        self.writes: list[tuple[str, float, float, float]] = []
        self.threads = [
            threading.Thread(target=self._play, daemon=True),
            threading.Thread(target=self._join, daemon=True),
        ]

    def _timed(self, kind: str, write: Any, every_s: float) -> None:
        from django.db import connection

        waited = [0.0]

        def lock_timer(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            # Django opens each transaction with BEGIN IMMEDIATE: it returns once this
            # connection holds SQLite's write lock.
            if not sql.startswith("BEGIN"):
                return execute(sql, params, many, context)
            began = time.perf_counter()
            try:
                return execute(sql, params, many, context)
            finally:
                waited[0] += time.perf_counter() - began

        try:
            with connection.execute_wrapper(lock_timer):
                while not self.stop.is_set():
                    waited[0] = 0.0
                    began = time.perf_counter()
                    write()
                    took = time.perf_counter() - began
                    self.writes.append((kind, began, took, waited[0]))
                    time.sleep(max(0.0, every_s - took))
        finally:
            connection.close()

    def _play(self) -> None:
        from classroom.hosting.log_store import action_log_append_many

        self._timed("play", lambda: action_log_append_many(items=self.batches.next()), PLAY_EVERY_S)

    def _join(self) -> None:
        from classroom.models import GameSession
        from classroom.services.seats import seat_join_guest

        count = iter(range(1_000_000))

        def join() -> None:
            session = GameSession.objects.get(pk=self.lobby_id)
            seat_join_guest(session=session, nickname=f"Guest {next(count)}")

        self._timed("join", join, JOIN_EVERY_S)

    def during(self, began: float, ended: float) -> dict[str, Any]:
        overlapping = [
            (kind, took * 1000, waited * 1000)
            for kind, start, took, waited in list(self.writes)
            if start < ended and start + took > began
        ]
        waits = [waited for _kind, _took, waited in overlapping]
        return {
            "longest_wait_ms": round(max(waits), 1),
            "lock_wait_ms": _percentiles(waits),
            **{
                f"{kind}_ms": _percentiles([took for k, took, _w in overlapping if k == kind])
                for kind in ("play", "join")
            },
        }


def _setup(database: Path, students: int, trials: int) -> tuple[list[Any], int, list[int]]:
    os.environ.update(bench_env(database, SNAPCLASS_TASKS_BACKEND="database"))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from classroom.hosting.log_store import table_record
    from classroom.models import Table
    from classroom.services.sessions import session_create
    from tests.load.bench_console_render import _class_started

    _session_id, tables = _class_started()
    records = [table_record(table=table) for table in Table.objects.filter(pk__in=tables)]
    lobby = session_create(
        teacher=Table.objects.get(pk=tables[0]).session.teacher, game="palm_strike",
        school_class=None, players_per_table=4, settings={},
    )  # fmt: skip
    doomed = [_played_session(students, trials, name) for name in ("Purged", "Deleted whole")]
    return records, lobby.pk, doomed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--trials", type=int, default=500, help="per student")
    parser.add_argument(
        "--niceness",
        default="19",
        help="the task worker's builds' (its default: 19; purges keep the site's)",
    )
    parser.add_argument(
        "--quiet", type=float, default=10.0, help="seconds of the writes alone, for comparison"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as workdir:
        database = Path(workdir) / "bench.sqlite3"
        records, lobby_id, (purged, whole) = _setup(database, args.students, args.trials)
        from django.db import connection, transaction

        from classroom.models import GameSession, Trial
        from classroom.services.retention import session_rows_delete
        from classroom.services.sessions import session_delete

        trials = Trial.objects.filter(session_id=purged).count()
        connection.close()
        writers = _Writers(records, lobby_id)
        for thread in writers.threads:
            thread.start()
        time.sleep(2.0)  # warm: connections, statements, pages
        quiet_began = time.perf_counter()
        time.sleep(args.quiet)

        began = time.perf_counter()
        session_delete(session=GameSession.objects.get(pk=purged))
        request_s = time.perf_counter() - began
        worker = subprocess.run(
            [sys.executable, "manage.py", "tasks_worker", "--batch", "--niceness", args.niceness],
            cwd=ROOT, env=bench_env(database, SNAPCLASS_TASKS_BACKEND="database"),
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        purge_s = time.perf_counter() - began
        assert not GameSession.objects.filter(pk=purged).exists(), worker.stderr
        time.sleep(1.0)

        whole_began = time.perf_counter()
        with transaction.atomic():
            session_rows_delete(session_id=whole)
        whole_s = time.perf_counter() - whole_began
        time.sleep(1.0)
        writers.stop.set()
        for thread in writers.threads:
            thread.join()
        report = {
            "trials": trials,
            "quiet": writers.during(quiet_began, quiet_began + args.quiet),
            "delete_request_ms": round(request_s * 1000, 1),
            "purge_s": round(purge_s, 2),
            "during_purge": writers.during(began, began + purge_s),
            "one_transaction_s": round(whole_s, 2),
            "during_one_transaction": writers.during(whole_began, whole_began + whole_s),
        }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
