"""Benchmark the analytics pages on seeded trials (prints one JSON line).

    .venv/bin/python tests/load/bench_analytics.py [--size class|school] [--classes 30]
        [--students 30] [--sessions N] [--trials 200] [--repeat 5] [--seed 0] [--reuse]

``--size class`` (the default) seeds one demo class, trial by trial (``tests.seeding.
palm_strike``: 30 students x 20 sessions x 200 trials, 120,000 trials by default), into the
*configured* database. ``--size school`` seeds ``--classes`` classes of a school's year (200
sessions each by default, 36 M trials) into the configured PostgreSQL database with one
``INSERT … SELECT`` per class (``tests.seeding.school``), then vacuums and analyses the trials
as autovacuum would in a running school; seeding that takes the better part of an hour, so
``--reuse`` times the school an earlier run left in the database (its teacher is found by
name).

Then it times the (first) class's overview, its first student's progress page and its latest
session's report through Django's test client (server time only, no network or browser; the
first GET apart, since it measures the class's reliabilities that later ones find in the
cache; the SQL queries of a GET; then GETs each after one more answer from the class, as
during a lesson), builds the class's printed
reports as the task worker does, and times its trials CSV. The target is 300 ms or less per
page.

It leaves what it seeds in the database, so run it against a throwaway one:
``make bench-analytics`` and ``make bench-analytics-school`` create one, migrate it, run this
and delete it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

# The teacher of the school size, found again by ``--reuse``.
SCHOOL_TEACHER = "school-bench"
# Sessions per class when --sessions is not given: a term's weekly lessons, a school's year.
SESSIONS = {"class": 20, "school": 200}


class BenchError(Exception):
    """A benchmark that cannot run as asked: said in one line, without a traceback."""


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(SESSIONS), default="class")
    parser.add_argument("--classes", type=positive, default=30, help="school size only")
    parser.add_argument("--students", type=positive, default=30)
    parser.add_argument("--sessions", type=positive, default=None)
    parser.add_argument("--trials", type=positive, default=200, help="per student and session")
    parser.add_argument("--repeat", type=positive, default=5, help="timed GETs per page")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--reuse", action="store_true", help="school size: time the school already seeded"
    )
    args = parser.parse_args(argv)
    if args.sessions is None:
        args.sessions = SESSIONS[args.size]
    return args


def class_seeded(args: argparse.Namespace, result: dict[str, Any]) -> tuple[User, SchoolClass]:
    """A fresh teacher (runs on one database never share a class list) and a demo class."""
    from django.contrib.auth.models import User

    from classroom.services.tokens import token_new
    from tests.seeding.palm_strike import demo_class_seed

    teacher = User.objects.create_user(username=f"bench-{token_new()[:12]}", password=None)
    began = time.perf_counter()
    try:
        school_class = demo_class_seed(
            teacher=teacher,
            students=args.students,
            sessions=args.sessions,
            trials_per_session=args.trials,
            seed=args.seed,
        )
    except ValueError as error:
        raise BenchError(str(error)) from error
    result["seed_s"] = round(time.perf_counter() - began, 2)
    progress(f"Seeded {school_class.name} in {result['seed_s']:.1f} s.")
    return teacher, school_class


def school_seeded(args: argparse.Namespace, result: dict[str, Any]) -> tuple[User, SchoolClass]:
    """The school's teacher and first class: seeded now, or as an earlier run left them."""
    from django.contrib.auth.models import User
    from django.db import connection

    from classroom.models import SchoolClass, Trial
    from tests.seeding.school import SchoolSize, school_seed

    if connection.vendor != "postgresql":
        raise BenchError("A school is seeded on PostgreSQL only (set DATABASE_URL).")
    teacher = User.objects.filter(username=SCHOOL_TEACHER).first()
    if args.reuse and teacher is None:
        raise BenchError("No school to reuse: run once without --reuse.")
    if not args.reuse:
        if teacher is not None:
            raise BenchError("This database already has a school: use --reuse.")
        teacher = User.objects.create_user(username=SCHOOL_TEACHER, password=None)
        size = SchoolSize(
            classes=args.classes, students=args.students, sessions=args.sessions, trials=args.trials
        )
        began = time.perf_counter()
        school_seed(teacher=teacher, size=size, seed=args.seed, progress=progress)
        result["seed_s"] = round(time.perf_counter() - began, 1)
        began = time.perf_counter()
        progress("Vacuuming and analysing the trials.")
        with connection.cursor() as cursor:
            # What autovacuum does in a running school; index-only scans need the visibility
            # map it sets, and the planner the statistics.
            cursor.execute(f"VACUUM (ANALYZE) {Trial._meta.db_table}")
        result["vacuum_s"] = round(time.perf_counter() - began, 1)
    assert teacher is not None
    school_class = SchoolClass.objects.filter(teacher=teacher).order_by("pk").first()
    if school_class is None:
        raise BenchError("The school has no class.")
    result["classes"] = SchoolClass.objects.filter(teacher=teacher).count()
    result["trials"] = trials_estimate()
    return teacher, school_class


def pages_timed(
    *, teacher: User, school_class: SchoolClass, repeat: int, result: dict[str, Any]
) -> None:
    from tests.load.page_timing import (
        download_timed,
        page_timed,
        page_timed_after,
        page_url,
        reports_build_timed,
        timing_client,
    )

    student = school_class.students.order_by("pk").first()
    assert student is not None  # every seeded class has its students
    from classroom.models import GameSession, Trial

    latest = GameSession.objects.filter(school_class=school_class).order_by("-pk").first()
    assert latest is not None  # every seeded class has played
    pages = {
        "class_overview_ms": page_url("class_overview", school_class.pk),
        "student_progress_ms": page_url("student_progress", school_class.pk, student.pk),
        "session_report_ms": page_url("session_report", latest.pk),
    }
    with timing_client(user=teacher) as client:
        for key, url in pages.items():
            result[key] = page_timed(client=client, url=url, repeat=repeat)
        # During a lesson: the latest session in play again, a page opened after each answer;
        # then the session as seeded (a school is timed again with --reuse).
        ended = latest.status
        latest.status = GameSession.Status.RUNNING
        latest.save(update_fields=["status"])
        added: list[int] = []
        for key, url in pages.items():
            result[key]["after_an_answer"] = page_timed_after(
                client=client,
                url=url,
                repeat=repeat,
                before=lambda: added.append(answer_add(student_id=student.pk, session=latest)),
            )
        Trial.objects.filter(pk__in=added).delete()
        latest.status = ended
        latest.save(update_fields=["status"])
        # The whole class's printed reports, as the task worker builds them.
        result["class_reports_build_s"] = reports_build_timed(school_class=school_class)
        # The class's trials CSV, streamed in the request: when its rows begin to arrive.
        result["class_trials_csv"] = download_timed(
            client=client, url=page_url("class_export", school_class.pk, "trials.csv")
        )


def answer_add(*, student_id: int, session: GameSession) -> int:
    """One more answer from the student in the class's latest session: a copy of their last
    trial there, one flip on (the tallies' triggers count it, as they count a live one)."""
    from django.db.models import Max

    from classroom.models import Trial

    mine = Trial.objects.filter(session=session, student_id=student_id)
    last = mine.order_by("-pk").first()
    assert last is not None  # every seeded student played every session
    next_seq = (mine.aggregate(seq=Max("log_seq"))["seq"] or 0) + 1
    last.pk = None
    last.log_seq = next_seq
    last.save(force_insert=True)
    return last.pk


def trials_estimate() -> int:
    """Every trial in the database, as the planner's statistics count them (an exact count
    of 36 M rows would take longer than the pages)."""
    from django.db import connection

    from classroom.models import Trial

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [Trial._meta.db_table],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def progress(message: str) -> None:
    # On stderr, so stdout stays one JSON line.
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


def bench(args: argparse.Namespace) -> dict[str, Any]:
    from django.db import connection

    from classroom.models import Trial
    from tests.load.page_timing import page_url

    # Fail before a minute of seeding if the pages' URLs are missing.
    page_url("class_overview", 1)
    page_url("student_progress", 1, 1)
    result: dict[str, Any] = {}
    seeded = school_seeded if args.size == "school" else class_seeded
    teacher, school_class = seeded(args, result)
    trials = Trial.objects.filter(student__school_class=school_class).count()
    result["class_trials" if args.size == "school" else "trials"] = trials
    progress("Timing the pages.")
    pages_timed(teacher=teacher, school_class=school_class, repeat=args.repeat, result=result)
    result["database"] = connection.vendor
    return result


def main(argv: list[str] | None = None) -> None:
    args = arguments(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
    import django
    from django.core.management.base import CommandError

    django.setup()
    try:
        result = bench(args)
    except (BenchError, CommandError) as error:
        sys.exit(str(error))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
