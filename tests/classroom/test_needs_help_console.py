"""The console's "needs help" mark: on the teacher's live skills, with its reason; the teacher
dismisses it until a new departure; another teacher cannot; a tablet never gets it."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from classroom.selectors.analytics import session_dashboard
from classroom.selectors.live_skills import LiveSkills
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.http import HttpResponse
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db

REASON = "More mistakes than usual lately"


def _steady(seat: Seat, flips: int, start: int = 1) -> None:
    """Slaps every match (a third of the flips) and nothing else: every trial right."""
    for flip in range(start, start + flips):
        match = flip % 3 == 0
        trial_add(seat=seat, target=match, responded=match, rt_ms=650, flip=flip)


def _careless(seat: Seat, flips: int, start: int) -> None:
    """Slaps every flip: every non-match a false slap."""
    for flip in range(start, start + flips):
        trial_add(seat=seat, target=flip % 3 == 0, responded=True, rt_ms=400, flip=flip)


def _seats(session: GameSession, school_class: SchoolClass) -> dict[str, Seat]:
    students = list(school_class.students.order_by("display_name")[:2])
    seat_of = played_session(session=session, students=students)
    return {student.display_name: seat_of[student.pk] for student in students}


def _careless_ava(session: GameSession, school_class: SchoolClass) -> Seat:
    """Ava plays 30 flips steadily, then 15 carelessly: marked."""
    ava = _seats(session, school_class)["Ava"]
    _steady(ava, 30)
    _careless(ava, 15, start=31)
    return ava


def _dismiss(client: Client, seat: Seat) -> HttpResponse:
    return client.post(
        reverse("seat_action", args=[seat.session_id, seat.pk, "dismiss-help"]),
        headers={"HX-Request": "true"},
    )


def _lines(session: GameSession) -> dict[str, str]:
    return {tile.seat.name: tile.needs_help for tile in session_dashboard(session=session).tiles}


def test_a_child_turning_careless_is_marked_with_why_and_a_steady_one_is_not(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = _seats(class_session, school_class)
    ava, ben = seats["Ava"], seats["Ben"]
    _steady(ava, 30)
    _steady(ben, 45)
    assert _lines(class_session) == {"Ava": "", "Ben": ""}
    _careless(ava, 15, start=31)
    lines = _lines(class_session)
    assert lines["Ava"].startswith(REASON)
    assert "of the last 10" in lines["Ava"]
    assert lines["Ben"] == ""
    # The console's incremental read says the same.
    tiles = {t.seat.name: t for t in LiveSkills().dashboard(session=class_session).tiles}
    assert tiles["Ava"].needs_help == lines["Ava"]
    assert tiles["Ava"].struggling


def test_the_teacher_dismisses_it_until_a_new_departure(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _careless_ava(class_session, school_class)
    console = teacher_client.get(reverse("session_console", args=[class_session.pk]))
    assert REASON in html.unescape(console.content.decode())
    response = _dismiss(teacher_client, ava)
    assert response.status_code == 200
    body = html.unescape(response.content.decode())
    assert 'id="console-dashboard"' in body
    assert REASON not in body
    ava.refresh_from_db()
    assert ava.help_dismissed_at == 45
    # The same departure goes on: still dismissed.
    _careless(ava, 3, start=46)
    assert _lines(class_session)["Ava"] == ""
    # Back to steady long enough for the chart to settle, then careless again: a new one.
    _steady(ava, 60, start=49)
    assert _lines(class_session)["Ava"] == ""
    _careless(ava, 20, start=109)
    assert _lines(class_session)["Ava"].startswith(REASON)


def test_another_teacher_cannot_dismiss_it(
    client: Client,
    other_teacher: User,
    class_session: GameSession,
    school_class: SchoolClass,
) -> None:
    ava = _careless_ava(class_session, school_class)
    client.force_login(other_teacher)
    response = _dismiss(client, ava)
    assert response.status_code == 404
    ava.refresh_from_db()
    assert ava.help_dismissed_at is None
    assert _lines(class_session)["Ava"].startswith(REASON)


def test_the_projector_never_shows_it(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    _careless_ava(class_session, school_class)
    projector = teacher_client.get(reverse("session_projector", args=[class_session.pk]))
    assert projector.status_code == 200
    text = html.unescape(projector.content.decode())
    assert REASON not in text
    assert "Needs help" not in text
