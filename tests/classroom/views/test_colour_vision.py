"""Every child can play: safe colours per session and per student, the game's language, and
reports that say which results were played on the safe colours."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from classroom.forms.sessions import SessionForm
from classroom.models import GameSession
from classroom.pages.fragments import projector_fragment_render
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.classes import student_colour_safe_set
from classroom.services.seats import seat_join_guest, seat_join_student
from classroom.services.sessions import session_create, session_start
from tests.classroom.prepared_reports import reports_printed
from tests.classroom.trial_rows import played_session, trial_add
from tests.classroom.views.test_site_flow import _settings_post

if TYPE_CHECKING:
    from pathlib import Path

    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import SchoolClass, Seat

pytestmark = pytest.mark.django_db


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _session(teacher: User, school_class: SchoolClass | None, **options: Any) -> GameSession:
    return session_create(
        teacher=teacher,
        game=options.pop("game", "palm_strike"),
        school_class=school_class,
        players_per_table=2,
        settings={},
        **options,
    )


def _game_page(seat: Seat, language: str = "en") -> str:
    """The seat's game page, on a tablet whose pages are in ``language``."""
    tablet = Client(headers={"accept-language": language})
    tablet.cookies[seat_cookie_name(seat.session.code)] = seat.token
    response = tablet.get(reverse("play_lobby", args=[seat.session.code]))
    assert response.status_code == 200
    return _text(response)


def _palette(page: str) -> str:
    match = re.search(r'data-palette="([^"]+)"', page)
    assert match
    return match.group(1)


def _labels(page: str, script_id: str = "ps-labels") -> dict[str, Any]:
    match = re.search(rf'<script id="{script_id}" type="application/json">(.*?)</script>', page)
    assert match
    return json.loads(match.group(1))


# --------------------------------------------------------------------------------------------
# The class page: a toggle per student


@pytest.mark.parametrize("htmx", [False, True])
def test_the_teacher_turns_a_students_safe_colours_on_and_off(
    teacher_client: Client, school_class: SchoolClass, htmx: bool
) -> None:
    ava = school_class.students.get(display_name="Ava")
    url = reverse("student_colour_safe", args=[school_class.pk, ava.pk])
    page = _text(teacher_client.get(reverse("class_detail", args=[school_class.pk])))
    assert page.count('aria-pressed="false"') == 5
    assert "Colour-vision-safe colours" in page
    headers = {"HX-Request": "true"} if htmx else {}

    response = teacher_client.post(url, {"colour_safe": "on"}, headers=headers)

    ava.refresh_from_db()
    assert ava.colour_safe
    if htmx:
        row = _text(response)
        assert f'id="student-{ava.pk}"' in row
        assert 'aria-pressed="true"' in row
        assert 'value="off"' in row  # the next press turns it off
        assert "<html" not in row
    else:
        assert response["Location"] == reverse("class_detail", args=[school_class.pk])
    teacher_client.post(url, {"colour_safe": "off"}, headers=headers)
    ava.refresh_from_db()
    assert not ava.colour_safe
    assert teacher_client.get(url).status_code == 405


def test_another_teacher_cannot_change_a_students_colours(
    client: Client, other_teacher: User, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    client.force_login(other_teacher)
    url = reverse("student_colour_safe", args=[school_class.pk, ava.pk])
    assert client.post(url, {"colour_safe": "on"}).status_code == 404
    ava.refresh_from_db()
    assert not ava.colour_safe


# --------------------------------------------------------------------------------------------
# The new-session form and the console


def test_the_session_form_offers_colours_and_the_language_of_the_game(teacher: User) -> None:
    with translation.override("zh-hant"):
        form = SessionForm(teacher=teacher)
        assert form["language"].value() == "zh-hant"  # the teacher's language by default
    assert SessionForm(teacher=teacher)["language"].value() == "en"
    assert form["palette"].value() == "standard"
    assert dict(form.fields["language"].choices) == {  # type: ignore[attr-defined]
        "en": "English",
        "zh-hant": "繁體中文",
    }


def test_a_session_is_created_with_safe_colours_and_chinese_words(
    teacher_client: Client,
) -> None:
    response = teacher_client.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "players_per_table": "3",
            "palette": "okabe_ito",
            "language": "zh-hant",
            **_settings_post(),
        },
    )
    session = GameSession.objects.get()
    assert response["Location"] == reverse("session_console", args=[session.pk])
    assert (session.palette, session.language) == ("okabe_ito", "zh-hant")
    console = _text(teacher_client.get(response["Location"]))
    assert "Colour-vision-safe (Okabe-Ito)" in console
    assert "繁體中文" in console


def test_a_form_without_the_new_fields_keeps_the_defaults(teacher_client: Client) -> None:
    teacher_client.cookies["django_language"] = "zh-hant"
    teacher_client.post(
        reverse("session_new"),
        {"game": "palm_strike", "players_per_table": "3", **_settings_post()},
    )
    session = GameSession.objects.get()
    assert (session.palette, session.language) == ("standard", "zh-hant")


# --------------------------------------------------------------------------------------------
# The tablets


def test_a_colour_safe_student_plays_on_the_safe_palette_and_the_others_do_not(
    teacher: User, school_class: SchoolClass
) -> None:
    student_colour_safe_set(student=school_class.students.get(display_name="Ava"), colour_safe=True)
    session = _session(teacher, school_class)
    ava, ben = (
        seat_join_student(session=session, student=school_class.students.get(display_name=name))
        for name in ("Ava", "Ben")
    )
    session_start(session=session)
    assert _palette(_game_page(ava)) == "okabe_ito"
    assert _palette(_game_page(ben)) == "standard"


@pytest.mark.parametrize("game", ["palm_strike", "commotion", "riff_raff"])
def test_a_safe_palette_session_gives_every_tablet_the_safe_palette(
    teacher: User, game: str
) -> None:
    session = _session(teacher, None, game=game, palette="okabe_ito")
    guest = seat_join_guest(session=session, nickname="Kit")
    session_start(session=session)
    page = _game_page(guest)
    assert _palette(page) == "okabe_ito"
    if game != "palm_strike":  # where colours mean a card's suit or a player's cargo
        assert "js/colour_symbols.js" in page


def test_a_chinese_session_prints_chinese_colour_words_on_an_english_tablet(
    teacher: User,
) -> None:
    session = _session(teacher, None, language="zh-hant")
    guest = seat_join_guest(session=session, nickname="Kit")
    session_start(session=session)
    page = _game_page(guest, language="en")
    labels = _labels(page)
    assert labels["word"] == {
        "red": "紅",
        "yellow": "黃",
        "blue": "藍",
        "green": "綠",
        "purple": "紫",
    }
    assert labels["word_language"] == "zh-hant"
    assert labels["slap"] == "Slap"  # the rest of the page stays in the tablet's language
    assert 'lang="en"' in page


def test_an_english_session_prints_english_colour_words_on_a_chinese_tablet(
    teacher: User,
) -> None:
    session = _session(teacher, None, language="en")
    guest = seat_join_guest(session=session, nickname="Kit")
    session_start(session=session)
    labels = _labels(_game_page(guest, language="zh-TW"))
    assert labels["word"]["red"] == "RED"
    assert labels["slap"] != "Slap"


# --------------------------------------------------------------------------------------------
# Reports


@pytest.fixture
def played_colour_safe(teacher: User, school_class: SchoolClass) -> tuple[GameSession, Seat]:
    """Ava played on the safe palette, Ben on the standard one, in a Chinese session."""
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"]).order_by("pk")
    session = _session(teacher, school_class, language="zh-hant")
    seats = played_session(session=session, students=[ava, ben])
    for flip in (1, 2):
        trial = trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=500, flip=flip)
        trial.data["accommodation"] = "colour_safe"
        trial.save(update_fields=["data"])
        trial_add(seat=seats[ben.pk], target=True, responded=True, rt_ms=520, flip=flip)
    return session, seats[ava.pk]


def test_the_session_report_marks_the_seat_that_played_on_safe_colours(
    teacher_client: Client, played_colour_safe: tuple[GameSession, Seat]
) -> None:
    session, _ava = played_colour_safe
    page = _text(teacher_client.get(reverse("session_report", args=[session.pk])))
    rows = {
        name: row
        for row in re.findall(r'<tr class="row-main">(.*?)</tr>', page, re.S)
        for name in ("Ava", "Ben")
        if f">{name}</a>" in row
    }
    assert "colour-safe palette" in rows["Ava"]
    assert "colour-safe palette" not in rows["Ben"]
    assert "compare these reaction times" in page


def test_the_seat_report_shows_the_badge_and_the_cards_as_the_child_saw_them(
    teacher_client: Client, played_colour_safe: tuple[GameSession, Seat]
) -> None:
    session, ava = played_colour_safe
    page = _text(teacher_client.get(reverse("session_report_seat", args=[session.pk, ava.pk])))
    assert "colour-safe palette" in page
    # The public card of trial_add is the word "blue": shown in the session's language, in
    # the colours Ava saw.
    card = re.search(r'<span class="mini-card" data-palette="okabe_ito"[^>]*>(.*?)</span>', page)
    assert card
    assert "藍" in card.group(1)


def test_the_students_progress_marks_the_session_played_on_safe_colours(
    teacher_client: Client,
    school_class: SchoolClass,
    played_colour_safe: tuple[GameSession, Seat],
    tmp_path: Path,
) -> None:
    ava = school_class.students.get(display_name="Ava")
    ben = school_class.students.get(display_name="Ben")
    pages = {
        name: _text(
            teacher_client.get(reverse("student_progress", args=[school_class.pk, student.pk]))
        )
        for name, student in (("Ava", ava), ("Ben", ben))
    }
    assert "colour-safe palette" in pages["Ava"]
    assert "colour-safe palette" not in pages["Ben"]
    printed = html.unescape(reports_printed(teacher_client, school_class, exports_root=tmp_path))
    assert "colour-safe palette" in printed


# --------------------------------------------------------------------------------------------
# The projector


def test_the_projector_shows_each_tables_card_in_the_language_of_the_game(
    teacher: User,
) -> None:
    session = _session(teacher, None, language="zh-hant", palette="okabe_ito")
    seat_join_guest(session=session, nickname="Kit")
    session_start(session=session)
    table = session.tables.get()
    view = {
        "game": "palm_strike",
        "phase": "open",
        "flip": 3,
        "public": {"type": "public", "bg": "yellow", "word": "red", "ink": "blue"},
        "players": [],
    }
    with translation.override("en"):  # the teacher's projector page is in English
        page = html.unescape(
            projector_fragment_render(session_id=session.pk, views={table.pk: view})
        )
    card = re.search(
        r'<span class="public-face" role="img" aria-label="([^"]*)" data-style="([^"]*)"'
        r' lang="zh-hant">([^<]*)</span>',
        page,
    )
    assert card
    assert card.group(3) == "紅"
    assert card.group(1) == "Card face up: 紅"  # named for a screen reader, in the game's word
    assert card.group(2) == "--face-bg: var(--c-yellow); --face-ink: var(--c-blue)"
    client = Client()
    client.force_login(teacher)
    projector = _text(client.get(reverse("session_projector", args=[session.pk])))
    assert 'data-palette="okabe_ito"' in projector  # the children see the session's colours


def test_the_trials_export_names_the_accommodation(
    teacher_client: Client, played_colour_safe: tuple[GameSession, Seat]
) -> None:
    session, _ava = played_colour_safe
    response = teacher_client.get(reverse("session_export", args=[session.pk, "trials.csv"]))
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    by_name = {row["Name"]: row["Accommodation"] for row in rows}
    assert by_name == {"Ava": "colour_safe", "Ben": ""}
