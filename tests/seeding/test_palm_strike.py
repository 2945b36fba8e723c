"""The demo seed behind the analytics benchmark: shape, timing and internal consistency."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import timezone

from classroom.models import GameSession, Seat, Trial
from games.palm_strike.matching import LEVELS
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

START = date(2025, 3, 3)  # a Monday


def _small(teacher: User, *, seed: int = 7) -> SchoolClass:
    return demo_class_seed(
        teacher=teacher, students=3, sessions=2, trials_per_session=20, seed=seed, start=START
    )


def _trials(school_class: SchoolClass) -> list[Trial]:
    return list(
        Trial.objects.filter(session__school_class=school_class)
        .select_related("session", "student")
        .order_by("session__started_at", "table__number", "log_seq", "seat__name")
    )


def _fingerprint(school_class: SchoolClass) -> list[tuple[Any, ...]]:
    """Everything the seed draws, without database keys, tokens or join codes."""
    return [
        (
            trial.student.display_name if trial.student else None,
            trial.session.started_at,
            trial.session.seed,
            trial.created_at,
            trial.log_seq,
            trial.level,
            trial.target,
            trial.responded,
            trial.congruent,
            trial.rt_ms,
            trial.correct,
            trial.plausible,
            trial.data,
        )
        for trial in _trials(school_class)
    ]


@pytest.mark.django_db
def test_shape_students_by_sessions_by_trials(teacher: User) -> None:
    school_class = _small(teacher)

    students = set(school_class.students.values_list("pk", flat=True))
    sessions = list(school_class.game_sessions.all())
    trials = _trials(school_class)
    assert len(students) == 3
    assert len(sessions) == 2
    assert len(trials) == 3 * 2 * 20
    assert {trial.student_id for trial in trials} == students
    assert {trial.session_id for trial in trials} == {session.pk for session in sessions}
    for session in sessions:
        assert session.status == GameSession.Status.ENDED
        assert session.teacher == teacher
        # Every student has a seat at a table of the session, and 20 trials there.
        seats = Seat.objects.filter(session=session)
        assert {seat.student_id for seat in seats} == students
        for seat in seats:
            assert seat.table is not None
            assert seat.table.session_id == session.pk
            assert {"seat_id": seat.pk, "name": seat.name} in seat.table.roster
            assert Trial.objects.filter(seat=seat, table=seat.table).count() == 20


@pytest.mark.django_db
def test_times_lie_inside_each_session(teacher: User) -> None:
    school_class = _small(teacher)

    sessions = list(school_class.game_sessions.order_by("started_at"))
    assert all(session.started_at and session.ended_at for session in sessions)
    days = [timezone.localdate(session.started_at) for session in sessions]
    # One session a week, on a school day, from the given week on.
    assert days[0] >= START
    assert all(day.weekday() < 5 for day in days)
    assert days[1] > days[0]
    for trial in _trials(school_class):
        session = trial.session
        assert session.started_at is not None
        assert session.ended_at is not None
        assert session.started_at <= trial.created_at <= session.ended_at
        assert timezone.localdate(trial.created_at) == timezone.localdate(session.started_at)
        assert session.created_at < session.started_at


@pytest.mark.django_db
def test_levels_progress_and_match_the_session_settings(teacher: User) -> None:
    school_class = demo_class_seed(
        teacher=teacher, students=2, sessions=6, trials_per_session=5, seed=1, start=START
    )

    sessions = list(school_class.game_sessions.order_by("started_at"))
    levels = [session.settings["level"] for session in sessions]
    assert levels == ["beginner"] * 2 + ["intermediate"] * 2 + ["advanced"] * 2
    for session in sessions:
        assert set(session.trials.values_list("level", flat=True)) == {session.settings["level"]}
    assert set(Trial.objects.values_list("level", flat=True)) <= set(LEVELS)


@pytest.mark.django_db
def test_trials_are_consistent_normal_mode_flips(teacher: User) -> None:
    school_class = _small(teacher)

    for trial in _trials(school_class):
        data = trial.data
        assert trial.game == "palm_strike"
        assert trial.kind == "palm_strike.flip"
        assert trial.target is not None
        assert trial.responded is not None
        # Normal mode: right means slapping exactly when the flip matched.
        assert trial.correct == (trial.target == trial.responded)
        # RTs exist only where there was a slap.
        assert (trial.rt_ms is not None) == trial.responded
        if not trial.responded:
            assert trial.plausible
        else:
            assert trial.plausible == (trial.rt_ms >= 100)  # type: ignore[operator]
        # The JSON mirrors the columns, with the keys the live tables store.
        assert data["level"] == trial.level
        assert data["target"] == trial.target
        assert data["responded"] == trial.responded
        assert data["congruent"] == trial.congruent
        assert data["rt_ms"] == trial.rt_ms
        assert data["correct"] == trial.correct
        assert data["plausible"] == trial.plausible
        assert data["response"] == ("slap" if trial.responded else "none")
        assert data["bot"] is False
        assert data["congruent"] == (data["public"]["word"] == data["public"]["ink"])
        assert {"bg", "word", "ink"} <= set(data["public"])
    # At most one seat wins each flip's race, and only with a plausible slap.
    winners: dict[tuple[int, int], int] = {}
    for trial in _trials(school_class):
        if trial.data["first"]:
            assert trial.responded
            assert trial.plausible
            key = (trial.table_id, trial.data["flip"])
            winners[key] = winners.get(key, 0) + 1
    assert winners
    assert set(winners.values()) == {1}


@pytest.mark.django_db
def test_statistics_look_like_a_class(teacher: User) -> None:
    # Big enough for the shares to settle, small enough to stay quick.
    school_class = demo_class_seed(
        teacher=teacher, students=8, sessions=3, trials_per_session=150, seed=3, start=START
    )

    trials = _trials(school_class)
    targets = [t for t in trials if t.target]
    foils = [t for t in trials if not t.target]
    assert 0.35 < len(targets) / len(trials) < 0.45
    assert 0.75 < sum(1 for t in targets if t.responded) / len(targets) < 0.95
    assert 0.04 < sum(1 for t in foils if t.responded) / len(foils) < 0.2
    implausible = sum(not t.plausible for t in trials) / len(trials)
    assert 0.003 < implausible < 0.02
    hits = [t.rt_ms for t in targets if t.responded and t.rt_ms and t.rt_ms >= 200]
    median = sorted(hits)[len(hits) // 2]
    assert 450 < median < 1000
    congruent = sorted(t.rt_ms for t in targets if t.rt_ms and t.rt_ms >= 200 and t.congruent)
    incongruent = sorted(
        t.rt_ms for t in targets if t.rt_ms and t.rt_ms >= 200 and t.congruent is False
    )
    stroop = incongruent[len(incongruent) // 2] - congruent[len(congruent) // 2]
    assert 20 < stroop < 120


@pytest.mark.django_db
def test_same_seed_same_class(teacher: User) -> None:
    first = _small(teacher, seed=11)
    second = _small(teacher, seed=11)
    other = _small(teacher, seed=12)

    # Each seed lands in a class of its own, under a free name.
    assert len({first.name, second.name, other.name}) == 3
    assert _fingerprint(first) == _fingerprint(second)
    assert _fingerprint(first) != _fingerprint(other)


@pytest.mark.django_db
def test_refuses_an_impossible_class(teacher: User) -> None:
    with pytest.raises(ValueError, match="students"):
        demo_class_seed(teacher=teacher, students=1)
    with pytest.raises(ValueError, match="sessions"):
        demo_class_seed(teacher=teacher, students=2, sessions=0)
