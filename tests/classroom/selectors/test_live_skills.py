"""A console's live skills, read incrementally, equal the whole session's read every time."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.models import Trial
from classroom.selectors.analytics import Dashboard, session_dashboard
from classroom.selectors.live_skills import LiveSkills
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db


def _as_compared(dashboard: Dashboard) -> tuple[object, ...]:
    # The class's RTs go into a histogram: their order carries nothing.
    return (
        dashboard.tiles,
        sorted(dashboard.class_rts),
        dashboard.class_accuracy,
        dashboard.headline_label,
        dashboard.more,
    )


def _some_trials(seats: list[Seat], rng: random.Random, count: int) -> None:
    for _ in range(count):
        target, responded = rng.random() < 0.5, rng.random() < 0.6
        trial_add(
            seat=rng.choice(seats),
            target=target,
            responded=responded,
            rt_ms=rng.choice([60, 250, 380, 420, 500, 640, 900, 1500]),
            congruent=rng.choice([True, False, None]),
            plausible=rng.random() < 0.9,
        )


def _seats(session: GameSession, school_class: SchoolClass) -> list[Seat]:
    students = list(school_class.students.all()[:4])
    return list(played_session(session=session, students=students).values())


def test_each_draw_equals_the_whole_sessions_read_and_reads_only_whats_new(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats, rng, skills = _seats(class_session, school_class), random.Random(7), LiveSkills()
    assert skills.dashboard(session=class_session).tiles == []  # nothing played yet
    for draw in range(6):
        _some_trials(seats, rng, count=rng.randint(0, 25))
        class_session.refresh_from_db()
        assert _as_compared(skills.dashboard(session=class_session)) == _as_compared(
            session_dashboard(session=class_session)
        ), f"draw {draw}"
    # Trials were added between draws, yet only the first draw with trials read them all.
    assert skills.full_reads <= 2


def test_a_draw_reads_no_row_it_read_before(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats, skills = _seats(class_session, school_class), LiveSkills()
    _some_trials(seats, random.Random(1), count=200)
    skills.dashboard(session=class_session)
    trial_add(seat=seats[0], target=True, responded=True, rt_ms=480)
    with CaptureQueriesContext(connection) as queries:
        dashboard = skills.dashboard(session=class_session)
    rows = [query["sql"] for query in queries.captured_queries if '"rt_ms"' in query["sql"]]
    # The one query that reads RTs asks only for trials after the last one read.
    assert len(rows) == 1
    assert '"classroom_trial"."id" >' in rows[0]
    assert _as_compared(dashboard) == _as_compared(session_dashboard(session=class_session))


def test_a_trial_that_commits_late_under_a_lower_id_or_a_deleted_one_is_caught_next_draw(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats, rng, skills = _seats(class_session, school_class), random.Random(3), LiveSkills()
    _some_trials(seats, rng, count=30)
    skills.dashboard(session=class_session)
    reads = skills.full_reads

    # A trial with an id below the last one read (another process's, committed late).
    lowest = Trial.objects.filter(session=class_session).order_by("pk").first()
    assert lowest is not None
    late = trial_add(seat=seats[1], target=True, responded=True, rt_ms=333)
    Trial.objects.filter(pk=late.pk).update(id=lowest.pk - 1)
    assert _as_compared(skills.dashboard(session=class_session)) == _as_compared(
        session_dashboard(session=class_session)
    )
    assert skills.full_reads == reads + 1

    Trial.objects.filter(seat=seats[2]).delete()
    assert _as_compared(skills.dashboard(session=class_session)) == _as_compared(
        session_dashboard(session=class_session)
    )
    assert skills.full_reads == reads + 2


def test_a_console_moved_to_another_session_starts_again(
    class_session: GameSession,
    school_class: SchoolClass,
    make_session: object,
) -> None:
    seats, skills = _seats(class_session, school_class), LiveSkills()
    _some_trials(seats, random.Random(5), count=20)
    skills.dashboard(session=class_session)
    assert callable(make_session)
    other = make_session(school_class=school_class)
    other_seats = _seats(other, school_class)
    _some_trials(other_seats, random.Random(6), count=20)
    other.refresh_from_db()
    assert _as_compared(skills.dashboard(session=other)) == _as_compared(
        session_dashboard(session=other)
    )
