"""Rate limits count misses only, key on the real client, and lock out only the guesser."""

from __future__ import annotations

import html
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from classroom.asgi import application
from classroom.models import ClassShare, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest
from classroom.sockets.close_codes import CloseCode
from classroom.web import rate_limits

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import GameSession, SchoolClass

PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password
TABLET_MISSES = int(rate_limits.JOIN_CODE_MISS_RATE.split("/")[0])
ADDRESS_MISSES = int(rate_limits.JOIN_CODE_MISS_RATE_PER_ADDRESS.split("/")[0])
USER_ADDRESS_FAILURES = int(rate_limits.LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS.split("/")[0])
ADDRESS_FAILURES = int(rate_limits.LOGIN_FAILURES_PER_ADDRESS.split("/")[0])
SIGNUPS = settings.SIGNUPS_PER_ADDRESS_PER_HOUR
BEHIND_THE_PROXY = override_settings(TRUSTED_PROXIES=["127.0.0.1"])
HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def _frozen_rate_limit_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # Windows are aligned to the clock; a test crossing an edge would see its counts reset.
    import django_ratelimit.core

    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _tablet(forwarded_for: str | None = None) -> Client:
    """A tablet that opened the join page, so it holds its browser's CSRF cookie."""
    tablet = Client(HTTP_X_FORWARDED_FOR=forwarded_for) if forwarded_for else Client()
    assert tablet.get(reverse("join")).status_code == 200
    return tablet


def _wrong(session: GameSession) -> str:
    return "ZZZZZZ" if session.code != "ZZZZZZ" else "YYYYYY"


def _miss(tablet: Client, session: GameSession, times: int) -> None:
    for _attempt in range(times):
        response = tablet.post(reverse("join"), {"code": _wrong(session)})
        assert response.status_code == 200
        assert "We couldn't find a game" in _text(response)


# Join codes ---------------------------------------------------------------------------------


def test_a_guessing_tablet_is_stopped_and_nothing_is_created(guest_session: GameSession) -> None:
    guesser = _tablet()
    _miss(guesser, guest_session, TABLET_MISSES)
    response = guesser.post(reverse("join"), {"code": _wrong(guest_session)})
    assert response.status_code == 429
    assert "Too many wrong codes. Wait a minute, then try again." in _text(response)
    # Codes from this tablet are not even checked for the rest of the minute: it learns nothing.
    for url in (reverse("join_session", args=[guest_session.code]),):
        response = guesser.post(url, {"nickname": "Mia"})
        assert response.status_code == 429
    assert not Seat.objects.exists()
    assert guesser.cookies.get(seat_cookie_name(guest_session.code)) is None


def test_one_tablets_misses_never_stop_another_tablet_at_the_same_address(
    guest_session: GameSession,
) -> None:
    # A school behind one address (or one proxy that is not trusted): one mistyping child.
    _miss(_tablet(), guest_session, TABLET_MISSES)
    classmate = _tablet()
    response = classmate.post(reverse("join"), {"code": guest_session.code})
    assert response.status_code == 302


def test_right_codes_never_count(guest_session: GameSession) -> None:
    tablet = _tablet()
    for _attempt in range(TABLET_MISSES * 2):
        assert tablet.post(reverse("join"), {"code": guest_session.code}).status_code == 302
    _miss(tablet, guest_session, TABLET_MISSES)  # all of its misses are still its own


@BEHIND_THE_PROXY
def test_behind_a_trusted_proxy_each_client_counts_alone(guest_session: GameSession) -> None:
    # Through the proxy every request comes from 127.0.0.1; the header names the tablet.
    guesser = Client(HTTP_X_FORWARDED_FOR="10.0.0.5")
    for _attempt in range(ADDRESS_MISSES):
        guesser.cookies.clear()  # a guesser without cookies is one tablet per address
        guesser.post(reverse("join"), {"code": _wrong(guest_session)})
    guesser.cookies.clear()
    assert guesser.post(reverse("join"), {"code": guest_session.code}).status_code == 429
    child = Client(HTTP_X_FORWARDED_FOR="10.0.0.6")
    assert child.post(reverse("join"), {"code": guest_session.code}).status_code == 302


def test_an_address_that_forges_cookies_hits_the_backstop(guest_session: GameSession) -> None:
    for attempt in range(ADDRESS_MISSES):
        forger = Client()
        forger.cookies["csrftoken"] = f"forged-{attempt}"
        forger.post(reverse("join"), {"code": _wrong(guest_session)})
    latecomer = _tablet()
    assert latecomer.post(reverse("join"), {"code": guest_session.code}).status_code == 429


def test_a_forged_forwarded_header_is_ignored_without_a_trusted_proxy(
    guest_session: GameSession,
) -> None:
    for attempt in range(TABLET_MISSES):
        Client(HTTP_X_FORWARDED_FOR=f"10.9.0.{attempt}").post(
            reverse("join"), {"code": _wrong(guest_session)}
        )
    forger = Client(HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert forger.post(reverse("join"), {"code": guest_session.code}).status_code == 429


def test_the_lobby_page_is_no_code_oracle(guest_session: GameSession) -> None:
    tablet = _tablet()
    wrong = _wrong(guest_session)
    for _attempt in range(TABLET_MISSES):
        response = tablet.get(reverse("play_lobby", args=[wrong]))
        assert response.status_code == 404
    # Over the limit a right code looks exactly like a wrong one.
    for code in (wrong, guest_session.code):
        response = tablet.get(reverse("play_lobby", args=[code]))
        assert response.status_code == 429
        assert "Too many wrong codes" in _text(response)


def _lobby_socket(code: str, token: str = "") -> WebsocketCommunicator:
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    if token:
        headers.append((b"cookie", f"{seat_cookie_name(code)}={token}".encode()))
    return WebsocketCommunicator(application, f"/ws/play/{code}/", headers=headers)


async def _told_no_seat(socket: WebsocketCommunicator) -> None:
    assert (await socket.connect(timeout=3))[0]
    assert "not in the session any more" in await socket.receive_from(timeout=3)
    assert await socket.receive_output(timeout=3) == {
        "type": "websocket.close",
        "code": CloseCode.NO_SEAT,
    }
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_is_no_code_oracle(guest_session: GameSession) -> None:
    seat = await sync_to_async(seat_join_guest)(session=guest_session, nickname="Mika")
    # A known code without a seat is told just what an unknown code is told.
    await _told_no_seat(_lobby_socket(guest_session.code))
    for _attempt in range(TABLET_MISSES - 1):
        await _told_no_seat(_lobby_socket(_wrong(guest_session)))
    # Over the limit even a real seat is not looked up from this client.
    await _told_no_seat(_lobby_socket(guest_session.code, seat.token))


# Login --------------------------------------------------------------------------------------


def _login(client: Client, username: str, password: str) -> int:
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code


@BEHIND_THE_PROXY
def test_a_stranger_cannot_lock_the_owner_out(teacher: User) -> None:
    stranger = Client(HTTP_X_FORWARDED_FOR="10.0.0.66")
    for _attempt in range(USER_ADDRESS_FAILURES):
        assert _login(stranger, teacher.username, "guess") == 200
    assert _login(stranger, teacher.username, PASSWORD) == 429
    owner = Client(HTTP_X_FORWARDED_FOR="10.0.0.5")
    assert _login(owner, teacher.username, PASSWORD) == 302


@BEHIND_THE_PROXY
def test_one_client_failing_never_locks_every_teacher_out(
    teacher: User, other_teacher: User
) -> None:
    guesser = Client(HTTP_X_FORWARDED_FOR="10.0.0.66")
    for attempt in range(ADDRESS_FAILURES):
        assert _login(guesser, f"someone-{attempt}", "guess") == 200
    assert _login(guesser, teacher.username, PASSWORD) == 429
    colleague = Client(HTTP_X_FORWARDED_FOR="10.0.0.7")
    assert _login(colleague, other_teacher.username, PASSWORD) == 302


def test_right_passwords_never_count(client: Client, teacher: User) -> None:
    for _attempt in range(ADDRESS_FAILURES + 5):
        assert _login(client, teacher.username, PASSWORD) == 302
        client.post(reverse("logout"))
    for _attempt in range(USER_ADDRESS_FAILURES - 1):
        assert _login(client, teacher.username, "guess") == 200
    assert _login(client, teacher.username, PASSWORD) == 302


@BEHIND_THE_PROXY
def test_the_global_backstop_per_username(teacher: User, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rate_limits, "LOGIN_FAILURES_PER_USERNAME", "5/h")
    for attempt in range(5):
        somewhere = Client(HTTP_X_FORWARDED_FOR=f"10.1.0.{attempt}")
        assert _login(somewhere, teacher.username, "x") == 200
    # Many addresses guessing one name: that name waits, even from a new address.
    assert _login(Client(HTTP_X_FORWARDED_FOR="10.2.0.1"), teacher.username, PASSWORD) == 429
    assert _login(Client(HTTP_X_FORWARDED_FOR="10.2.0.1"), "someone-else", "x") == 200


def test_the_username_limit_ignores_case_and_spaces(client: Client, teacher: User) -> None:
    for attempt in range(USER_ADDRESS_FAILURES):
        name = teacher.username.upper() if attempt % 2 else f" {teacher.username} "
        _login(client, name, "guess")
    response = client.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    assert response.status_code == 429
    assert "Too many attempts. Please wait a minute and try again." in _text(response)


# Sign-up ------------------------------------------------------------------------------------


def _sign_up(client: Client, username: str) -> int:
    data = {"username": username, "password1": "quiet-owl-42x", "password2": "quiet-owl-42x"}
    return client.post(reverse("signup"), data).status_code


@BEHIND_THE_PROXY
def test_sign_ups_are_limited_per_address(db: None) -> None:
    here = Client(HTTP_X_FORWARDED_FOR="10.0.0.5")
    for number in range(SIGNUPS):
        assert _sign_up(here, f"teacher-{number}") == 302
        here.post(reverse("logout"))
    response = here.post(
        reverse("signup"),
        {"username": "one-more", "password1": "quiet-owl-42x", "password2": "quiet-owl-42x"},
    )
    assert response.status_code == 429
    assert "Too many sign-ups from here" in _text(response)
    assert not User.objects.filter(username="one-more").exists()
    # "Already exists" probes count the same way.
    assert _sign_up(here, "teacher-0") == 429
    elsewhere = Client(HTTP_X_FORWARDED_FOR="10.0.0.6")
    assert _sign_up(elsewhere, "from-elsewhere") == 302


# Sharing a class ----------------------------------------------------------------------------


def _share(client: Client, school_class: SchoolClass, colleague: str) -> str:
    url = reverse("class_share_add", args=[school_class.pk])
    return _text(client.post(url, {"colleague": colleague, "role": "substitute"}, headers=HX))


@BEHIND_THE_PROXY
def test_looking_colleagues_up_is_limited_like_sign_ups(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    """Each look-up says whether an account exists, as a sign-up does: it counts in the
    sign-up limit of the address, and as much again per teacher wherever they are."""
    here = Client(HTTP_X_FORWARDED_FOR="10.0.0.5")
    here.force_login(teacher)
    for number in range(SIGNUPS):
        assert "No colleague's account" in _share(here, school_class, f"guess-{number}")
    assert "Too many tries from here. Please try again in an hour." in _share(
        here, school_class, other_teacher.username
    )
    assert not ClassShare.objects.exists()
    assert _sign_up(Client(HTTP_X_FORWARDED_FOR="10.0.0.5"), "new-one") == 429
    elsewhere = Client(HTTP_X_FORWARDED_FOR="10.9.0.1")
    elsewhere.force_login(teacher)
    assert "Too many tries" in _share(elsewhere, school_class, other_teacher.username)
    assert not ClassShare.objects.exists()


@BEHIND_THE_PROXY
def test_guessers_elsewhere_never_keep_a_teacher_out_where_they_sign_in(
    teacher: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    at_school = Client(HTTP_X_FORWARDED_FOR="10.3.0.9")
    assert _login(at_school, teacher.username, PASSWORD) == 302
    at_school.post(reverse("logout"))
    monkeypatch.setattr(rate_limits, "LOGIN_FAILURES_PER_USERNAME", "5/h")
    for attempt in range(5):
        somewhere = Client(HTTP_X_FORWARDED_FOR=f"10.1.0.{attempt}")
        assert _login(somewhere, teacher.username, "x") == 200
    # The backstop holds at a new address, never where the teacher signed in before.
    assert _login(Client(HTTP_X_FORWARDED_FOR="10.2.0.1"), teacher.username, PASSWORD) == 429
    assert _login(at_school, teacher.username, PASSWORD) == 302
