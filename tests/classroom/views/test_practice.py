"""Practice pages on a tablet and the teacher's practice page, through the test client."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom.models import Assignment, GameSession, Seat, SeatConnection
from classroom.people.practice_cookies import PRACTICE_COOKIE
from classroom.people.seat_cookies import seat_cookie_name
from classroom.processes import PROCESS_ID
from classroom.services.practice_access import practice_code_open
from classroom.services.seats import seat_join_student
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import SchoolClass, Student

pytestmark = pytest.mark.django_db


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _signed_in(student: Student) -> Client:
    tablet = Client()
    tablet.get(reverse("join_badge", args=[student.token]))
    return tablet


def test_practice_needs_a_signed_in_student(client: Client) -> None:
    for name in ("practice_home", "practice_progress"):
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response["Location"] == reverse("practice_sign_in")
    assert client.post(reverse("practice_start"), {"game": "commotion"}).status_code == 302
    assert not GameSession.objects.exists()


def test_a_forged_practice_cookie_signs_nobody_in(school_class: SchoolClass) -> None:
    tablet = Client()
    tablet.cookies[PRACTICE_COOKIE] = school_class.students.get(display_name="Ava").token
    assert tablet.get(reverse("practice_home")).status_code == 302


def test_class_code_then_name_signs_in(school_class: SchoolClass) -> None:
    practice_code_open(school_class=school_class)
    tablet = Client()
    response = tablet.post(
        reverse("practice_sign_in"), {"code": school_class.practice_code.lower()}
    )
    assert response["Location"] == reverse(
        "practice_sign_in_class", args=[school_class.practice_code]
    )
    page = tablet.get(response["Location"])
    assert "Ben" in _text(page)
    ben = school_class.students.get(display_name="Ben")
    tablet.post(response["Location"], {"student": str(ben.pk)})
    assert "Hi, Ben!" in _text(tablet.get(reverse("practice_home")))


def test_a_wrong_class_code_and_a_bad_name_are_told_plainly(school_class: SchoolClass) -> None:
    practice_code_open(school_class=school_class)
    tablet = Client()
    response = tablet.post(reverse("practice_sign_in"), {"code": "ZZZZZZ"})
    assert "We couldn't find a class with the code ZZZZZZ." in _text(response)
    url = reverse("practice_sign_in_class", args=[school_class.practice_code])
    response = tablet.post(url, {"student": "abc"})
    assert response.status_code == 400
    assert "Tap your name in the list." in _text(response)
    assert PRACTICE_COOKIE not in tablet.cookies


def test_start_play_finish_and_see_the_result(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    tablet = _signed_in(ava)
    home = _text(tablet.get(reverse("practice_home")))
    assert "Play with robots" in home
    assert "Play alone" in home
    response = tablet.post(reverse("practice_start"), {"game": "palm_strike", "mode": "solo"})
    session = GameSession.objects.get(kind=GameSession.Kind.PRACTICE)
    assert response["Location"] == reverse("play_lobby", args=[session.code])
    # Practice starts with the warm-up (on by default); skipping it goes on to the game.
    assert "Tap the star as soon as it appears!" in _text(tablet.get(response["Location"]))
    screen = {"screen_width": "1024", "screen_height": "768", "frame_interval_ms": "16.7"}
    skip = tablet.post(reverse("play_warmup", args=[session.code]), {**screen, "rts": ""})
    assert skip.json() == {"ok": True, "median_ms": None}
    game_page = _text(tablet.get(response["Location"]))
    assert "I'm done" in game_page
    assert "data-adaptive-level" in game_page
    response = tablet.post(reverse("practice_finish", args=[session.code]))
    assert response["Location"] == reverse("practice_result", args=[session.code])
    assert "Well played!" in _text(tablet.get(response["Location"]))
    session.refresh_from_db()
    assert session.status == GameSession.Status.ENDED


def test_bad_start_requests_change_nothing(school_class: SchoolClass) -> None:
    tablet = _signed_in(school_class.students.get(display_name="Ava"))
    for data in ({"game": "chess"}, {"game": "riff_raff", "mode": "solo"}, {"assignment": "99"}):
        response = tablet.post(reverse("practice_start"), data)
        assert response.status_code == 400
        assert 'role="alert"' in response.content.decode()
    assert not GameSession.objects.exists()


def test_another_tablet_cannot_finish_or_see_a_practice_game(school_class: SchoolClass) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    ava_tablet = _signed_in(ava)
    ava_tablet.post(reverse("practice_start"), {"game": "commotion"})
    session = GameSession.objects.get()
    ben_tablet = _signed_in(ben)
    assert ben_tablet.post(reverse("practice_finish", args=[session.code]))["Location"] == reverse(
        "practice_home"
    )
    assert ben_tablet.get(reverse("practice_result", args=[session.code])).status_code == 302
    session.refresh_from_db()
    assert session.status == GameSession.Status.RUNNING


def test_a_practice_code_cannot_be_joined(school_class: SchoolClass) -> None:
    tablet = _signed_in(school_class.students.get(display_name="Ava"))
    tablet.post(reverse("practice_start"), {"game": "commotion"})
    code = GameSession.objects.get().code
    stranger = Client()
    response = stranger.get(reverse("join_session", args=[code]))
    assert response.status_code == 404
    assert f"We couldn't find a game with the code {code}" in _text(response)


def test_the_teacher_sets_practice_and_sees_who_did_it(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    url = reverse("class_practice", args=[school_class.pk])
    page = _text(client.get(url))
    assert school_class.practice_code in page
    data = {"game": "riff_raff", "student": "", "rung_min": "0", "rung_max": "2",
            "goal": "2", "goal_kind": "games", "due_on": "2026-12-24"}  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 302
    assignment = Assignment.objects.get()
    assert (assignment.game, assignment.rung_max, assignment.goal) == ("riff_raff", 2, 2)
    page = _text(client.get(url))
    assert "0 of 5 done" in page
    assert "Not started" in page


def test_a_bad_assignment_is_refused_with_the_reason(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    url = reverse("class_practice", args=[school_class.pk])
    data = {"game": "palm_strike", "student": "", "rung_min": "5", "rung_max": "1",
            "goal": "3", "goal_kind": "minutes", "due_on": ""}  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 400
    assert "The hardest level must be at least the easiest one." in _text(response)
    assert not Assignment.objects.exists()


def test_the_level_fields_follow_the_game(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    url = reverse("assignment_levels", args=[school_class.pk])
    text = _text(client.get(url, {"game": "commotion"}))
    assert "Level 8 of 8: Clear 13 cards, turn 3 at a time" in text
    assert "Level 9 of" not in text


# --------------------------------------------------------------------------------------------
# A practice sign-in by code + name is not the child's badge


def _code_signed_in(school_class: SchoolClass, name: str) -> Client:
    """A tablet signed in the way anyone who read the board can: class code, then a name."""
    student = school_class.students.get(display_name=name)
    practice_code_open(school_class=school_class)
    tablet = Client()
    url = reverse("practice_sign_in_class", args=[school_class.practice_code])
    assert tablet.post(url, {"student": str(student.pk)})["Location"] == reverse("practice_home")
    return tablet


def test_a_code_sign_in_never_carries_the_badge_token(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    tablet = _code_signed_in(school_class, "Ava")
    everything = " ".join(morsel.value for morsel in tablet.cookies.values())
    assert ava.token not in everything


def test_join_class_game_from_a_code_sign_in_cannot_take_a_connected_seat(
    school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> None:
    session = make_session(school_class=school_class)
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=session, student=ava)
    SeatConnection.objects.create(seat=seat, channel_name="ava-tablet", process_id=PROCESS_ID)
    tablet = _code_signed_in(school_class, "Ava")
    response = tablet.post(reverse("practice_join_class"))
    assert response.status_code == 400
    assert "Ava is already playing on another tablet." in _text(response)
    assert Seat.objects.get(pk=seat.pk).token == seat.token  # the child keeps their seat
    assert seat_cookie_name(session.code) not in tablet.cookies


def test_a_code_sign_in_does_not_see_the_childs_history(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    past = GameSession.objects.create(
        teacher_id=school_class.teacher_id, school_class=school_class, game="palm_strike",
        players_per_table=2, code="PAST01", seed=1,
    )  # fmt: skip
    seats = played_session(session=past, students=[ava])
    trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=640)
    by_badge = _text(_signed_in(ava).get(reverse("practice_progress")))
    assert "practice-progress-game" in by_badge  # control: the badge holder sees it
    by_code = _text(_code_signed_in(school_class, "Ava").get(reverse("practice_progress")))
    assert "practice-progress-game" not in by_code
    assert "640" not in by_code


def test_join_class_game_from_a_badge_sign_in_still_takes_the_seat_over(
    school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> None:
    session = make_session(school_class=school_class)
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=session, student=ava)
    SeatConnection.objects.create(seat=seat, channel_name="lost-tablet", process_id=PROCESS_ID)
    tablet = Client()
    with_badge = tablet.get(reverse("join_badge", args=[ava.token]))  # a game is open: a seat
    assert with_badge["Location"] == reverse("play_lobby", args=[session.code])
    taken = Seat.objects.get(pk=seat.pk)
    assert taken.token != seat.token
    assert taken.via_badge


def test_a_code_sign_in_sees_the_games_it_played(school_class: SchoolClass) -> None:
    tablet = _code_signed_in(school_class, "Ava")
    tablet.post(reverse("practice_start"), {"game": "palm_strike", "mode": "solo"})
    seat = Seat.objects.get(session__kind=GameSession.Kind.PRACTICE)
    trial_add(seat=seat, target=True, responded=True, rt_ms=512)
    page = _text(tablet.get(reverse("practice_progress")))
    assert "practice-progress-game" in page
    assert "512 ms" in page
    assert "Scan your badge to see all your progress." in page


def test_a_closed_code_is_told_kindly_and_shows_no_names(school_class: SchoolClass) -> None:
    tablet = Client()
    response = tablet.post(reverse("practice_sign_in"), {"code": school_class.practice_code})
    assert response.status_code == 403
    assert "Practice with the class code is closed right now." in _text(response)
    page = tablet.get(reverse("practice_sign_in_class", args=[school_class.practice_code]))
    assert page.status_code == 403
    assert "Ben" not in _text(page)
    ben = school_class.students.get(display_name="Ben")
    url = reverse("practice_sign_in_class", args=[school_class.practice_code])
    assert tablet.post(url, {"student": str(ben.pk)}).status_code == 403
    assert PRACTICE_COOKIE not in tablet.cookies


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ("close", "Practice with the class code is closed right now."),
        ("rotate", "Your class has a new practice code."),
    ],
)
def test_the_teacher_closing_or_renewing_the_code_signs_code_tablets_out(
    client: Client, teacher: User, school_class: SchoolClass, action: str, message: str
) -> None:
    tablet = _code_signed_in(school_class, "Ava")
    badge_tablet = _signed_in(school_class.students.get(display_name="Ben"))
    client.force_login(teacher)
    response = client.post(reverse("practice_code_action", args=[school_class.pk, action]))
    assert response["Location"] == reverse("class_practice", args=[school_class.pk])
    notice = _text(client.get(response["Location"]))
    assert "1 tablet was signed out." in notice
    page = tablet.get(reverse("practice_home"))
    assert page.status_code == 403
    assert message in _text(page)
    assert "Hi, Ben!" in _text(badge_tablet.get(reverse("practice_home")))  # badges still work


def test_the_teacher_opens_practice_by_code(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    url = reverse("class_practice", args=[school_class.pk])
    assert 'data-practice-code-state="closed"' in _text(client.get(url))
    response = client.post(
        reverse("practice_code_action", args=[school_class.pk, "open"]), {"open_for": "hour"}
    )
    assert response.status_code == 302
    page = _text(client.get(url))
    assert 'data-practice-code-state="open"' in page
    assert "Children can sign in with the practice code now." in page
    school_class.refresh_from_db()
    assert school_class.practice_code_open_until is not None


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ({"open_for": "week"}, "Select a valid choice."),
        ({"open_for": "day", "school_day_ends": "25:99"}, "Enter a valid time."),
        ({"open_for": "day", "school_day_ends": "00:01"}, "The school day ended at"),
    ],
)
def test_a_bad_opening_is_refused_with_the_reason(
    client: Client, teacher: User, school_class: SchoolClass, data: dict[str, str], problem: str
) -> None:
    client.force_login(teacher)
    response = client.post(reverse("practice_code_action", args=[school_class.pk, "open"]), data)
    assert response.status_code == 400
    assert problem in _text(response)
    school_class.refresh_from_db()
    assert school_class.practice_code_open_until is None


def test_an_unknown_practice_code_action_is_404(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    client.force_login(teacher)
    response = client.post(reverse("practice_code_action", args=[school_class.pk, "delete"]))
    assert response.status_code == 404


def test_a_wrong_class_code_keeps_the_fields_label(school_class: SchoolClass) -> None:
    response = Client().post(reverse("practice_sign_in"), {"code": "ZZZZZZ"})
    assert '<label class="play-label" for="id_code">Class practice code</label>' in _text(response)


def test_a_closed_code_is_told_in_traditional_chinese_too(school_class: SchoolClass) -> None:
    tablet = Client(headers={"accept-language": "zh-TW,zh;q=0.9"})
    with translation.override("en"):  # the request's language stays with the request
        response = tablet.post(reverse("practice_sign_in"), {"code": school_class.practice_code})
    assert "現在不能用班級代碼練習。請掃描你的名牌，或問問老師。" in _text(response)
