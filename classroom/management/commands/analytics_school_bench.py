"""Benchmark the analytics pages on a school's year of trials (prints one JSON line).

    python manage.py analytics_school_bench [--classes 30] [--students 30] [--sessions 200]
        [--trials 200] [--repeat 5] [--reuse]

Seeds ``--classes`` classes of ``--students`` students, each with ``--sessions`` sessions of
``--trials`` flips (36 M trials by default) into the *configured* PostgreSQL database with one
``INSERT … SELECT`` per class (``classroom.management.school_seed``), vacuums and analyses the
trials as autovacuum would in a running school, then times the first class's overview and its
first student's progress page through Django's test client (server time, as
``analytics_bench``). The target is 300 ms or less per page.

Seeding 36 M trials takes the better part of an hour, so ``--reuse`` times the school an
earlier run left in the database instead (its own teacher is found by name).
``make bench-analytics-school`` creates a throwaway database, runs this, and drops it.
"""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from classroom.management.commands.analytics_bench import positive
from classroom.management.page_timing import (
    download_timed,
    page_timed,
    page_url,
    reports_build_timed,
    timing_client,
)
from classroom.management.school_seed import SchoolSize, school_seed
from classroom.models import SchoolClass, Trial

if TYPE_CHECKING:
    from argparse import ArgumentParser

TEACHER = "school-bench"


class Command(BaseCommand):
    help = "Seed a school's year of trials (PostgreSQL) and time the analytics pages."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--classes", type=positive, default=30)
        parser.add_argument("--students", type=positive, default=30)
        parser.add_argument("--sessions", type=positive, default=200)
        parser.add_argument("--trials", type=positive, default=200, help="per student and session")
        parser.add_argument("--repeat", type=positive, default=5, help="timed GETs per page")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--reuse", action="store_true", help="time the school already seeded, seed nothing"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("A school is seeded on PostgreSQL only (set DATABASE_URL).")
        page_url("class_overview", 1)
        page_url("student_progress", 1, 1)
        result: dict[str, Any] = {}
        if options["reuse"]:
            teacher = User.objects.filter(username=TEACHER).first()
            if teacher is None:
                raise CommandError("No school to reuse: run once without --reuse.")
        else:
            if User.objects.filter(username=TEACHER).exists():
                raise CommandError("This database already has a school: use --reuse.")
            teacher = User.objects.create_user(username=TEACHER, password=None)
            size = SchoolSize(
                classes=options["classes"],
                students=options["students"],
                sessions=options["sessions"],
                trials=options["trials"],
            )
            began = time.perf_counter()
            school_seed(teacher=teacher, size=size, seed=options["seed"], progress=self._progress)
            result["seed_s"] = round(time.perf_counter() - began, 1)
            began = time.perf_counter()
            self._progress("Vacuuming and analysing the trials.")
            with connection.cursor() as cursor:
                # What autovacuum does in a running school; index-only scans need the
                # visibility map it sets, and the planner the statistics.
                cursor.execute(f"VACUUM (ANALYZE) {Trial._meta.db_table}")
            result["vacuum_s"] = round(time.perf_counter() - began, 1)
        school_class = SchoolClass.objects.filter(teacher=teacher).order_by("pk").first()
        if school_class is None:
            raise CommandError("The school has no class.")
        student = school_class.students.order_by("pk").first()
        assert student is not None  # class_create gave every class its students
        result["classes"] = SchoolClass.objects.filter(teacher=teacher).count()
        result["trials"] = _trials_estimate()
        result["class_trials"] = Trial.objects.filter(student__school_class=school_class).count()
        pages = {
            "class_overview_ms": page_url("class_overview", school_class.pk),
            "student_progress_ms": page_url("student_progress", school_class.pk, student.pk),
        }
        self._progress("Timing the pages.")
        with timing_client(user=teacher) as client:
            for key, url in pages.items():
                result[key] = page_timed(client=client, url=url, repeat=options["repeat"])
            # The whole class's printed reports, as the task worker builds them.
            result["class_reports_build_s"] = reports_build_timed(school_class=school_class)
            # The class's trials CSV, streamed in the request: when its rows begin to arrive.
            result["class_trials_csv"] = download_timed(
                client=client, url=page_url("class_export", school_class.pk, "trials.csv")
            )
        result["database"] = connection.vendor
        self.stdout.write(json.dumps(result))

    def _progress(self, message: str) -> None:
        # On stderr, so stdout stays one JSON line.
        self.stderr.write(f"{time.strftime('%H:%M:%S')} {message}")


def _trials_estimate() -> int:
    """Every trial in the database, as the planner's statistics count them (an exact count
    of 36 M rows would take longer than the pages)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples::bigint FROM pg_class WHERE oid = %s::regclass",
            [Trial._meta.db_table],
        )
        row = cursor.fetchone()
    return int(row[0]) if row else 0
