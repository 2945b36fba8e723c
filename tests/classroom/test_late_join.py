"""Late join off: newcomers are turned away once the game has started; seated students are not."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest, seat_join_student, seat_resume
from classroom.services.sessions import session_controls_update, session_start

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass

LATE = "This game has already started, so new players can't join it."


def _closed(session: GameSession) -> GameSession:
    session_controls_update(session=session, late_join=False)
    return session


def test_a_latecomer_is_refused_once_the_game_started(guest_session: GameSession) -> None:
    _closed(guest_session)
    seat_join_guest(session=guest_session, nickname="Ava")  # the lobby still takes anyone
    session_start(session=guest_session)
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Zed")
    assert LATE in caught.value.messages[0]


def test_with_late_join_on_a_latecomer_still_gets_a_table(guest_session: GameSession) -> None:
    seat_join_guest(session=guest_session, nickname="Ava")
    session_start(session=guest_session)
    latecomer = seat_join_guest(session=guest_session, nickname="Zed")
    assert latecomer.table is not None


def test_a_seated_student_comes_back_after_the_start(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=_closed(class_session), student=ava)
    session_start(session=class_session)
    # Another tablet, by roster tap or badge, and a reload: all the same seat.
    again = seat_join_student(session=class_session, student=ava)
    assert again.pk == seat.pk
    assert seat_resume(session=class_session, token=again.token).pk == seat.pk
    ben = school_class.students.get(display_name="Ben")
    with pytest.raises(ValidationError):
        seat_join_student(session=class_session, student=ben)


def test_the_guest_join_page_says_so_before_a_name_is_typed(guest_session: GameSession) -> None:
    seat_join_guest(session=_closed(guest_session), nickname="Ava")
    session_start(session=guest_session)
    response = Client().get(reverse("join_session", args=[guest_session.code]))
    text = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert LATE in text
    assert 'name="nickname"' not in text


def test_a_latecomer_tapping_their_name_is_told_kindly(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seat_join_student(
        session=_closed(class_session), student=school_class.students.get(display_name="Ava")
    )
    session_start(session=class_session)
    ben = school_class.students.get(display_name="Ben")
    response = Client().post(
        reverse("join_session", args=[class_session.code]), {"student": str(ben.pk)}
    )
    assert response.status_code == 400
    assert LATE in html.unescape(response.content.decode())


def test_a_seated_guest_on_the_same_tablet_goes_straight_back(guest_session: GameSession) -> None:
    tablet = Client()
    tablet.post(reverse("join_session", args=[guest_session.code]), {"nickname": "Ava"})
    _closed(guest_session)
    session_start(session=guest_session)
    response = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("play_lobby", args=[guest_session.code])
    assert tablet.cookies[seat_cookie_name(guest_session.code)].value
