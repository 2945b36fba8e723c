"""Server time of a page through Django's test client, for the analytics benchmarks: no
network, no browser, after an untimed warm-up (a running server has long filled its template
and URL caches)."""

from __future__ import annotations

import contextlib
import statistics
import time
import warnings
from typing import TYPE_CHECKING, cast

from django.conf import settings
from django.core.management.base import CommandError
from django.db import connection
from django.http import StreamingHttpResponse
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from classroom.reports.progress import class_reports_context
from classroom.services.exports import REPORTS_TEMPLATE

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

# The settings' ALLOWED_HOSTS always list it unless overridden; the client's default
# "testserver" would be refused outside the test runner.
HOST = "127.0.0.1"
PLAIN_STATIC_STORAGE = "django.contrib.staticfiles.storage.StaticFilesStorage"


def page_url(name: str, *args: int | str) -> str:
    try:
        return reverse(name, args=args)
    except Exception as error:
        # A missing or broken view module surfaces here, when the URLconf is first loaded.
        raise CommandError(f"No URL for {name}: {type(error).__name__}: {error}") from error


@contextlib.contextmanager
def timing_client(*, user: User) -> Iterator[Client]:
    """A client logged in as ``user``, with settings a page can render under outside a server."""
    client = Client(HTTP_HOST=HOST)
    client.force_login(user)
    # The manifest storage refuses to render without `collectstatic` first; a static URL
    # costs the same dictionary lookup either way, so plain storage times the same.
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": PLAIN_STATIC_STORAGE}}
    with override_settings(STORAGES=storages), warnings.catch_warnings():
        # WhiteNoise notes the missing STATIC_ROOT once; no static file is served here.
        warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)
        yield client


def page_timed(*, client: Client, url: str, repeat: int) -> dict[str, float | int]:
    """min / median / max milliseconds of ``repeat`` GETs and their median CPU time, after one
    timed warm-up (``first``: what the first teacher to open the page waits, before the
    cache keeps the class's reliabilities), and the SQL queries of one GET."""
    began, began_cpu = time.perf_counter(), time.process_time()
    page_get(client=client, url=url)
    first = (time.perf_counter() - began) * 1000
    first_cpu = (time.process_time() - began_cpu) * 1000
    times = []
    cpu = []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        page_get(client=client, url=url)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
    with CaptureQueriesContext(connection) as queries:
        page_get(client=client, url=url)
    return {
        "first": round(first, 1),
        "first_cpu": round(first_cpu, 1),
        "min": round(min(times), 1),
        "median": round(statistics.median(times), 1),
        "max": round(max(times), 1),
        # This process's CPU (the page and, on SQLite, its queries): what a shared machine's
        # other work does not stretch.
        "cpu_median": round(statistics.median(cpu), 1),
        "queries": len(queries.captured_queries),
    }


def page_timed_after(
    *, client: Client, url: str, repeat: int, before: Callable[[], None]
) -> dict[str, float]:
    """min / median / max milliseconds of ``repeat`` GETs, each after ``before()`` (one more
    answer from the class: what a teacher waits during a lesson, when what the cache keeps
    of the class must be worked out again and the school's norms need not)."""
    times = []
    for _ in range(repeat):
        before()
        began = time.perf_counter()
        page_get(client=client, url=url)
        times.append((time.perf_counter() - began) * 1000)
    return {
        "min": round(min(times), 1),
        "median": round(statistics.median(times), 1),
        "max": round(max(times), 1),
    }


def page_get(*, client: Client, url: str) -> None:
    try:
        response = client.get(url)
    except Exception as error:
        # The test client re-raises a view's exception instead of answering 500.
        raise CommandError(f"GET {url} raised {type(error).__name__}: {error}") from error
    if response.status_code != 200:
        raise CommandError(f"GET {url} answered {response.status_code}, not 200")


def download_timed(*, client: Client, url: str) -> dict[str, float | int]:
    """A streamed download: milliseconds to the first chunk of rows (the header and the
    first 1,000 rows of a trials CSV), seconds to the last byte, and its size."""
    began = time.perf_counter()
    response = client.get(url)
    if response.status_code != 200 or not isinstance(response, StreamingHttpResponse):
        raise CommandError(f"GET {url} answered {response.status_code}, not a 200 stream")
    chunks = iter(cast("Iterator[bytes]", response.streaming_content))
    first = next(chunks, b"")
    first_ms = (time.perf_counter() - began) * 1000
    size = len(first) + sum(len(chunk) for chunk in chunks)
    return {
        "first_rows_ms": round(first_ms, 1),
        "whole_s": round(time.perf_counter() - began, 2),
        "bytes": size,
    }


def reports_build_timed(*, school_class: SchoolClass) -> float:
    """Seconds to build the class's printed reports (a page per student) as the task worker
    does, without writing the file."""
    began = time.perf_counter()
    students = list(school_class.students.order_by("display_name", "pk"))
    context = class_reports_context(school_class=school_class, game=None, students=students)
    render_to_string(REPORTS_TEMPLATE, context)
    return round(time.perf_counter() - began, 2)
