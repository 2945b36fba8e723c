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
import statistics
import time
import warnings
from argparse import ArgumentTypeError
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.test import Client, override_settings
from django.urls import reverse

from classroom.gamesite import game_sites
from classroom.models import Trial
from classroom.services.tokens import token_new

if TYPE_CHECKING:
    from argparse import ArgumentParser

    from classroom.gamesite.contract import DemoSeed

# The settings' ALLOWED_HOSTS always list it unless overridden; the client's default
# "testserver" would be refused outside the test runner.
HOST = "127.0.0.1"
PLAIN_STATIC_STORAGE = "django.contrib.staticfiles.storage.StaticFilesStorage"


def _demo_seed() -> DemoSeed:
    seed = next((site.demo_seed for site in game_sites() if site.demo_seed is not None), None)
    if seed is None:
        raise CommandError("No game has demo trials to seed.")
    return seed


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise ArgumentTypeError(f"{text} is not a positive whole number")
    return value


class Command(BaseCommand):
    help = "Seed a demo class and time the class overview and student progress pages."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--students", type=_positive, default=30)
        parser.add_argument("--sessions", type=_positive, default=20)
        parser.add_argument("--trials", type=_positive, default=200, help="per student and session")
        parser.add_argument("--repeat", type=_positive, default=5, help="timed GETs per page")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args: Any, **options: Any) -> None:
        # Fail before a minute of seeding if the pages' URLs are missing.
        _url("class_overview", 1)
        _url("student_progress", 1, 1)
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

        client = Client(HTTP_HOST=HOST)
        client.force_login(teacher)
        pages = {
            "class_overview_ms": _url("class_overview", school_class.pk),
            "student_progress_ms": _url("student_progress", school_class.pk, student.pk),
        }
        result: dict[str, Any] = {
            "trials": Trial.objects.filter(student__school_class=school_class).count(),
            "seed_s": round(seed_s, 2),
        }
        # The manifest storage refuses to render without `collectstatic` first; a static URL
        # costs the same dictionary lookup either way, so plain storage times the same.
        storages = {**settings.STORAGES, "staticfiles": {"BACKEND": PLAIN_STATIC_STORAGE}}
        with override_settings(STORAGES=storages), warnings.catch_warnings():
            # WhiteNoise notes the missing STATIC_ROOT once; no static file is served here.
            warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
            for key, url in pages.items():
                result[key] = _timed(client=client, url=url, repeat=options["repeat"])
        result["database"] = connection.vendor
        self.stdout.write(json.dumps(result))


def _url(name: str, *args: int) -> str:
    try:
        return reverse(name, args=args)
    except Exception as error:
        # A missing or broken view module surfaces here, when the URLconf is first loaded.
        raise CommandError(f"No URL for {name}: {type(error).__name__}: {error}") from error


def _timed(*, client: Client, url: str, repeat: int) -> dict[str, float]:
    """min / median / max milliseconds of ``repeat`` GETs, after one untimed warm-up."""
    # The warm-up fills template and URL caches, which a running server has long done.
    _get(client=client, url=url)
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        _get(client=client, url=url)
        times.append((time.perf_counter() - began) * 1000)
    return {
        "min": round(min(times), 1),
        "median": round(statistics.median(times), 1),
        "max": round(max(times), 1),
    }


def _get(*, client: Client, url: str) -> None:
    try:
        response = client.get(url)
    except Exception as error:
        # The test client re-raises a view's exception instead of answering 500.
        raise CommandError(f"GET {url} raised {type(error).__name__}: {error}") from error
    if response.status_code != 200:
        raise CommandError(f"GET {url} answered {response.status_code}, not 200")
