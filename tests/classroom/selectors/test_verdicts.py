"""The verdicts' reads: the school's pool is kept in the cache; a teacher's decision reads it
again at the next visit, play at most every NORMS_FRESH_S, and the class's own children are
always read as they are now."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.selectors import verdicts
from classroom.selectors.class_change import SPEED
from classroom.selectors.verdicts import NORMS_FRESH_S, class_verdicts, student_verdicts
from classroom.services.classes import student_year_group_set
from tests.classroom.trial_rows import played_session, trial_add
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from django.contrib.auth.models import User

    from classroom.analytics.measures import Measures
    from classroom.models import GameSession, SchoolClass
    from tests.classroom.selectors.conftest import WallClock

pytestmark = pytest.mark.django_db


@pytest.fixture
def pool_reads(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    reads: list[str | None] = []
    real = verdicts._pool_read

    def counted(game: str | None) -> dict[tuple[str, str, str], list[verdicts.PoolEntry]]:
        reads.append(game)
        return real(game)

    monkeypatch.setattr(verdicts, "_pool_read", counted)
    return reads


def _classes(teacher: User) -> tuple[SchoolClass, SchoolClass]:
    mine = demo_class_seed(teacher=teacher, students=6, sessions=2, trials_per_session=40)
    other = demo_class_seed(teacher=teacher, students=6, sessions=2, trials_per_session=40, seed=7)
    return mine, other


def _play(
    make_session: Callable[..., GameSession], school_class: SchoolClass, *, rt_ms: int
) -> None:
    """The class's first child plays 40 more flips in a new class session, every one right."""
    child = school_class.students.order_by("pk").first()
    assert child is not None
    session = make_session(school_class=school_class)
    seat = played_session(session=session, students=[child])[child.pk]
    for flip in range(1, 41):
        match = flip % 2 == 0
        trial_add(seat=seat, target=match, responded=match, rt_ms=rt_ms, flip=flip)


def _bands(found: dict[int, list[verdicts.SkillVerdict]]) -> dict[int, list[str]]:
    return {pk: [v.verdict.band for v in found[pk]] for pk in sorted(found)}


def test_a_second_visit_reads_only_the_class_and_finds_what_the_first_did(
    teacher: User, clock: WallClock
) -> None:
    mine, _other = _classes(teacher)
    with CaptureQueriesContext(connection) as first:
        found = class_verdicts(school_class=mine)
    with CaptureQueriesContext(connection) as second:
        again = class_verdicts(school_class=mine)
    assert _bands(again) == _bands(found)
    assert [v.children for vs in again.values() for v in vs] == [
        v.children for vs in found.values() for v in vs
    ]
    # The school's runs, their accommodations and measures are not read again.
    assert len(second) < len(first) - 2, [q["sql"][:80] for q in second]


def test_a_teachers_decision_reads_the_pool_again_at_once_and_play_after_a_while(
    teacher: User,
    make_session: Callable[..., GameSession],
    clock: WallClock,
    pool_reads: list[str | None],
) -> None:
    mine, other = _classes(teacher)
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 1
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 1

    # A year group set in another class: the pool changes, read at once.
    student = other.students.order_by("pk").first()
    assert student is not None
    student_year_group_set(student=student, year_group="3")
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 2

    # More play in another class: the pool stands for NORMS_FRESH_S, then is read again.
    _play(make_session, other, rt_ms=700)
    clock.now += NORMS_FRESH_S - 1
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 2
    clock.now += 2
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 3
    # Past the time with nothing played meanwhile: found unchanged, not read again.
    clock.now += NORMS_FRESH_S * 3
    class_verdicts(school_class=mine)
    assert len(pool_reads) == 3


def test_the_class_own_children_are_read_as_they_are_now(
    teacher: User,
    make_session: Callable[..., GameSession],
    clock: WallClock,
    pool_reads: list[str | None],
) -> None:
    mine, _other = _classes(teacher)
    child = mine.students.order_by("pk").first()
    assert child is not None
    before = {v.skill: v.score for v in class_verdicts(school_class=mine)[child.pk]}
    # The child plays a new class session: their score is its figures.
    _play(make_session, mine, rt_ms=900)
    after = {v.skill: v.score for v in class_verdicts(school_class=mine)[child.pk]}
    assert len(pool_reads) == 1  # the pool as it was
    assert after != before
    assert after[SPEED] is not None
    assert after[SPEED].value == 900.0


def test_a_childs_verdicts_are_their_row_of_the_class_read_from_their_runs_alone(
    teacher: User, clock: WallClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine, _other = _classes(teacher)
    child = mine.students.order_by("pk").first()
    assert child is not None
    everyone = class_verdicts(school_class=mine)
    read: list[int] = []
    real = verdicts._measures

    def recorded(runs: Iterable[verdicts._Run]) -> dict[tuple[int, int, str], Measures]:
        runs = list(runs)
        read.extend(run.student_id for run in runs)
        return real(runs)

    monkeypatch.setattr(verdicts, "_measures", recorded)
    assert student_verdicts(student=child) == everyone[child.pk]
    assert read
    assert set(read) == {child.pk}


def test_a_visit_with_nothing_played_or_decided_reads_no_trials(
    teacher: User, make_session: Callable[..., GameSession], clock: WallClock
) -> None:
    mine, _other = _classes(teacher)
    found = class_verdicts(school_class=mine)
    with CaptureQueriesContext(connection) as again:
        assert class_verdicts(school_class=mine) == found
    trial_reads = [q["sql"] for q in again if '"classroom_trial"' in q["sql"]]
    assert trial_reads == []

    # A decision about one of the class's children places them again at once.
    child = mine.students.order_by("pk").first()
    assert child is not None
    student_year_group_set(student=child, year_group="4")
    after = class_verdicts(school_class=mine)
    assert {v.year_group for v in after[child.pk]} == {"4"}
