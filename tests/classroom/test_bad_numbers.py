"""Numbers posted by a browser: "²" or a 30-digit id is a clear refusal, never a 500."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from classroom.forms.whole_numbers import whole_number_parse
from classroom.models import Seat
from classroom.services.practice_access import practice_code_open
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import GameSession, SchoolClass

# Superscript two, Arabic-Indic three, full-width one: str.isdigit() says yes to all of them.
NOT_ASCII = ["²", "٣", "１", "1²"]
NOT_NUMBERS = [*NOT_ASCII, "9" * 30, "-1", " 1", "1.0", ""]
HX = {"HX-Request": "true"}


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


@pytest.mark.parametrize("raw", NOT_NUMBERS)
def test_only_plain_ascii_digits_are_a_number(raw: str) -> None:
    assert whole_number_parse(raw) is None


@pytest.mark.parametrize(
    ("raw", "number"), [("0", 0), ("7", 7), ("0012", 12), ("9" * 18, 10**18 - 1)]
)
def test_plain_numbers_parse(raw: str, number: int) -> None:
    assert whole_number_parse(raw) == number


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_joining_with_a_strange_student_id(class_session: GameSession, raw: str) -> None:
    response = Client().post(reverse("join_session", args=[class_session.code]), {"student": raw})
    assert response.status_code == 400
    assert "Tap your name in the list." in _text(response)
    assert not Seat.objects.exists()


@pytest.fixture
def practice_open(school_class: SchoolClass) -> SchoolClass:
    # Sign-in by code works only while the teacher keeps the code open.
    return practice_code_open(school_class=school_class)


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_practice_sign_in_with_a_strange_student_id(practice_open: SchoolClass, raw: str) -> None:
    school_class = practice_open
    url = reverse("practice_sign_in_class", args=[school_class.practice_code])
    response = Client().post(url, {"student": raw})
    assert response.status_code == 400
    assert "Tap your name in the list." in _text(response)


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_practice_start_with_a_strange_assignment(practice_open: SchoolClass, raw: str) -> None:
    school_class = practice_open
    tablet = Client()
    ava = school_class.students.get(display_name="Ava")
    url = reverse("practice_sign_in_class", args=[school_class.practice_code])
    assert tablet.post(url, {"student": str(ava.pk)}).status_code == 302
    response = tablet.post(reverse("practice_start"), {"assignment": raw})
    assert response.status_code < 500
    assert "That practice was not set for you." in _text(response)
    assert not Seat.objects.exists()


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_printing_progress_for_a_strange_student(
    teacher_client: Client, school_class: SchoolClass, raw: str
) -> None:
    url = reverse("class_progress_print", args=[school_class.pk])
    response = teacher_client.get(url, {"student": raw})
    assert response.status_code == 200  # the whole class, as with no student at all


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_moving_a_seat_to_a_strange_table(
    teacher_client: Client, guest_session: GameSession, raw: str
) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat.refresh_from_db()
    url = reverse("seat_action", args=[guest_session.pk, seat.pk, "move"])
    response = teacher_client.post(url, {"table": raw}, headers=HX)
    assert response.status_code < 500
    text = _text(response)
    assert "Choose a table." in text or "There is no table" in text
    assert Seat.objects.get(pk=seat.pk).table_id == seat.table_id


@pytest.mark.parametrize("raw", [*NOT_ASCII, "9" * 30])
def test_a_strange_seat_option_value(teacher_client: Client, teacher: User, raw: str) -> None:
    session = session_create(
        teacher=teacher, game="commotion", school_class=None, players_per_table=4, settings={}
    )
    seat = seat_join_guest(session=session, nickname="Ava")
    url = reverse("seat_action", args=[session.pk, seat.pk, "option"])
    response = teacher_client.post(url, {"name": "refill", "value": raw}, headers=HX)
    assert response.status_code == 200
    assert "Choose one of the listed values." in _text(response)
    assert Seat.objects.get(pk=seat.pk).options == {}
