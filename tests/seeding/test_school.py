"""The school seed behind ``make bench-analytics-school``: a year of trials in SQL, linked and
plausible, on a real PostgreSQL (a throwaway database, through the benchmark's script)."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

import dj_database_url
import psycopg
import pytest

from classroom.management.trial_tallies import COLUMNS, COUNT_SQL
from tests.seeding.school import school_days, table_sizes
from tests.services import POSTGRES_URL, require

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[2]


def test_school_days_are_the_last_weekdays_before_the_day() -> None:
    days = school_days(count=6, before=date(2026, 12, 2))  # a Wednesday
    assert days == [
        date(2026, 11, 24),
        date(2026, 11, 25),
        date(2026, 11, 26),
        date(2026, 11, 27),
        date(2026, 11, 30),
        date(2026, 12, 1),
    ]


@pytest.mark.parametrize(
    ("students", "sizes"), [(30, [4, 4, 4, 4, 4, 4, 3, 3]), (4, [4]), (5, [3, 2])]
)
def test_tables_seat_everyone_at_most_four_sizes_within_one(
    students: int, sizes: list[int]
) -> None:
    assert table_sizes(students) == sizes


def _admin() -> psycopg.Connection[Any]:
    return psycopg.connect(POSTGRES_URL.replace("postgres://", "postgresql://"), autocommit=True)


@pytest.fixture
def database_url() -> Iterator[str]:
    require("postgres")
    name = f"snapclass_school_{secrets.token_hex(4)}"
    with _admin() as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    config = dj_database_url.parse(POSTGRES_URL)
    url = POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    assert config["HOST"]
    try:
        yield url
    finally:
        with _admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(url: str, *args: str) -> str:
    return _run(url, "manage.py", *args)


def _run(url: str, script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, script, *args],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _rows(url: str, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(url.replace("postgres://", "postgresql://")) as db:
        return db.execute(query).fetchall()


def _tallies_differ(url: str) -> int:
    """Rows of the tallies that a fresh count of the trials does not have, and back."""
    counted = COUNT_SQL.format(source="classroom_trial", where="TRUE")
    kept = f"SELECT {COLUMNS} FROM classroom_trialtally"  # noqa: S608 (constants)
    ((differ,),) = _rows(
        url,
        f"SELECT count(*) FROM (({kept} EXCEPT {counted}) UNION ALL "  # noqa: S608
        f"({counted} EXCEPT {kept})) AS d",
    )
    return int(differ)


def test_a_small_school_is_linked_plausible_and_timed(database_url: str) -> None:
    _manage(database_url, "migrate", "--noinput", "-v0")
    out = _run(
        database_url,
        "tests/load/bench_analytics.py",
        *("--size", "school"),
        *("--classes", "2", "--students", "5", "--sessions", "6", "--trials", "40"),
        *("--repeat", "1"),
    )
    result = json.loads(out)
    assert result["classes"] == 2
    assert result["class_trials"] == 5 * 6 * 40
    assert {"class_overview_ms", "student_progress_ms", "class_reports_build_s"} <= set(result)
    # The class's trials CSV streamed: its rows, each on a line, after the header.
    csv_file = result["class_trials_csv"]
    assert csv_file["bytes"] > 5 * 6 * 40 * 50
    assert csv_file["first_rows_ms"] <= csv_file["whole_s"] * 1000

    # Every trial's links agree: its seat is in its session, at its table, of its student.
    (broken,) = _rows(
        database_url,
        "SELECT count(*) FROM classroom_trial t JOIN classroom_seat s ON s.id = t.seat_id "
        "JOIN classroom_gamesession g ON g.id = t.session_id "
        "JOIN classroom_student st ON st.id = t.student_id "
        "WHERE s.session_id <> t.session_id OR s.table_id <> t.table_id "
        "OR s.student_id <> t.student_id OR g.school_class_id <> st.school_class_id "
        "OR t.created_at NOT BETWEEN g.started_at AND g.ended_at",
    )
    assert broken == (0,)
    (shape,) = _rows(
        database_url,
        "SELECT count(*), count(DISTINCT session_id), count(DISTINCT student_id), "
        "count(DISTINCT (session_id, student_id)) FROM classroom_trial",
    )
    assert shape == (2 * 5 * 6 * 40, 12, 10, 60)
    # One seat per student per session, the class reseated at tables of at most four.
    (seats,) = _rows(
        database_url,
        "SELECT count(*), max(n) FROM (SELECT table_id, count(*) AS n FROM classroom_seat "
        "GROUP BY table_id) AS t",
    )
    assert seats == (2 * 6 * 2, 3)

    # Values a class could have played: right is a response matching the target, RTs only
    # with a response, implausible ones under the floor, levels in order through the year.
    (wrong,) = _rows(
        database_url,
        "SELECT count(*) FROM classroom_trial WHERE correct <> (target = responded) "
        "OR (rt_ms IS NULL) = responded OR (NOT plausible AND rt_ms >= 100) "
        "OR (data->>'rt_ms')::int IS DISTINCT FROM rt_ms OR data->>'level' <> level",
    )
    assert wrong == (0,)
    (rates,) = _rows(
        database_url,
        "SELECT avg(target::int), avg(correct::int), "
        "percentile_cont(0.5) WITHIN GROUP (ORDER BY rt_ms) FILTER (WHERE correct AND plausible)"
        " FROM classroom_trial",
    )
    target_share, accuracy, median_rt = rates
    assert 0.3 < target_share < 0.5
    assert 0.8 < accuracy < 0.97
    assert 450 < median_rt < 900
    levels = _rows(
        database_url,
        "SELECT min(level) FROM classroom_trial t JOIN classroom_gamesession g "
        "ON g.id = t.session_id GROUP BY g.school_class_id, g.started_at ORDER BY 1",
    )
    assert {level for (level,) in levels} == {"beginner", "intermediate", "advanced"}

    # The indexes dropped for the insert are all back.
    indexes = {name for (name,) in _rows(
        database_url, "SELECT indexname FROM pg_indexes WHERE tablename = 'classroom_trial'"
    )}  # fmt: skip
    assert {
        "trial_student_session_kind",
        "trial_student_rung",
        "trial_student_extra_time",
    } <= indexes
    assert len(indexes) == 15

    # The tallies, counted by the seed (its insert had the triggers off), and then kept by
    # PostgreSQL's statement triggers through a change, a delete and an insert.
    assert _tallies_differ(database_url) == 0
    (tallies,) = _rows(database_url, "SELECT count(*) FROM classroom_trialtally")
    assert tallies == (2 * 5 * 6,)
    with psycopg.connect(database_url.replace("postgres://", "postgresql://")) as db:
        db.execute("UPDATE classroom_trial SET plausible = NOT plausible WHERE id % 7 = 0")
        db.execute("UPDATE classroom_trial SET student_id = NULL WHERE id % 101 = 0")
        db.execute("DELETE FROM classroom_trial WHERE id % 13 = 0")
        db.execute(
            "INSERT INTO classroom_trial (session_id, table_id, seat_id, student_id, log_seq, "
            "game, kind, level, target, responded, congruent, rt_ms, correct, plausible, data, "
            "created_at) SELECT session_id, table_id, seat_id, student_id, log_seq, game, "
            "'other.kind', level, target, responded, congruent, rt_ms, correct, plausible, "
            "data, created_at - interval '1 hour' FROM classroom_trial WHERE id % 11 = 0"
        )
    assert _tallies_differ(database_url) == 0
