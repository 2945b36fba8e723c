"""A kick sticks: the tablets that held the seat stay out of the session until let back in."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from classroom.models import Seat, SeatDevice
from classroom.people.device_cookies import DEVICE_COOKIE
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import (
    seat_join_guest,
    seat_join_student,
    seat_kick,
    seat_readmit,
    seat_resume,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db

KEPT_OUT = "Your teacher has paused your place in this game. Ask your teacher."
KEPT_OUT_ZH = "老師暫停了你在這場遊戲的位置。請問問老師。"


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _join_guest(tablet: Client, session: GameSession, nickname: str) -> TestResponse:
    return tablet.post(reverse("join_session", args=[session.code]), {"nickname": nickname})


def _in_lobby(response: TestResponse, session: GameSession) -> bool:
    """A join answered with the tablet's lobby page."""
    lobby_url = reverse("play_lobby", args=[session.code])
    return response.status_code == 200 and f'data-page-url="{lobby_url}"' in _text(response)


def _seat_of(session: GameSession, name: str) -> Seat:
    return Seat.objects.get(session=session, name=name)


# --------------------------------------------------------------------------------------------
# Services


def test_a_kicked_guests_device_cannot_join_under_another_nickname(
    guest_session: GameSession,
) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-one-000000")
    seat_kick(seat=seat)
    with pytest.raises(ValidationError) as refused:
        seat_join_guest(session=guest_session, nickname="Zed", device_id="tablet-one-000000")
    assert refused.value.messages == [KEPT_OUT]
    assert not Seat.objects.filter(session=guest_session, name="Zed").exists()
    # Another tablet in the room is not affected.
    seat_join_guest(session=guest_session, nickname="Zed", device_id="tablet-two-000000")


def test_a_kicked_pupils_device_cannot_tap_a_classmate(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    ben = school_class.students.get(display_name="Ben")
    seat_kick(
        seat=seat_join_student(session=class_session, student=ava, device_id="tablet-ava-0000")
    )
    with pytest.raises(ValidationError) as refused:
        seat_join_student(session=class_session, student=ben, device_id="tablet-ava-0000")
    assert refused.value.messages == [KEPT_OUT]
    assert not Seat.objects.filter(session=class_session, student=ben).exists()


def test_every_tablet_that_held_the_seat_is_kept_out(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    ben = school_class.students.get(display_name="Ben")
    seat_join_student(session=class_session, student=ava, device_id="first-tablet-000")
    # The badge moves the seat to a second tablet; both held it.
    seat = seat_join_student(
        session=class_session, student=ava, from_badge=True, device_id="second-tablet-00"
    )
    seat_kick(seat=seat)
    assert set(
        SeatDevice.objects.filter(kicked_at__isnull=False).values_list("device_id", flat=True)
    ) == {
        "first-tablet-000",
        "second-tablet-00",
    }
    for device in ("first-tablet-000", "second-tablet-00"):
        with pytest.raises(ValidationError):
            seat_join_student(session=class_session, student=ben, device_id=device)


def test_letting_a_pupil_back_in_lets_their_tablet_back_in(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=class_session, student=ava, device_id="tablet-ava-0000")
    seat_kick(seat=seat)
    seat_readmit(seat=Seat.objects.get(pk=seat.pk))
    again = seat_join_student(session=class_session, student=ava, device_id="tablet-ava-0000")
    assert again.pk == seat.pk
    assert not again.is_kicked
    assert (
        seat_resume(session=class_session, token=again.token, device_id="tablet-ava-0000") == again
    )


def test_letting_a_guest_back_in_lets_their_tablet_back_in(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-one-000000")
    seat_kick(seat=seat)
    seat_readmit(seat=Seat.objects.get(pk=seat.pk))
    assert not SeatDevice.objects.exists()
    seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-one-000000")


def test_a_kick_in_one_session_does_not_keep_the_tablet_out_of_another(
    make_session: object, guest_session: GameSession
) -> None:
    other = make_session()  # type: ignore[operator]
    seat_kick(
        seat=seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-00000000")
    )
    seat_join_guest(session=other, nickname="Mia", device_id="tablet-00000000")


def test_a_kept_out_tablet_cannot_resume_a_seat_it_has_a_token_for(
    guest_session: GameSession,
) -> None:
    kicked = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-one-000000")
    friend = seat_join_guest(session=guest_session, nickname="Leo", device_id="tablet-two-000000")
    seat_kick(seat=kicked)
    with pytest.raises(ValidationError) as refused:
        seat_resume(session=guest_session, token=friend.token, device_id="tablet-one-000000")
    assert refused.value.messages == [KEPT_OUT]


# --------------------------------------------------------------------------------------------
# Pages, as a tablet sees them


def test_the_join_pages_give_a_tablet_its_device_cookie_once(guest_session: GameSession) -> None:
    tablet = Client()
    tablet.get(reverse("join"))
    first = tablet.cookies[DEVICE_COOKIE].value
    assert first
    response = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert DEVICE_COOKIE not in response.cookies  # already has one: not set again
    assert tablet.cookies[DEVICE_COOKIE].value == first


def test_a_forged_device_cookie_is_replaced(guest_session: GameSession) -> None:
    tablet = Client()
    tablet.cookies[DEVICE_COOKIE] = "someone-elses-id-000"
    response = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert response.cookies[DEVICE_COOKIE].value != "someone-elses-id-000"


def test_a_kicked_guest_is_refused_kindly_and_let_back_in(
    client: Client, teacher: User, guest_session: GameSession
) -> None:
    tablet = Client()
    assert _in_lobby(_join_guest(tablet, guest_session, "Mia"), guest_session)
    client.force_login(teacher)
    seat = _seat_of(guest_session, "Mia")
    client.post(reverse("seat_action", args=[guest_session.pk, seat.pk, "kick"]))

    # The nickname form is gone: the tablet is told, kindly, before it types anything.
    page = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert page.status_code == 200
    assert KEPT_OUT in _text(page)
    assert page.context["nickname_form"] is None
    # Posting a new nickname anyway changes nothing.
    refused = _join_guest(tablet, guest_session, "Zed")
    assert KEPT_OUT in _text(refused)
    assert not Seat.objects.filter(session=guest_session, name="Zed").exists()
    # The old seat cookie does not get it in either.
    lobby = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert lobby.status_code == 403
    assert KEPT_OUT in _text(lobby)

    # The console lists the tablet kept out, with "Let back in".
    console = _text(client.get(reverse("session_console", args=[guest_session.pk])))
    assert "Tablet kept out" in console
    assert "Let back in" in console

    client.post(reverse("seat_action", args=[guest_session.pk, seat.pk, "readmit"]))
    assert _in_lobby(_join_guest(tablet, guest_session, "Zed"), guest_session)
    assert Seat.objects.filter(session=guest_session, name="Zed").exists()


def test_the_refusal_is_in_traditional_chinese_too(
    teacher: User, guest_session: GameSession
) -> None:
    tablet = Client(HTTP_ACCEPT_LANGUAGE="zh-Hant")
    assert _in_lobby(_join_guest(tablet, guest_session, "Mia"), guest_session)
    seat_kick(seat=_seat_of(guest_session, "Mia"))
    page = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert KEPT_OUT_ZH in _text(page)


def test_a_kicked_pupils_tablet_cannot_tap_an_unconnected_classmate(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    tablet = Client()
    ava = school_class.students.get(display_name="Ava")
    ben = school_class.students.get(display_name="Ben")
    url = reverse("join_session", args=[class_session.code])
    assert _in_lobby(tablet.post(url, {"student": str(ava.pk)}), class_session)
    seat_kick(seat=_seat_of(class_session, "Ava"))

    page = tablet.get(url)
    assert KEPT_OUT in _text(page)
    assert "Ben" not in _text(page)  # no names to tap
    refused = tablet.post(url, {"student": str(ben.pk)})
    assert KEPT_OUT in _text(refused)
    assert not Seat.objects.filter(session=class_session, student=ben).exists()
    assert (
        tablet.cookies[seat_cookie_name(class_session.code)].value
        == Seat.objects.get(student=ava).token
    )  # unchanged: no new seat was handed out

    # Ben's own tablet is not affected.
    assert _in_lobby(Client().post(url, {"student": str(ben.pk)}), class_session)
