"""Practice sign-ins and the class's practice code window (issue 15 §1): a code sign-in is
weaker than a badge, lasts only while the teacher keeps the code open, and a new code or a
new badge signs out the tablets that came in with the old one."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from classroom.events import Event, SeatRevoked
from classroom.models import GameSession, PracticeSignIn, SchoolClass, Seat
from classroom.selectors.practice_access import (
    practice_code_is_open,
    practice_seat_problem,
    practice_sign_in_check,
)
from classroom.services import practice_access
from classroom.services.classes import student_token_rotate
from classroom.services.practice import practice_start
from classroom.services.practice_access import (
    practice_code_close,
    practice_code_open,
    practice_code_rotate,
    practice_sign_in_by_badge,
    practice_sign_in_by_code,
)
from classroom.services.seats import seat_join_badge, seat_join_student, seat_resume

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from classroom.models import Student

pytestmark = pytest.mark.django_db

TAIPEI = ZoneInfo("Asia/Taipei")
CLOSED = "Practice with the class code is closed right now."
NEW_CODE = "Your class has a new practice code."
NEW_BADGE = "Your badge was replaced, so this tablet is signed out."


@pytest.fixture(autouse=True)
def _in_english() -> Iterator[None]:
    # The messages are checked in English, whatever language an earlier test left active.
    with translation.override("en"):
        yield


def _student(school_class: SchoolClass, name: str) -> Student:
    return school_class.students.get(display_name=name)


def _fresh(school_class: SchoolClass) -> SchoolClass:
    return SchoolClass.objects.get(pk=school_class.pk)


@pytest.fixture
def revoked(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Every seat whose game sockets were told to stop, with the reason they were given."""
    calls: list[tuple[int, str]] = []
    publish = practice_access.event_publish

    def published(*, event: Event) -> None:
        if isinstance(event, SeatRevoked):
            calls.append((event.seat_id, event.reason))
        else:
            publish(event=event)

    monkeypatch.setattr(practice_access, "event_publish", published)
    return calls


def test_a_new_class_has_code_sign_in_closed(school_class: SchoolClass) -> None:
    assert school_class.practice_code_open_until is None
    assert not practice_code_is_open(school_class=school_class)
    with pytest.raises(ValidationError) as caught:
        practice_sign_in_by_code(school_class=school_class, student=_student(school_class, "Ava"))
    assert CLOSED in " ".join(caught.value.messages)
    assert not PracticeSignIn.objects.exists()


def test_the_code_opens_for_one_hour_by_default(school_class: SchoolClass) -> None:
    now = timezone.now()
    practice_code_open(school_class=school_class, now=now)
    school_class = _fresh(school_class)
    assert school_class.practice_code_open_until == now + timedelta(hours=1)
    assert practice_code_is_open(school_class=school_class, now=now + timedelta(minutes=59))
    assert not practice_code_is_open(school_class=school_class, now=now + timedelta(minutes=60))


def test_until_the_end_of_the_school_day_in_the_teachers_time(
    school_class: SchoolClass,
) -> None:
    morning = datetime(2026, 12, 1, 9, 0, tzinfo=TAIPEI)
    with timezone.override(TAIPEI):
        practice_code_open(
            school_class=school_class, open_for="day", school_day_ends=time(15, 30), now=morning
        )
    school_class = _fresh(school_class)
    assert school_class.practice_code_open_until == datetime(2026, 12, 1, 15, 30, tzinfo=TAIPEI)
    assert school_class.school_day_ends == time(15, 30)  # remembered for next time


def test_a_school_day_already_over_is_refused_and_changes_nothing(
    school_class: SchoolClass,
) -> None:
    evening = datetime(2026, 12, 1, 18, 0, tzinfo=TAIPEI)
    with timezone.override(TAIPEI), pytest.raises(ValidationError) as caught:
        practice_code_open(
            school_class=school_class, open_for="day", school_day_ends=time(15, 30), now=evening
        )
    assert "The school day ended at" in " ".join(caught.value.messages)
    school_class = _fresh(school_class)
    assert school_class.practice_code_open_until is None
    assert school_class.school_day_ends == time(16, 0)


def test_a_length_that_is_not_offered_is_refused(school_class: SchoolClass) -> None:
    with pytest.raises(ValidationError):
        practice_code_open(school_class=school_class, open_for="week")
    assert _fresh(school_class).practice_code_open_until is None


def test_a_code_sign_in_ends_when_the_hour_is_over(school_class: SchoolClass) -> None:
    now = timezone.now()
    practice_code_open(school_class=school_class, now=now)
    sign_in = practice_sign_in_by_code(
        school_class=school_class, student=_student(school_class, "Ava"), now=now
    )
    assert sign_in.token != sign_in.student.token
    assert practice_sign_in_check(token=sign_in.token, now=now).sign_in == sign_in
    later = practice_sign_in_check(token=sign_in.token, now=now + timedelta(hours=1))
    assert later.sign_in is None
    assert CLOSED in later.problem


def test_reopening_the_code_does_not_bring_old_tablets_back(school_class: SchoolClass) -> None:
    now = timezone.now()
    practice_code_open(school_class=school_class, now=now)
    sign_in = practice_sign_in_by_code(
        school_class=school_class, student=_student(school_class, "Ava"), now=now
    )
    tomorrow = now + timedelta(days=1)
    practice_code_open(school_class=school_class, now=tomorrow)
    assert practice_sign_in_check(token=sign_in.token, now=tomorrow).sign_in is None


def test_keeping_an_open_code_open_keeps_its_tablets(school_class: SchoolClass) -> None:
    now = timezone.now()
    practice_code_open(school_class=school_class, now=now)
    sign_in = practice_sign_in_by_code(
        school_class=school_class, student=_student(school_class, "Ava"), now=now
    )
    later = now + timedelta(minutes=50)
    practice_code_open(school_class=school_class, now=later)
    check = practice_sign_in_check(token=sign_in.token, now=later + timedelta(minutes=30))
    assert check.sign_in == sign_in


def test_closing_signs_out_code_tablets_and_stops_their_games_but_not_badges(
    school_class: SchoolClass, revoked: list[tuple[int, str]]
) -> None:
    practice_code_open(school_class=school_class)
    ava, ben = _student(school_class, "Ava"), _student(school_class, "Ben")
    by_code = practice_sign_in_by_code(school_class=school_class, student=ava)
    seat = practice_start(student=ava, game="commotion", sign_in=by_code)
    by_badge = practice_sign_in_by_badge(student=ben)
    badge_seat = practice_start(student=ben, game="commotion", sign_in=by_badge)

    assert practice_code_close(school_class=school_class) == 1

    assert not practice_code_is_open(school_class=_fresh(school_class))
    check = practice_sign_in_check(token=by_code.token)
    assert check.sign_in is None
    assert CLOSED in check.problem
    assert practice_sign_in_check(token=by_badge.token).sign_in == by_badge
    stopped = Seat.objects.get(pk=seat.pk)
    assert stopped.token != seat.token
    assert stopped.session.status == GameSession.Status.ENDED
    assert revoked == [(seat.pk, practice_access.PRACTICE_CLOSED)]
    assert Seat.objects.get(pk=badge_seat.pk).token == badge_seat.token


def test_a_new_code_signs_out_tablets_of_the_old_one(
    school_class: SchoolClass, revoked: list[tuple[int, str]]
) -> None:
    practice_code_open(school_class=school_class)
    old_code = school_class.practice_code
    sign_in = practice_sign_in_by_code(
        school_class=school_class, student=_student(school_class, "Ava")
    )
    rotated, signed_out = practice_code_rotate(school_class=school_class)
    assert signed_out == 1
    assert rotated.practice_code != old_code
    assert _fresh(school_class).practice_code == rotated.practice_code
    assert practice_code_is_open(school_class=rotated)  # still open, with the new code
    check = practice_sign_in_check(token=sign_in.token)
    assert check.sign_in is None
    assert NEW_CODE in check.problem


def test_a_practice_game_from_a_code_sign_in_stops_when_the_window_passes(
    school_class: SchoolClass,
) -> None:
    now = timezone.now()
    practice_code_open(school_class=school_class, now=now)
    ava = _student(school_class, "Ava")
    sign_in = practice_sign_in_by_code(school_class=school_class, student=ava, now=now)
    seat = practice_start(student=ava, game="commotion", sign_in=sign_in)
    assert practice_seat_problem(seat=seat, now=now) == ""
    assert CLOSED in practice_seat_problem(seat=seat, now=now + timedelta(hours=2))
    SchoolClass.objects.filter(pk=school_class.pk).update(
        practice_code_open_until=timezone.now() - timedelta(seconds=1)
    )
    with pytest.raises(ValidationError) as caught:
        seat_resume(session=seat.session, token=seat.token)
    assert CLOSED in " ".join(caught.value.messages)


def test_a_new_badge_signs_out_every_tablet_that_used_it(
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
    revoked: list[tuple[int, str]],
) -> None:
    ava = _student(school_class, "Ava")
    practice_code_open(school_class=school_class)
    badge_sign_in = practice_sign_in_by_badge(student=ava)
    practice_seat = practice_start(student=ava, game="commotion", sign_in=badge_sign_in)
    code_sign_in = practice_sign_in_by_code(school_class=school_class, student=ava)
    session = make_session(school_class=school_class)
    class_seat = seat_join_badge(token=ava.token)
    assert class_seat.via_badge

    student_token_rotate(student=ava)

    check = practice_sign_in_check(token=badge_sign_in.token)
    assert check.sign_in is None
    assert NEW_BADGE in check.problem
    # The code sign-in never used the badge: the code's own window decides for it.
    assert practice_sign_in_check(token=code_sign_in.token).sign_in == code_sign_in
    assert Seat.objects.get(pk=class_seat.pk).token != class_seat.token
    assert not Seat.objects.get(pk=class_seat.pk).via_badge
    with pytest.raises(ValidationError):
        seat_resume(session=session, token=class_seat.token)
    ended = Seat.objects.get(pk=practice_seat.pk)
    assert ended.token != practice_seat.token
    assert ended.session.status == GameSession.Status.ENDED
    assert sorted(revoked) == sorted(
        [
            (practice_seat.pk, practice_access.BADGE_REPLACED),
            (class_seat.pk, practice_access.BADGE_REPLACED),
        ]
    )


def test_a_new_badge_leaves_a_seat_taken_by_a_roster_tap(
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
    revoked: list[tuple[int, str]],
) -> None:
    ava = _student(school_class, "Ava")
    session = make_session(school_class=school_class)
    seat = seat_join_student(session=session, student=ava)
    assert not seat.via_badge
    student_token_rotate(student=ava)
    assert Seat.objects.get(pk=seat.pk).token == seat.token
    assert revoked == []


def test_a_roster_tap_after_a_badge_scan_is_no_longer_the_badges(
    school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> None:
    ava = _student(school_class, "Ava")
    make_session(school_class=school_class)
    seat = seat_join_badge(token=ava.token)
    again = seat_join_student(session=seat.session, student=ava)
    assert not again.via_badge
