"""A child's sessions and days: read once while nothing is played, kept for IN_PLAY_FRESH_S
during a lesson whatever more they answer, and read again after it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.models import GameSession
from classroom.selectors.class_figures import IN_PLAY_FRESH_S
from classroom.selectors.student_play import student_play
from tests.classroom.trial_rows import played_session, trial_add
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import Seat, Student
    from tests.classroom.selectors.conftest import WallClock

pytestmark = pytest.mark.django_db


def _trial_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if '"classroom_trial"' in q["sql"]]


def _answers(seat: Seat, count: int, *, first_flip: int) -> None:
    for flip in range(first_flip, first_flip + count):
        trial_add(seat=seat, target=True, responded=True, rt_ms=700, flip=flip)


def _child_playing(
    teacher: User, make_session: Callable[..., GameSession], *, running: bool
) -> tuple[Student, Seat]:
    school_class = demo_class_seed(teacher=teacher, students=3, sessions=2, trials_per_session=30)
    child = school_class.students.order_by("pk").first()
    assert child is not None
    session = make_session(school_class=school_class)
    seat = played_session(session=session, students=[child])[child.pk]
    _answers(seat, 20, first_flip=1)
    if running:
        GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.RUNNING)
    return child, seat


def _trials(child: Student) -> int:
    return sum(point.measures.trials for point in student_play(student=child).sessions)


def test_with_nothing_played_since_a_visit_reads_no_trial(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    child, seat = _child_playing(teacher, make_session, running=False)
    first = student_play(student=child)
    with CaptureQueriesContext(connection) as again:
        assert student_play(student=child) == first
    assert _trial_reads(again) == []

    # Over, so every answer is read at once, window or not.
    _answers(seat, 5, first_flip=50)
    assert _trials(child) == sum(point.measures.trials for point in first.sessions) + 5


def test_during_a_lesson_more_answers_reuse_the_reading_until_the_window_passes(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    child, seat = _child_playing(teacher, make_session, running=True)
    before = _trials(child)
    _answers(seat, 7, first_flip=50)

    clock.now += IN_PLAY_FRESH_S - 1
    with CaptureQueriesContext(connection) as within:
        assert _trials(child) == before
    assert _trial_reads(within) == []

    clock.now += 2
    assert _trials(child) == before + 7


def test_a_game_and_every_game_are_kept_apart(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    child, _seat = _child_playing(teacher, make_session, running=True)
    assert student_play(student=child, game="riff_raff").sessions == []
    assert student_play(student=child).sessions != []
