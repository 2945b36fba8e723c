"""Benchmark the analytics pages on a term's worth of demo trials (prints one JSON line).

    python manage.py analytics_bench [--students 30] [--sessions 20] [--trials 200] [--repeat 5]

Seeds a demo class (of the first game whose site has a ``demo_seed``) into the *configured*
database, then times the class overview and one student's progress page through Django's
test client: server time only, no network or browser. The target is 300 ms or less per page
on SQLite.

It writes a teacher, a class and (by default) 120,000 trials and leaves them there, so run it
against a throwaway database: ``make bench-analytics`` points DATABASE_URL at a fresh SQLite
file, migrates it, runs this and deletes it.
"""

from __future__ import annotations

import json
import time
from argparse import ArgumentTypeError
from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from classroom.gamesite import game_sites
from classroom.management.page_timing import (
    download_timed,
    page_timed,
    page_url,
    reports_build_timed,
    timing_client,
)
from classroom.models import Trial
from classroom.services.tokens import token_new

if TYPE_CHECKING:
    from argparse import ArgumentParser

    from classroom.gamesite.contract import DemoSeed


def _demo_seed() -> DemoSeed:
    seed = next((site.demo_seed for site in game_sites() if site.demo_seed is not None), None)
    if seed is None:
        raise CommandError("No game has demo trials to seed.")
    return seed


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ArgumentTypeError(f"{text} is not a positive whole number")
    return value


class Command(BaseCommand):
    help = "Seed a demo class and time the class overview and student progress pages."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--students", type=positive, default=30)
        parser.add_argument("--sessions", type=positive, default=20)
        parser.add_argument("--trials", type=positive, default=200, help="per student and session")
        parser.add_argument("--repeat", type=positive, default=5, help="timed GETs per page")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        # Fail before a minute of seeding if the pages' URLs are missing.
        page_url("class_overview", 1)
        page_url("student_progress", 1, 1)
        # A fresh teacher per run, so repeated runs on one database never share a class list.
        teacher = User.objects.create_user(username=f"bench-{token_new()[:12]}", password=None)
        began = time.perf_counter()
        try:
            school_class = _demo_seed()(
                teacher=teacher,
                students=options["students"],
                sessions=options["sessions"],
                trials_per_session=options["trials"],
                seed=options["seed"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        seed_s = time.perf_counter() - began
        # Progress on stderr, so it survives a page failing below and stdout stays one line.
        self.stderr.write(f"Seeded {school_class.name} in {seed_s:.1f} s; timing the pages.")
        student = school_class.students.order_by("pk").first()
        assert student is not None  # the seed refuses fewer than two students

        pages = {
            "class_overview_ms": page_url("class_overview", school_class.pk),
            "student_progress_ms": page_url("student_progress", school_class.pk, student.pk),
        }
        result: dict[str, Any] = {
            "trials": Trial.objects.filter(student__school_class=school_class).count(),
            "seed_s": round(seed_s, 2),
        }
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
