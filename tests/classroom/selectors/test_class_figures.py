"""A class's change and verdicts during a lesson: kept for IN_PLAY_FRESH_S whatever more is
played, worked out again after it, at once after a teacher's decision, and exactly once the
class's sessions are over."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.models import GameSession
from classroom.selectors.class_change import SPEED, class_change
from classroom.selectors.class_figures import IN_PLAY_FRESH_S
from classroom.selectors.verdicts import class_verdicts
from classroom.services.classes import student_year_group_set
from tests.classroom.trial_rows import played_session, trial_add
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Seat
    from tests.classroom.selectors.conftest import WallClock

pytestmark = pytest.mark.django_db


def _lesson(
    teacher: User, make_session: Callable[..., GameSession]
) -> tuple[SchoolClass, GameSession, Seat]:
    """A class with two sessions played, and a third in play by its first child."""
    school_class = demo_class_seed(teacher=teacher, students=6, sessions=2, trials_per_session=40)
    child = school_class.students.order_by("pk").first()
    assert child is not None
    session = make_session(school_class=school_class)
    seat = played_session(session=session, students=[child])[child.pk]
    for flip in range(1, 31):
        trial_add(seat=seat, target=flip % 2 == 0, responded=flip % 2 == 0, rt_ms=500, flip=flip)
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.RUNNING)
    return school_class, session, seat


def _slow_answers(seat: Seat, count: int) -> None:
    for flip in range(100, 100 + count):
        trial_add(seat=seat, target=True, responded=True, rt_ms=1500, flip=flip)


def _trial_reads(queries: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in queries if '"classroom_trial"' in q["sql"]]


def _speed(school_class: SchoolClass, seat: Seat) -> float:
    """The speed score of the child playing: the median RT of their latest session."""
    assert seat.student_id is not None
    found = class_verdicts(school_class=school_class)
    [speed] = [v for v in found[seat.student_id] if v.skill == SPEED]
    assert speed.score is not None
    return speed.score.value


def test_during_a_lesson_more_answers_reuse_the_class_figures_until_the_window_passes(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    school_class, _session, seat = _lesson(teacher, make_session)
    before = _speed(school_class, seat)
    change = class_change(school_class=school_class)
    _slow_answers(seat, 40)

    clock.now += IN_PLAY_FRESH_S - 1
    with CaptureQueriesContext(connection) as within:
        assert _speed(school_class, seat) == before
        assert class_change(school_class=school_class) == change
    assert _trial_reads(within) == []

    clock.now += 2
    with CaptureQueriesContext(connection) as after:
        assert _speed(school_class, seat) > before
        class_change(school_class=school_class)
    assert len(_trial_reads(after)) >= 2


def test_once_the_lesson_is_over_the_next_visit_is_exact(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    school_class, session, seat = _lesson(teacher, make_session)
    before = _speed(school_class, seat)
    _slow_answers(seat, 40)
    GameSession.objects.filter(pk=session.pk).update(status=GameSession.Status.ENDED)

    now = _speed(school_class, seat)
    assert now > before
    # The same as a visit with nothing kept at all.
    cache.clear()
    assert _speed(school_class, seat) == now


def test_a_teachers_decision_during_a_lesson_shows_at_once(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    school_class, _session, seat = _lesson(teacher, make_session)
    class_verdicts(school_class=school_class)
    _slow_answers(seat, 5)
    child = school_class.students.order_by("pk").first()
    assert child is not None
    student_year_group_set(student=child, year_group="4")

    after = class_verdicts(school_class=school_class)
    assert {v.year_group for v in after[child.pk]} == {"4"}
