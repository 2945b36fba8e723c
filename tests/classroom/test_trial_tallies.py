"""TrialTally: the database keeps one row per (student, session, kind, game) equal to a count
of the trials, however they are written, changed or deleted; the pages' facts read from the
tallies are the facts the trials' own aggregate gives, to the last digit."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.db.models import Min
from django.utils import timezone

from classroom.analytics.speed import ANTICIPATION_FLOOR_MS
from classroom.management.trial_tallies import TREND_RT_FLOOR_MS
from classroom.models import GameSession, Trial, TrialTally
from classroom.selectors import analytics
from classroom.services.classes import student_remove
from tests.classroom.trial_rows import played_session, riff_raff_played, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.db.models import QuerySet

    from classroom.models import SchoolClass, Seat

pytestmark = pytest.mark.django_db


def _from_trials() -> dict[tuple[object, ...], analytics.SessionFacts]:
    """The facts as the trials' own aggregate gives them (what the pages read before), of
    the trials of a student (every page asks for a student's or a class's)."""
    return analytics._facts_by(
        Trial.objects.filter(student__isnull=False),
        by=analytics._BY_SESSION_KIND,
        group=2,
        level=Min("level"),
        game=Min("game"),
    )


def _assert_tallies_match() -> None:
    assert analytics._session_facts(TrialTally.objects.all()) == _from_trials()
    for game in ("palm_strike", "riff_raff"):
        by_tally = analytics._session_facts(TrialTally.objects.filter(game=game))
        by_trial = analytics._facts_by(
            Trial.objects.filter(student__isnull=False, game=game),
            by=analytics._BY_SESSION_KIND,
            group=2,
            level=Min("level"),
            game=Min("game"),
        )
        assert by_tally == by_trial


def test_the_trend_floor_is_the_anticipation_floor() -> None:
    assert TREND_RT_FLOOR_MS == ANTICIPATION_FLOOR_MS


def test_the_triggers_are_installed() -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = 'classroom_trial'::regclass"
            )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' "
                "AND tbl_name = 'classroom_trial'"
            )
        names = {row[0] for row in cursor.fetchall()}
    assert {
        "classroom_trial_tally_add",
        "classroom_trial_tally_changed",
        "classroom_trial_tally_deleted",
    } <= names


def test_tallies_follow_every_write_and_give_the_trials_own_facts(
    school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> None:
    rng = random.Random(11)
    students = list(school_class.students.order_by("pk"))
    sessions = [make_session(school_class=school_class) for _ in range(3)]
    start = timezone.now() - timedelta(days=3)
    for number, session in enumerate(sessions):
        seats = played_session(
            session=session, students=students, started=start + timedelta(days=number)
        )
        for seat in seats.values():
            for flip in range(rng.randint(1, 12)):
                target, responded = rng.random() < 0.4, rng.random() < 0.5
                trial_add(
                    seat=seat,
                    target=target,
                    responded=responded,
                    rt_ms=rng.choice([90, 150, 199, 200, 201, 450, 777]),
                    level=rng.choice(["beginner", "advanced"]),
                    congruent=rng.choice([True, False, None]),
                    plausible=rng.random() < 0.9,
                    at=start + timedelta(days=number, seconds=rng.randint(0, 900)),
                    flip=flip,
                )
    riff = make_session(school_class=school_class)
    seats = played_session(session=riff, students=students[:2], game="riff_raff")
    riff_raff_played(seats[students[0].pk], catch_rts=[500, None, 640], stayed=[True, False])
    riff_raff_played(seats[students[1].pk], catch_rts=[700], stayed=[True])
    _assert_tallies_match()
    assert TrialTally.objects.count() < Trial.objects.count()

    # Changed: a plausibility, an RT, a time, a level; a trial moved to another kind.
    some = list(Trial.objects.order_by("pk")[::5])
    Trial.objects.filter(pk__in=[t.pk for t in some[:3]]).update(plausible=False)
    Trial.objects.filter(pk=some[3].pk).update(rt_ms=333, responded=True, correct=True)
    Trial.objects.filter(pk=some[4].pk).update(created_at=start - timedelta(days=9))
    Trial.objects.filter(pk=some[5].pk).update(level="aaa")
    Trial.objects.filter(pk=some[6].pk).update(kind="palm_strike.team_flip")
    _assert_tallies_match()
    # The earliest trial of each group later, and a level made the largest: a MIN that a
    # row held must be found again among the trials left.
    for session in sessions:
        for student in students:
            first = Trial.objects.filter(session=session, student=student).order_by("created_at")
            if earliest := first.first():
                Trial.objects.filter(pk=earliest.pk).update(
                    created_at=start + timedelta(days=20), level="zzz"
                )
    _assert_tallies_match()
    for trial in Trial.objects.order_by("created_at")[:6]:
        trial.delete()
    _assert_tallies_match()

    # Bulk-written (one statement, as the live tables write a flip's trials).
    copies = Trial.objects.order_by("pk")[:7]
    Trial.objects.bulk_create(
        Trial(
            **{
                f.attname: getattr(trial, f.attname)
                for f in Trial._meta.concrete_fields
                if f.attname != "id"
            }
        )
        for trial in copies
    )
    _assert_tallies_match()

    # Deleted: some trials, a whole session, a student taken off the class list.
    Trial.objects.filter(pk__in=[t.pk for t in some[7:10]]).delete()
    sessions[0].delete()
    student_remove(student=students[1])
    _assert_tallies_match()
    assert not TrialTally.objects.filter(session_id=sessions[0].pk).exists()
    assert not TrialTally.objects.filter(student_id=students[1].pk).exists()

    Trial.objects.all().delete()
    assert not TrialTally.objects.exists()


class _TrialWork:
    """How much work the database does on the trials while a block runs: SQLite's virtual
    machine steps, or PostgreSQL's trial rows read in this transaction (not a time)."""

    def __init__(self) -> None:
        self.steps = 0

    def _tick(self) -> int:
        self.steps += 1
        return 0

    def __enter__(self) -> _TrialWork:
        if connection.vendor == "sqlite":
            connection.ensure_connection()
            connection.connection.set_progress_handler(self._tick, 100)
        else:
            self.steps = -self._rows_read()
        return self

    def __exit__(self, *_exc: object) -> None:
        if connection.vendor == "sqlite":
            connection.connection.set_progress_handler(None, 0)
        else:
            self.steps += self._rows_read()

    @staticmethod
    def _rows_read() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT COALESCE(seq_tup_read, 0) + COALESCE(idx_tup_fetch, 0) "
                "FROM pg_stat_xact_user_tables WHERE relname = 'classroom_trial'"
            )
            row = cursor.fetchone()
        return int(row[0]) if row else 0


def _group_played(seat: Seat, size: int) -> None:
    """``size`` trials of one (student, session, kind, game), one a second."""
    start = timezone.now() - timedelta(days=1)
    trials = [
        trial_add(seat=seat, target=flip % 3 == 0, responded=flip % 2 == 0, rt_ms=300 + flip,
                  level=("beginner", "advanced")[flip % 2], flip=flip)
        for flip in range(size)
    ]  # fmt: skip
    for offset, trial in enumerate(trials):
        trial.created_at = start + timedelta(seconds=offset)
    Trial.objects.bulk_update(trials, ["created_at"])


def _work_per_trial(
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
    size: int,
    change: Callable[[QuerySet[Trial]], object],
) -> float:
    """The work per trial of taking a group of ``size`` trials out oldest first, ten trials
    a statement (as the purges' batches do), by ``change``."""
    session = make_session(school_class=school_class)
    student = school_class.students.order_by("pk").first()
    assert student is not None
    seat = played_session(session=session, students=[student])[student.pk]
    _group_played(seat, size)
    oldest_first = list(
        Trial.objects.filter(session=session).order_by("created_at").values_list("pk", flat=True)
    )
    with _TrialWork() as work:
        for start in range(0, size, 10):
            change(Trial.objects.filter(pk__in=oldest_first[start : start + 10]))
    _assert_tallies_match()
    return work.steps / size


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda rows: rows.delete(), id="deleted"),
        pytest.param(lambda rows: rows.update(student=None), id="student-removed"),
        pytest.param(
            lambda rows: rows.update(created_at=timezone.now(), level="zzz"), id="changed"
        ),
    ],
)
def test_taking_trials_out_oldest_first_costs_the_same_per_trial_whatever_the_group_size(
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
    change: Callable[[QuerySet[Trial]], object],
) -> None:
    """A purge deletes a session's trials oldest first, each the earliest of its group: the
    tally must find its new earliest time without counting the group again (a group counted
    once per trial is a 15,000-trial session holding the write lock for seconds)."""
    _assert_tallies_match()
    small = _work_per_trial(school_class, make_session, 60, change)
    large = _work_per_trial(school_class, make_session, 480, change)
    assert large < 2 * small, (small, large)
