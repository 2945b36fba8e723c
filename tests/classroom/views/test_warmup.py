"""The warm-up and the device report of a seated tablet, through the test client: when the
warm-up is asked, what it stores, and bad reports refused without a change."""

from __future__ import annotations

import html
from decimal import Decimal
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from classroom.models import Device, GameSession, Seat, Warmup
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.classes import student_practice_warmup_set
from classroom.services.seats import seat_join_guest, seat_kick
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

SCREEN = {"screen_width": "1024", "screen_height": "768", "frame_interval_ms": "16.67"}
TABLET = "Mozilla/5.0 (Linux; Android 13; SM-X200) Chrome/120"
RTS = [
    310,
    290,
    None,
    330,
    305,
    50,
    280,
    300,
    320,
    295,
    315,
    299,
    2900,
    301,
    288,
    312,
    307,
    296,
    303,
    318,
]


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def _tablet(seat: Seat) -> Client:
    tablet = Client(HTTP_USER_AGENT=TABLET)
    tablet.cookies[seat_cookie_name(seat.session.code)] = seat.token
    return tablet


def _field(rts: list[int | None]) -> str:
    return ",".join("" if rt is None else str(rt) for rt in rts)


@pytest.fixture
def warmup_session(make_session: Callable[..., GameSession]) -> GameSession:
    session = make_session()
    GameSession.objects.filter(pk=session.pk).update(warmup=True)
    session.refresh_from_db()
    return session


def test_a_class_session_asks_for_the_warmup_only_while_its_lobby_waits(
    warmup_session: GameSession,
) -> None:
    ava = seat_join_guest(session=warmup_session, nickname="Ava")
    ben = seat_join_guest(session=warmup_session, nickname="Ben")
    lobby = reverse("play_lobby", args=[warmup_session.code])
    assert "Tap the star as soon as it appears!" in _text(_tablet(ava).get(lobby))
    session_start(session=warmup_session)
    # Ben came late to his tablet: the game is on, so he goes straight to it.
    page = _text(_tablet(ben).get(lobby))
    assert "Tap the star" not in page
    assert "data-table-socket" in page


def test_a_session_without_the_warmup_goes_straight_to_the_lobby(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    assert session.warmup is False  # a class session has it only when the teacher asks
    seat = seat_join_guest(session=session, nickname="Ava")
    assert "Tap the star" not in _text(
        _tablet(seat).get(reverse("play_lobby", args=[session.code]))
    )


def test_a_warmup_is_stored_with_its_device_and_median_and_not_asked_again(
    warmup_session: GameSession,
) -> None:
    seat = seat_join_guest(session=warmup_session, nickname="Ava")
    tablet = _tablet(seat)
    answer = tablet.post(
        reverse("play_warmup", args=[warmup_session.code]), {**SCREEN, "rts": _field(RTS)}
    )
    assert answer.status_code == 200
    # The kept taps: not the untapped card, the 50 ms guess or the 2.9 s lapse (17 left).
    assert answer.json() == {"ok": True, "median_ms": 303}
    warmup = Warmup.objects.get(seat=seat)
    assert warmup.rts == RTS
    device = Device.objects.get()
    assert (device.user_agent, device.screen_width, device.screen_height) == (TABLET, 1024, 768)
    assert device.frame_interval_ms == Decimal("16.7")
    assert warmup.device == device
    seat.refresh_from_db()
    assert seat.device == device
    page = _text(tablet.get(reverse("play_lobby", args=[warmup_session.code])))
    assert "Tap the star" not in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({**SCREEN, "rts": "300,310"}, "The warm-up has 20 cards; 2 answers came."),
        ({**SCREEN, "rts": _field([300] * 19 + [-5])}, "Each answer is a whole number"),
        ({**SCREEN, "rts": _field([300] * 19 + [3001])}, "Each answer is a whole number"),
        ({**SCREEN, "rts": "x," * 19 + "1"}, "Each answer is a whole number"),
        ({**SCREEN, "screen_width": "0"}, "greater than or equal to 100"),
        ({**SCREEN, "frame_interval_ms": "nan"}, "Enter a number."),
        ({**SCREEN, "frame_interval_ms": "1e9"}, "less than or equal to 200"),
        ({"rts": ""}, "This field is required."),
    ],
)
def test_a_bad_warmup_is_refused_with_its_reason_and_changes_nothing(
    warmup_session: GameSession, fields: dict[str, str], message: str
) -> None:
    seat = seat_join_guest(session=warmup_session, nickname="Ava")
    answer = _tablet(seat).post(reverse("play_warmup", args=[warmup_session.code]), fields)
    assert answer.status_code == 400
    assert message in answer.json()["message"]
    assert not Warmup.objects.exists()
    assert not Device.objects.exists()
    seat.refresh_from_db()
    assert seat.device is None


def test_only_the_seats_own_tablet_may_report(warmup_session: GameSession) -> None:
    seat = seat_join_guest(session=warmup_session, nickname="Ava")
    stranger = Client()
    for name in ("play_warmup", "play_device"):
        url = reverse(name, args=[warmup_session.code])
        assert stranger.post(url, {**SCREEN, "rts": ""}).status_code == 403
        assert stranger.get(url).status_code == 405
    seat_kick(seat=seat)
    assert (
        _tablet(seat).post(reverse("play_device", args=[warmup_session.code]), SCREEN).status_code
        == 403
    )
    assert not Device.objects.exists()
    assert not Warmup.objects.exists()


def test_the_same_report_from_two_tablets_shares_one_device_row(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
    url = reverse("play_device", args=[session.code])
    for seat in seats:
        assert _tablet(seat).post(url, SCREEN).json() == {"ok": True}
    assert Device.objects.count() == 1
    assert set(Seat.objects.values_list("device", flat=True)) == {Device.objects.get().pk}


def test_practice_follows_the_childs_choice_and_the_teachers(
    school_class: SchoolClass, teacher_client: Client
) -> None:
    ava = school_class.students.get(display_name="Ava")
    assert ava.practice_warmup is True  # on unless someone turns it off
    tablet = Client()
    tablet.get(reverse("join_badge", args=[ava.token]))
    assert 'aria-pressed="true"' in _text(tablet.get(reverse("practice_home")))
    tablet.post(reverse("practice_warmup_choose"), {"warmup": "off"})
    ava.refresh_from_db()
    assert ava.practice_warmup is False
    response = tablet.post(reverse("practice_start"), {"game": "palm_strike", "mode": "solo"})
    assert "Tap the star" not in _text(tablet.get(response["Location"]))
    # The teacher turns it back on from the class page.
    url = reverse("student_practice_warmup", args=[school_class.pk, ava.pk])
    teacher_client.post(url, {"warmup": "on"})
    ava.refresh_from_db()
    assert ava.practice_warmup is True
    student_practice_warmup_set(student=ava, warmup=True)
    tablet.post(reverse("practice_finish", args=[GameSession.objects.get().code]))
    response = tablet.post(reverse("practice_start"), {"game": "palm_strike", "mode": "solo"})
    assert "Tap the star" in _text(tablet.get(response["Location"]))
