"""The site through Django's test client: accounts, classes, sessions, joining and the console."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from classroom.hosting import table_hosts
from classroom.models import GameSession, SchoolClass, Seat, SeatConnection, Student
from classroom.people.seat_cookies import seat_cookie_name
from classroom.processes import PROCESS_ID
from classroom.services.classes import class_create
from classroom.services.retention import sessions_purge
from classroom.services.seats import seat_join_guest, seat_join_student, seat_kick, seat_move
from classroom.services.sessions import session_create, session_end, session_start
from games.palm_strike.config import Config

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    MakeSession = Callable[..., GameSession]

PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password


@pytest.fixture(autouse=True)
def _frozen_rate_limit_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rate-limit windows are aligned to the clock; a test crossing a window edge would see
    # its counter reset. Freezing django-ratelimit's clock makes the counts deterministic.
    import django_ratelimit.core

    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: 1.8e9))


@pytest.fixture
def tablet(db: None) -> Client:
    """A student's tablet: its own cookie jar."""
    return Client()


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _logged_in_user_id(client: Client) -> str | None:
    return client.session.get("_auth_user_id")


def _wrong_code(*sessions: GameSession) -> str:
    taken = {session.code for session in sessions}
    return next(code for code in ("ZZZZZZ", "YYYYYY", "XXXXXX") if code not in taken)


def _settings_post(**overrides: Any) -> dict[str, str]:
    values: dict[str, Any] = {name: getattr(Config(), name) for name in Config.__dataclass_fields__}
    values.update(overrides)
    data: dict[str, str] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            if value:
                data[f"settings-{name}"] = "on"
        else:
            data[f"settings-{name}"] = str(value)
    return data


# --------------------------------------------------------------------------------------------
# Accounts


def test_signup_login_logout_flow(client: Client, db: None) -> None:
    assert client.get(reverse("signup")).status_code == 200
    response = client.post(
        reverse("signup"),
        {
            "username": "ms-ho",
            "password1": "quiet-owl-lanterns-7",
            "password2": "quiet-owl-lanterns-7",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    user = User.objects.get(username="ms-ho")
    assert _logged_in_user_id(client) == str(user.pk)
    assert "New class" in _text(client.get(reverse("home")))

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_user_id(client) is None
    assert "Sign up" in _text(client.get(reverse("home")))

    response = client.post(
        reverse("login"), {"username": "ms-ho", "password": "quiet-owl-lanterns-7"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert _logged_in_user_id(client) == str(user.pk)


def test_signup_with_mismatched_passwords_creates_nobody(client: Client, db: None) -> None:
    response = client.post(
        reverse("signup"),
        {"username": "ms-ho", "password1": "quiet-owl-lanterns-7", "password2": "other-thing-8"},
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="ms-ho").exists()
    assert _logged_in_user_id(client) is None


def test_signup_by_invitation_only_makes_nobody_here(
    client: Client, db: None, settings: Any
) -> None:
    settings.SIGNUP = "invite"
    page = client.get(reverse("signup"), headers={"accept-language": "zh-hant"})
    assert "本站只接受邀請註冊" in page.content.decode()
    assert b'name="password1"' not in page.content
    password = "quiet-owl-lanterns-7"
    response = client.post(
        reverse("signup"), {"username": "ms-ho", "password1": password, "password2": password}
    )
    assert response.status_code == 403
    assert "Sign-up on this site is by invitation only" in response.content.decode()
    assert not User.objects.filter(username="ms-ho").exists()
    assert _logged_in_user_id(client) is None


def test_signed_in_teacher_is_sent_home_from_signup_and_login(teacher_client: Client) -> None:
    assert teacher_client.get(reverse("signup"))["Location"] == reverse("home")
    assert teacher_client.get(reverse("login"))["Location"] == reverse("home")


def test_login_with_a_wrong_password_is_refused(client: Client, teacher: User) -> None:
    response = client.post(reverse("login"), {"username": teacher.username, "password": "nope"})
    assert response.status_code == 200
    assert "correct username and password" in _text(response)
    assert _logged_in_user_id(client) is None


# --------------------------------------------------------------------------------------------
# Home


def test_home_for_anonymous_offers_sign_up_and_log_in(client: Client, db: None) -> None:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    text = _text(response)
    assert "Sign up" in text
    assert "Log in" in text
    assert reverse("signup") in text
    assert reverse("login") in text
    assert "New class" not in text
    assert "New session" not in text


PUBLIC_PAGES = ["home", "signup", "login", "join", "practice_sign_in"]
DESCRIPTION = re.compile(r'<meta name="description" content="([^"]{20,300})">')


def test_every_public_page_describes_itself_in_the_page_language(db: None) -> None:
    described: dict[str, dict[str, str]] = {}
    for language in ("en", "zh-hant"):
        client = Client()
        client.cookies["django_language"] = language
        for name in PUBLIC_PAGES:
            found = DESCRIPTION.search(client.get(reverse(name)).content.decode())
            assert found, (name, language)
            described.setdefault(name, {})[language] = html.unescape(found.group(1))
    for name, texts in described.items():
        assert "Snapclass" in texts["en"], name
        assert re.search(r"[\u4e00-\u9fff]", texts["zh-hant"]), (name, texts)
    # The pages a child opens say what to do there, not only what the site is.
    assert described["join"]["en"] != described["home"]["en"]
    assert described["practice_sign_in"]["en"] != described["home"]["en"]


def test_home_for_a_teacher_shows_their_classes_and_actions(
    teacher_client: Client, school_class: SchoolClass, other_teacher: User
) -> None:
    class_create(teacher=other_teacher, name="Secret Badgers", student_names=[])
    text = _text(teacher_client.get(reverse("home")))
    assert "New class" in text
    assert "New session" in text
    assert f'href="{reverse("class_new")}"' in text
    assert f'href="{reverse("session_new")}"' in text
    assert "Year 3 Otters" in text
    assert "Secret Badgers" not in text
    assert "Sign up" not in text


# --------------------------------------------------------------------------------------------
# Classes


def test_class_create_via_post(teacher_client: Client, teacher: User) -> None:
    assert teacher_client.get(reverse("class_new")).status_code == 200
    response = teacher_client.post(
        reverse("class_new"), {"name": "Year 5 Hawks", "student_names": "Zed\n\nYan\n"}
    )
    school_class = SchoolClass.objects.get(teacher=teacher, name="Year 5 Hawks")
    assert response.status_code == 302
    assert response["Location"] == reverse("class_detail", args=[school_class.pk])
    assert sorted(school_class.students.values_list("display_name", flat=True)) == ["Yan", "Zed"]
    page = _text(teacher_client.get(response["Location"]))
    assert "Year 5 Hawks is saved." in page
    assert "Yan" in page


def test_class_create_with_bad_names_creates_nothing(teacher_client: Client) -> None:
    response = teacher_client.post(
        reverse("class_new"), {"name": "Year 5 Hawks", "student_names": "Zed\nzed"}
    )
    assert response.status_code == 200
    assert "Line 2: zed is listed twice." in _text(response)
    assert not SchoolClass.objects.exists()


def test_class_create_with_a_taken_name_creates_nothing(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    response = teacher_client.post(
        reverse("class_new"), {"name": "year 3 otters", "student_names": "Zed"}
    )
    assert response.status_code == 200
    assert "You already have a class called year 3 otters." in _text(response)
    assert SchoolClass.objects.count() == 1
    assert not Student.objects.filter(display_name="Zed").exists()


def test_class_edit_adds_students(teacher_client: Client, school_class: SchoolClass) -> None:
    url = reverse("class_edit", args=[school_class.pk])
    assert teacher_client.get(url).status_code == 200
    response = teacher_client.post(url, {"name": "Year 3 Otters", "student_names": "Fay"})
    assert response.status_code == 302
    assert school_class.students.filter(display_name="Fay").exists()
    response = teacher_client.post(url, {"name": "Year 3 Otters", "student_names": "ava"})
    assert response.status_code == 200
    assert "Already in this class: ava." in _text(response)
    assert school_class.students.count() == 6


def test_class_detail_and_badges(teacher_client: Client, school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    detail = _text(teacher_client.get(reverse("class_detail", args=[school_class.pk])))
    assert "Ava" in detail
    badges = teacher_client.get(reverse("class_badges", args=[school_class.pk]))
    assert badges.status_code == 200
    urls = dict(badges.context["badges"])
    assert urls[ava] == "http://testserver" + reverse("join_badge", args=[ava.token])
    assert len(urls) == 5
    assert _text(badges).count('class="qr"') == 5


@pytest.mark.parametrize("htmx", [False, True])
def test_student_rotate(teacher_client: Client, school_class: SchoolClass, htmx: bool) -> None:
    ava = school_class.students.get(display_name="Ava")
    old = ava.token
    headers = {"HX-Request": "true"} if htmx else {}
    response = teacher_client.post(
        reverse("student_rotate", args=[school_class.pk, ava.pk]), headers=headers
    )
    ava.refresh_from_db()
    assert ava.token != old
    if htmx:
        assert response.status_code == 200
        assert f'id="student-{ava.pk}"' in _text(response)
        assert "<html" not in _text(response)
        assert "the old one no longer works" in _text(response)
    else:
        assert response.status_code == 302
        assert response["Location"] == reverse("class_detail", args=[school_class.pk])
    assert (
        teacher_client.get(reverse("student_rotate", args=[school_class.pk, ava.pk])).status_code
        == 405
    )


# --------------------------------------------------------------------------------------------
# Sessions


def test_session_new_form_preselects_the_class(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    response = teacher_client.get(reverse("session_new") + f"?class={school_class.pk}")
    assert response.status_code == 200
    assert response.context["form"]["school_class"].value() == str(school_class.pk)
    assert 'id="game-settings"' in _text(response)


def test_session_settings_partial(teacher_client: Client) -> None:
    response = teacher_client.get(reverse("session_settings") + "?game=palm_strike")
    assert response.status_code == 200
    text = _text(response)
    assert 'id="game-settings"' in text
    assert "Response window (seconds)" in text
    assert "<html" not in text


def test_session_create_via_post(
    teacher_client: Client, teacher: User, school_class: SchoolClass
) -> None:
    response = teacher_client.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "school_class": str(school_class.pk),
            "players_per_table": "3",
            **_settings_post(level="intermediate", response_window_s=3.0),
        },
    )
    session = GameSession.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("session_console", args=[session.pk])
    assert session.teacher == teacher
    assert session.school_class == school_class
    assert session.players_per_table == 3
    assert session.settings["level"] == "intermediate"
    assert session.settings["response_window_s"] == 3.0
    console = teacher_client.get(response["Location"])
    assert console.status_code == 200
    assert session.code in _text(console)


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"response_window_s": 9}, "response_window_s", "less than or equal to 5"),
        ({"level": "expert"}, "level", "Select a valid choice"),
        (
            {"flip_pacing": "auto", "auto_flip_s": 2.0, "response_window_s": 2.5},
            "auto_flip_s",
            "longer than the response window",
        ),
    ],
)
def test_session_create_settings_error_is_a_field_error_and_creates_nothing(
    teacher_client: Client, overrides: dict[str, Any], field: str, message: str
) -> None:
    response = teacher_client.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "school_class": "",
            "players_per_table": "4",
            **_settings_post(**overrides),
        },
    )
    assert response.status_code == 200
    settings_form = response.context["settings_form"]
    assert list(settings_form.errors) == [field]
    assert message in settings_form.errors[field][0]
    assert message in _text(response)
    assert not settings_form.non_field_errors()
    assert not GameSession.objects.exists()


def test_session_create_with_another_teachers_class_creates_nothing(
    client: Client, other_teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(other_teacher)
    response = client.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "school_class": str(school_class.pk),
            "players_per_table": "4",
            **_settings_post(),
        },
    )
    assert response.status_code == 200
    assert "school_class" in response.context["form"].errors
    assert not GameSession.objects.exists()


def test_projector_shows_the_code_and_join_link(
    teacher_client: Client, class_session: GameSession
) -> None:
    response = teacher_client.get(reverse("session_projector", args=[class_session.pk]))
    assert response.status_code == 200
    text = _text(response)
    assert class_session.code in text
    # The address may wrap only between "/join/" and the code, never inside the code.
    join = reverse("join_session", args=[class_session.code])
    assert join.replace(f"{class_session.code}/", f"<wbr>{class_session.code}/") in text


# --------------------------------------------------------------------------------------------
# Joining by code


def test_join_page_and_a_right_code(tablet: Client, guest_session: GameSession) -> None:
    assert tablet.get(reverse("join")).status_code == 200
    typed = f" {guest_session.code[:3].lower()}-{guest_session.code[3:].lower()} "
    response = tablet.post(reverse("join"), {"code": typed})
    assert response.status_code == 302
    assert response["Location"] == reverse("join_session", args=[guest_session.code])


def test_join_with_a_wrong_code_shows_a_message(tablet: Client, guest_session: GameSession) -> None:
    wrong = _wrong_code(guest_session)
    response = tablet.post(reverse("join"), {"code": wrong})
    assert response.status_code == 200
    assert f"We couldn't find a game with the code {wrong}." in _text(response)


def test_join_with_a_malformed_code_shows_a_message(tablet: Client, db: None) -> None:
    response = tablet.post(reverse("join"), {"code": "0OIL1"})
    assert response.status_code == 200
    assert "We couldn't find a game" in _text(response)


def test_unknown_code_in_the_url(tablet: Client, guest_session: GameSession) -> None:
    wrong = _wrong_code(guest_session)
    response = tablet.get(reverse("join_session", args=[wrong]))
    assert response.status_code == 404
    assert f"We couldn't find a game with the code {wrong}." in _text(response)


def test_roster_lists_the_class(tablet: Client, class_session: GameSession) -> None:
    response = tablet.get(reverse("join_session", args=[class_session.code.lower()]))
    assert response.status_code == 200
    text = _text(response)
    for name in ["Ava", "Ben", "Chen", "Dara", "Eli"]:
        assert name in text


def test_roster_tap_sets_the_seat_cookie_and_opens_the_lobby(
    tablet: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    response = tablet.post(
        reverse("join_session", args=[class_session.code]), {"student": str(ava.pk)}
    )
    seat = Seat.objects.get(session=class_session, student=ava)
    # The tap is answered with the lobby itself, which shows the lobby's address (live.js).
    lobby_url = reverse("play_lobby", args=[class_session.code])
    assert response.status_code == 200
    assert "Hi, Ava!" in _text(response)
    assert f'data-page-url="{lobby_url}"' in _text(response)
    cookie = response.cookies[f"seat_{class_session.code}"]
    assert cookie.value == seat.token
    assert cookie["httponly"]
    assert cookie["samesite"] == "Lax"
    reloaded = tablet.get(lobby_url)
    assert reloaded.status_code == 200
    assert "Hi, Ava!" in _text(reloaded)


@pytest.mark.parametrize("student", ["", "abc", "999999"])
def test_roster_tap_with_a_bad_student(
    tablet: Client, class_session: GameSession, student: str
) -> None:
    response = tablet.post(reverse("join_session", args=[class_session.code]), {"student": student})
    assert response.status_code == 400
    assert "Tap your name in the list." in _text(response)
    assert not Seat.objects.exists()


def test_roster_tap_with_a_student_of_another_class(
    tablet: Client, class_session: GameSession, teacher: User
) -> None:
    other = class_create(teacher=teacher, name="Year 5 Hawks", student_names=["Zed"])
    zed = other.students.get()
    response = tablet.post(
        reverse("join_session", args=[class_session.code]), {"student": str(zed.pk)}
    )
    assert response.status_code == 400
    assert not Seat.objects.exists()


def test_roster_tap_of_a_connected_student_is_refused(
    tablet: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=class_session, student=ava)
    SeatConnection.objects.create(seat=seat, channel_name="elsewhere", process_id=PROCESS_ID)
    roster = _text(tablet.get(reverse("join_session", args=[class_session.code])))
    assert "playing" in roster
    response = tablet.post(
        reverse("join_session", args=[class_session.code]), {"student": str(ava.pk)}
    )
    assert response.status_code == 400
    assert "Ava is already playing on another tablet." in _text(response)
    assert Seat.objects.get(pk=seat.pk).token == seat.token


def test_guest_joins_with_a_nickname(tablet: Client, guest_session: GameSession) -> None:
    page = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert page.status_code == 200
    assert 'name="nickname"' in _text(page)
    response = tablet.post(
        reverse("join_session", args=[guest_session.code]), {"nickname": "  Mia  "}
    )
    seat = Seat.objects.get(session=guest_session)
    assert seat.name == "Mia"
    assert response.status_code == 200
    assert response.cookies[seat_cookie_name(guest_session.code)].value == seat.token
    assert "Hi, Mia!" in _text(response)
    assert "Hi, Mia!" in _text(tablet.get(reverse("play_lobby", args=[guest_session.code])))


def test_a_nickname_join_takes_a_bounded_number_of_queries(
    tablet: Client,
    make_session: MakeSession,
    django_assert_max_num_queries: Callable[..., Any],
) -> None:
    """The join a whole class posts at once, answered with the tablet's lobby page, reads and
    writes a few rows, not the whole lobby: the join and its lobby page in one request, within
    the queries the join alone would take."""
    session = make_session(players_per_table=4)
    for number in range(1, 42):  # 11 tables, of 3 and 4
        seat_join_guest(session=session, nickname=f"Kid {number}")
    url = reverse("join_session", args=[session.code])
    tablet.get(url)
    with django_assert_max_num_queries(16):
        response = tablet.post(url, {"nickname": "Kid 42"}, HTTP_X_DEVICE="tablet-42")
    assert response.status_code == 200
    assert "Hi, Kid 42!" in _text(response)
    assert Seat.objects.get(session=session, name="Kid 42").table is not None


def _mates(page: str) -> list[str]:
    found = re.search(r'<ul class="lobby-mates">(.*?)</ul>', page, re.S)
    return re.findall(r'<li class="name-chip">([^<]+)</li>', found.group(1)) if found else []


@pytest.mark.parametrize("lobby", ["even", "a new table needed", "a pinned seat"])
def test_the_join_answer_shows_the_table_the_child_was_dealt(
    tablet: Client, make_session: MakeSession, lobby: str
) -> None:
    """The answer shows the newcomer's table as it stands after the join, whichever way the
    lobby was dealt: the least-full table, a new table taking the latest joiners, or a
    balance of the whole lobby."""
    session = make_session(players_per_table=3)
    seats = [
        seat_join_guest(session=session, nickname=name)
        for name in ["Ada", "Ben", "Cal", "Dee", "Eve"]
    ]
    if lobby == "a new table needed":
        seat_join_guest(session=session, nickname="Fay")  # two full tables of three
    if lobby == "a pinned seat":
        seat_move(seat=seats[0], table_number=2)  # pinned: the next join balances it all
    url = reverse("join_session", args=[session.code])
    tablet.get(url)
    answer = _text(tablet.post(url, {"nickname": "Gus"}))
    lobby_page = _text(tablet.get(reverse("play_lobby", args=[session.code])))
    gus = Seat.objects.get(session=session, name="Gus")
    mates = sorted(seat.name for seat in gus.table.seats.exclude(pk=gus.pk))
    assert mates
    assert sorted(_mates(answer)) == mates
    assert sorted(_mates(lobby_page)) == mates


@pytest.mark.parametrize(
    ("nickname", "message"),
    [
        pytest.param(
            "",
            "This field is required.",
        ),
        pytest.param(
            "x" * 201,
            "Ensure this value has at most 200 characters (it has 201).",
        ),
        ("   ", "Please type a name."),
        ("x" * 21, "Names can be at most 20 characters long."),
        ("Mi\x07a", "Names can only use letters, numbers, spaces and emoji."),
        ("MIA", "Someone here is already called MIA. Try another name."),
    ],
)
def test_guest_nickname_errors_re_render_with_the_message(
    tablet: Client, guest_session: GameSession, nickname: str, message: str
) -> None:
    seat_join_guest(session=guest_session, nickname="Mia")
    response = tablet.post(
        reverse("join_session", args=[guest_session.code]), {"nickname": nickname}
    )
    assert response.status_code == 200
    assert message in _text(response)
    assert response.context["nickname_form"].errors["nickname"] == [message]
    assert guest_session.seats.count() == 1
    assert seat_cookie_name(guest_session.code) not in response.cookies


def test_a_tablet_that_taps_join_again_before_the_answer_gets_its_seat(
    tablet: Client, guest_session: GameSession
) -> None:
    # While a whole class joins, an answer takes seconds and a child taps Join again; the
    # first answer (with the seat's cookie) never reaches the page the child is looking at.
    url = reverse("join_session", args=[guest_session.code])
    tablet.get(url)
    first = tablet.post(url, {"nickname": "Mia"})
    cookie = seat_cookie_name(guest_session.code)
    token = first.cookies[cookie].value
    del tablet.cookies[cookie]

    again = tablet.post(url, {"nickname": "Mia"})

    assert again.status_code == 200
    assert "Hi, Mia!" in _text(again)
    assert again.cookies[cookie].value == token
    assert guest_session.seats.count() == 1


def test_an_already_seated_tablet_goes_back_to_its_lobby(
    tablet: Client, guest_session: GameSession
) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    tablet.cookies[seat_cookie_name(guest_session.code)] = seat.token
    response = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("play_lobby", args=[guest_session.code])
    response = tablet.post(
        reverse("join_session", args=[guest_session.code]), {"nickname": "Second"}
    )
    assert response.status_code == 302
    assert guest_session.seats.count() == 1


def test_a_stale_cookie_does_not_count_as_seated(
    tablet: Client, guest_session: GameSession
) -> None:
    tablet.cookies[seat_cookie_name(guest_session.code)] = "stale-token"
    assert tablet.get(reverse("join_session", args=[guest_session.code])).status_code == 200


def test_ended_session_join_is_refused(
    tablet: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    session_end(session=class_session)
    message = "This session has ended. Ask your teacher for the new code."
    response = tablet.post(reverse("join"), {"code": class_session.code})
    assert response.status_code == 200
    assert message in _text(response)
    response = tablet.get(reverse("join_session", args=[class_session.code]))
    assert response.status_code == 404
    assert message in _text(response)
    ava = school_class.students.get(display_name="Ava")
    response = tablet.post(
        reverse("join_session", args=[class_session.code]), {"student": str(ava.pk)}
    )
    assert response.status_code == 404
    assert not Seat.objects.exists()


# --------------------------------------------------------------------------------------------
# Badges


def test_badge_join_sets_the_cookie(
    tablet: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ben = school_class.students.get(display_name="Ben")
    response = tablet.get(reverse("join_badge", args=[ben.token]))
    seat = Seat.objects.get(student=ben)
    assert response.status_code == 302
    assert response["Location"] == reverse("play_lobby", args=[class_session.code])
    assert response.cookies[seat_cookie_name(class_session.code)].value == seat.token
    assert "Hi, Ben!" in _text(tablet.get(response["Location"]))


def test_unknown_badge_shows_a_message(tablet: Client, class_session: GameSession) -> None:
    response = tablet.get(reverse("join_badge", args=["not-a-badge"]))
    assert response.status_code == 404
    assert "This badge does not work any more." in _text(response)
    assert not Seat.objects.exists()


def test_badge_without_an_open_session_signs_in_for_practice(
    tablet: Client, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    response = tablet.get(reverse("join_badge", args=[ava.token]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("practice_home")
    assert "Hi, Ava!" in _text(response)


# --------------------------------------------------------------------------------------------
# The lobby and coming back


def test_play_without_a_cookie_goes_to_join(tablet: Client, guest_session: GameSession) -> None:
    # The seat token lives only in the HttpOnly cookie: no copy in the page for scripts.
    response = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("join_session", args=[guest_session.code])


def test_no_page_shows_the_seat_token(tablet: Client, guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    tablet.cookies[seat_cookie_name(guest_session.code)] = seat.token
    response = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert "Hi, Mia!" in _text(response)
    assert seat.token not in response.content.decode()
    session_start(session=guest_session)
    response = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert "play/palm_strike.html" in [t.name for t in response.templates]
    assert seat.token not in response.content.decode()


def test_play_with_an_unknown_code_shows_the_join_page(
    tablet: Client, guest_session: GameSession
) -> None:
    wrong = _wrong_code(guest_session)
    response = tablet.get(reverse("play_lobby", args=[wrong]))
    assert response.status_code == 404
    assert f"We couldn't find a game with the code {wrong}." in _text(response)


def test_not_you_forgets_the_seat_on_this_tablet_but_keeps_it(
    tablet: Client, guest_session: GameSession
) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    cookie = seat_cookie_name(guest_session.code)
    tablet.cookies[cookie] = seat.token
    assert "Not Mia? Tap here" in _text(
        tablet.get(reverse("play_lobby", args=[guest_session.code]))
    )
    response = tablet.post(reverse("play_leave", args=[guest_session.code]))
    assert response.status_code == 302
    assert response["Location"] == reverse("join_session", args=[guest_session.code])
    assert response.cookies[cookie].value == ""
    # The next child gets the name form, and Mia's seat is still there for her.
    assert "Your name" in _text(tablet.get(response["Location"]))
    assert Seat.objects.filter(pk=seat.pk, kicked_at__isnull=True).exists()


def test_kicked_seat_sees_the_removal_message(tablet: Client, guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat_kick(seat=Seat.objects.get(pk=seat.pk))
    tablet.cookies[seat_cookie_name(guest_session.code)] = seat.token
    response = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert response.status_code == 403
    assert "Your teacher removed you from this session." in _text(response)
    assert "Hi, Mia!" not in _text(response)


def test_play_with_a_stale_cookie_is_refused(tablet: Client, guest_session: GameSession) -> None:
    tablet.cookies[seat_cookie_name(guest_session.code)] = "forged"
    response = tablet.get(reverse("play_lobby", args=[guest_session.code]))
    assert response.status_code == 403
    assert "Please join again." in _text(response)


def test_lobby_shows_table_mates(tablet: Client, guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat_join_guest(session=guest_session, nickname="Noah")
    tablet.cookies[seat_cookie_name(guest_session.code)] = seat.token
    text = _text(tablet.get(reverse("play_lobby", args=[guest_session.code.lower()])))
    assert "Hi, Mia!" in text
    assert "Noah" in text


# --------------------------------------------------------------------------------------------
# The console


def _seated_session(make_session: MakeSession) -> GameSession:
    session = make_session()
    for name in ["Mia", "Noah", "Omar"]:
        seat_join_guest(session=session, nickname=name)
    return GameSession.objects.get(pk=session.pk)


def test_console_actions_without_htmx_redirect_to_the_console(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _seated_session(make_session)
    console = reverse("session_console", args=[session.pk])
    expected = [
        ("start", GameSession.Status.RUNNING),
        ("pause", GameSession.Status.PAUSED),
        ("resume", GameSession.Status.RUNNING),
        ("end", GameSession.Status.ENDED),
    ]
    for action, status in expected:
        response = teacher_client.post(reverse("session_action", args=[session.pk, action]))
        assert response.status_code == 302
        assert response["Location"] == console
        session.refresh_from_db()
        assert session.status == status, action


def test_console_actions_with_htmx_return_the_console_partial(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _seated_session(make_session)
    headers = {"HX-Request": "true"}
    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "start"]), headers=headers
    )
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING
    assert response.status_code == 200
    text = _text(response)
    assert text.lstrip().startswith('<div id="console-live"')
    assert "<html" not in text
    assert "Running" in text
    assert reverse("session_action", args=[session.pk, "pause"]) in text

    for action, label in [("lock", "Lobby locked"), ("pause", "Paused")]:
        response = teacher_client.post(
            reverse("session_action", args=[session.pk, action]), headers=headers
        )
        assert response.status_code == 200
        assert label in _text(response)
    session.refresh_from_db()
    assert session.status == GameSession.Status.PAUSED
    assert session.lobby_locked

    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "unlock"]), headers=headers
    )
    session.refresh_from_db()
    assert not session.lobby_locked
    assert "Lobby locked" not in _text(response)


def test_a_console_action_answers_with_the_tables_as_they_play(
    teacher_client: Client, make_session: MakeSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = _seated_session(make_session)
    headers = {"HX-Request": "true"}
    teacher_client.post(reverse("session_action", args=[session.pk, "start"]), headers=headers)
    table_ids = list(session.tables.values_list("pk", flat=True))
    assert table_ids
    playing = {pk: {"game": session.game, "phase": "playing", "flip": 7} for pk in table_ids}
    asked: list[set[int]] = []

    def teacher_views(ids: Any = None) -> dict[int, dict[str, Any]]:
        asked.append(set(ids))
        return {pk: view for pk, view in playing.items() if pk in set(ids)}

    monkeypatch.setattr(table_hosts.registry, "teacher_views", teacher_views)
    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "pause"]), headers=headers
    )
    assert response.status_code == 200
    assert asked == [set(table_ids)]  # this session's tables only
    assert "Waiting for the first tablet to connect" not in _text(response)


def test_illegal_console_action_shows_the_error(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _seated_session(make_session)
    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "pause"]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "The session is lobby, so that is not possible now." in _text(response)
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY

    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "resume"]), follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("session_console", args=[session.pk])
    assert "not possible now" in _text(response)
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY


def test_start_with_nobody_seated_is_refused(
    teacher_client: Client, guest_session: GameSession
) -> None:
    response = teacher_client.post(
        reverse("session_action", args=[guest_session.pk, "start"]),
        headers={"HX-Request": "true"},
    )
    assert "Wait until at least one student has joined." in _text(response)
    guest_session.refresh_from_db()
    assert guest_session.status == GameSession.Status.LOBBY


def test_unknown_console_action_is_404(teacher_client: Client, guest_session: GameSession) -> None:
    response = teacher_client.post(reverse("session_action", args=[guest_session.pk, "explode"]))
    assert response.status_code == 404


def test_console_actions_only_accept_post(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _seated_session(make_session)
    response = teacher_client.get(reverse("session_action", args=[session.pk, "start"]))
    assert response.status_code == 405
    session.refresh_from_db()
    assert session.status == GameSession.Status.LOBBY


def test_seat_actions_from_the_console(teacher_client: Client, make_session: MakeSession) -> None:
    session = _seated_session(make_session)
    mia = session.seats.get(name="Mia")
    headers = {"HX-Request": "true"}

    response = teacher_client.post(
        reverse("seat_action", args=[session.pk, mia.pk, "move"]), {"table": "new"}, headers=headers
    )
    assert response.status_code == 200
    mia.refresh_from_db()
    assert mia.pinned
    assert mia.table is not None
    assert mia.table.number == 3

    response = teacher_client.post(
        reverse("seat_action", args=[session.pk, mia.pk, "move"]), {"table": ""}, headers=headers
    )
    assert "Choose a table." in _text(response)
    response = teacher_client.post(
        reverse("seat_action", args=[session.pk, mia.pk, "move"]), {"table": "9"}, headers=headers
    )
    assert "There is no table 9." in _text(response)
    mia.refresh_from_db()
    assert mia.table is not None
    assert mia.table.number == 3

    response = teacher_client.post(
        reverse("seat_action", args=[session.pk, mia.pk, "kick"]), headers=headers
    )
    assert response.status_code == 200
    assert "Removed" in _text(response)
    mia.refresh_from_db()
    assert mia.is_kicked

    response = teacher_client.post(reverse("seat_action", args=[session.pk, mia.pk, "readmit"]))
    assert response.status_code == 302
    assert not Seat.objects.filter(pk=mia.pk).exists()  # a guest's seat is forgotten

    noah = session.seats.get(name="Noah")
    response = teacher_client.post(reverse("seat_action", args=[session.pk, noah.pk, "dance"]))
    assert response.status_code == 404


def test_ended_session_console_has_no_actions(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _seated_session(make_session)
    session_start(session=session)
    session_end(session=session)
    text = _text(teacher_client.get(reverse("session_console", args=[session.pk])))
    assert "Ended" in text
    assert reverse("session_action", args=[session.pk, "start"]) not in text
    assert reverse("session_action", args=[session.pk, "end"]) not in text


def test_a_teacher_removes_a_student_from_the_class(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    url = reverse("student_remove", args=[school_class.pk, ava.pk])
    response = teacher_client.post(url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.content == b""
    assert not Student.objects.filter(pk=ava.pk).exists()
    assert school_class.students.count() == 4
    page = _text(teacher_client.get(reverse("class_detail", args=[school_class.pk])))
    assert "Ava" not in page
    assert "Ben" in page


def test_teacher_pages_have_a_plain_title_and_one_dashboard_script(
    teacher_client: Client, guest_session: GameSession
) -> None:
    page = teacher_client.get(reverse("session_console", args=[guest_session.pk])).content.decode()
    title = page[page.index("<title>") : page.index("</title>")]
    assert "<" not in title.removeprefix("<title>")
    assert page.count("js/dashboard_sort") == 1
    main_tag = page.split("<main", 1)[1].split(">", 1)[0]
    assert "container wide" in main_tag


def test_the_console_gives_one_student_a_smaller_refill_pile(
    teacher_client: Client, teacher: User
) -> None:
    session = session_create(
        teacher=teacher, game="commotion", school_class=None, players_per_table=4, settings={}
    )
    seat = seat_join_guest(session=session, nickname="Ava")
    console = teacher_client.get(reverse("session_console", args=[session.pk])).content.decode()
    assert f'id="option-refill-{seat.pk}"' in console
    url = reverse("seat_action", args=[session.pk, seat.pk, "option"])
    response = teacher_client.post(
        url, {"name": "refill", "value": "5"}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    seat.refresh_from_db()
    assert seat.options == {"refill": 5}
    assert '<option value="5" selected>' in response.content.decode()
    refused = teacher_client.post(
        url, {"name": "refill", "value": "99"}, headers={"HX-Request": "true"}
    )
    assert "Choose one of the listed values." in refused.content.decode()
    seat.refresh_from_db()
    assert seat.options == {"refill": 5}
    teacher_client.post(url, {"name": "refill", "value": ""}, headers={"HX-Request": "true"})
    seat.refresh_from_db()
    assert seat.options == {}


# --------------------------------------------------------------------------------------------
# Deleting a session


def _ended_guest_session(make_session: MakeSession) -> GameSession:
    session = make_session()
    seat_join_guest(session=session, nickname="Mia Real-Name")
    session_start(session=session)
    session_end(session=session)
    return session


def test_an_ended_session_is_deleted_after_its_confirmation_page(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _ended_guest_session(make_session)
    home = _text(teacher_client.get(reverse("home")))
    assert reverse("session_delete_confirm", args=[session.pk]) in home
    report = _text(teacher_client.get(reverse("session_report", args=[session.pk])))
    assert reverse("session_delete_confirm", args=[session.pk]) in report

    page = teacher_client.get(reverse("session_delete_confirm", args=[session.pk]))
    assert page.status_code == 200
    assert "1 player's name and place" in _text(page)
    assert reverse("session_delete", args=[session.pk]) in _text(page)
    assert GameSession.objects.filter(pk=session.pk).exists()  # looking deletes nothing

    response = teacher_client.post(reverse("session_delete", args=[session.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse("home")
    assert f"Session {session.code} deleted" in _text(response)
    assert "Mia Real-Name" not in _text(teacher_client.get(reverse("home")))
    # The worker purges its rows; meanwhile none of its pages answers.
    for name in ("session_report", "session_delete_confirm", "session_console"):
        assert teacher_client.get(reverse(name, args=[session.pk])).status_code == 404
    sessions_purge()
    assert not GameSession.objects.filter(pk=session.pk).exists()


def test_deleting_an_open_session_is_refused_with_a_reason(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = make_session()
    page = _text(teacher_client.get(reverse("session_delete_confirm", args=[session.pk])))
    assert "still open" in page
    response = teacher_client.post(reverse("session_delete", args=[session.pk]))
    assert response.status_code == 409
    assert "End it first, then delete it." in _text(response)
    assert GameSession.objects.filter(pk=session.pk).exists()


def test_session_delete_only_takes_a_post(
    teacher_client: Client, make_session: MakeSession
) -> None:
    session = _ended_guest_session(make_session)
    assert teacher_client.get(reverse("session_delete", args=[session.pk])).status_code == 405
    assert GameSession.objects.filter(pk=session.pk).exists()
