"""The pages of a session that holds several games: console, projector, home, new-session form."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.urls import reverse
from django.utils import timezone

from classroom.models import GameSession, Seat, Table
from classroom.selectors.sessions import session_tables_current
from classroom.services.live_tables import table_finished
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_end, session_start
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import SchoolClass


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


def _started(make_session: Callable[..., GameSession], *names: str, **kw: Any) -> GameSession:
    session = make_session(**kw)
    for name in names:
        seat_join_guest(session=session, nickname=name)
    return session_start(session=GameSession.objects.get(pk=session.pk))


def test_console_says_a_finished_game_is_over_and_plays_again(
    teacher_client: Client, make_session: Callable[..., GameSession]
) -> None:
    session = _started(make_session, "Ann", "Ben")
    console = _text(teacher_client.get(reverse("session_console", args=[session.pk])))
    assert "Game 1" in console
    assert "data-game-over" not in console
    assert "Play again" in console
    assert ">Pause</button>" in console
    for table in session_tables_current(session=session):
        table_finished(table_id=table.pk)
    console = _text(teacher_client.get(reverse("session_console", args=[session.pk])))
    assert "Game 1 is over on every table" in console
    assert 'status-game_over">Game over' in console  # not "Running"
    assert "Finished" in console  # the table's status, not "Playing"
    assert ">Pause</button>" not in console  # nothing is left to pause
    projector = _text(teacher_client.get(reverse("session_projector", args=[session.pk])))
    assert "Game 1 is over. Well played!" in projector
    assert 'data-projector-state="game-over"' in projector

    response = teacher_client.post(
        reverse("session_action", args=[session.pk, "play-again"]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    text = _text(response)
    assert "Game 2" in text
    assert "is over on every table" not in text
    session.refresh_from_db()
    assert session.game_number == 2


def test_console_plays_again_with_changed_settings(
    teacher_client: Client, make_session: Callable[..., GameSession]
) -> None:
    session = _started(make_session, "Ann", "Ben", settings={"level": "beginner"})
    console = _text(teacher_client.get(reverse("session_console", args=[session.pk])))
    assert "Play again with other settings" in console
    data = {f"settings-{name}": value for name, value in session.settings.items()}
    data = {k: ("on" if v is True else str(v)) for k, v in data.items() if v is not False}
    data["settings-level"] = "advanced"
    response = teacher_client.post(reverse("session_play_again", args=[session.pk]), data)
    assert response.status_code == 302
    session.refresh_from_db()
    assert (session.game_number, session.settings["level"]) == (2, "advanced")


def test_sound_switch_on_the_console(
    teacher_client: Client, make_session: Callable[..., GameSession]
) -> None:
    session = _started(make_session, "Ann", "Ben")
    assert not session.sound  # off on the tablets unless the teacher turns it on
    console = _text(teacher_client.get(reverse("session_console", args=[session.pk])))
    assert "Sound on the tablets" in console
    teacher_client.post(reverse("session_action", args=[session.pk, "sound-on"]))
    session.refresh_from_db()
    assert session.sound


def test_home_lists_sessions_by_class_with_game_date_and_state(
    teacher_client: Client,
    teacher: User,
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
) -> None:
    playing = _started(make_session, "Ann", "Ben", school_class=None)
    over = _started(make_session, "Cat", "Dan", school_class=None)
    for table in session_tables_current(session=over):
        table_finished(table_id=table.pk)
    ended = make_session(school_class=school_class)
    session_end(session=ended)
    commotion = session_create(
        teacher=teacher,
        game="commotion",
        school_class=school_class,
        players_per_table=2,
        settings={},
    )
    text = _text(teacher_client.get(reverse("home")))
    # Classes by name, guests last; each row names the game, the date and the state.
    assert text.index(school_class.name) < text.index("Guests")
    rows = {
        session.pk: text[text.index(f'data-session="{session.pk}"') :].split("</tr>")[0]
        for session in (playing, over, ended, commotion)
    }
    assert "Palm Strike" in rows[playing.pk]
    assert "Running" in rows[playing.pk]
    assert "Game over" in rows[over.pk]
    assert "Ended" in rows[ended.pk]
    assert "Commotion" in rows[commotion.pk]
    assert "Lobby" in rows[commotion.pk]
    assert timezone.localtime(commotion.created_at).strftime("%Y") in rows[commotion.pk]


def test_home_ends_a_forgotten_session_before_listing_it(
    teacher_client: Client, make_session: Callable[..., GameSession]
) -> None:
    session = _started(make_session, "Ann", "Ben")
    long_ago = timezone.now() - timedelta(hours=2)
    GameSession.objects.filter(pk=session.pk).update(started_at=long_ago)
    session.seats.update(last_seen_at=long_ago)
    text = _text(teacher_client.get(reverse("home")))
    assert GameSession.objects.get(pk=session.pk).status == GameSession.Status.ENDED
    assert "Ended" in text


def test_new_session_form_starts_from_the_last_settings_and_class(
    teacher_client: Client, teacher: User, school_class: SchoolClass
) -> None:
    fresh = teacher_client.get(reverse("session_new"))
    assert fresh.context["form"]["school_class"].value() in (None, "")
    session_create(
        teacher=teacher,
        game="commotion",
        school_class=school_class,
        players_per_table=3,
        settings={"refill_size": 8},
        leaderboard="end",
        scoring=False,
        palette="okabe_ito",
        language="zh-hant",
    )
    page = teacher_client.get(reverse("session_new"))
    form = page.context["form"]
    assert form["school_class"].value() == school_class.pk
    assert form["players_per_table"].value() == 3
    assert form["leaderboard"].value() == "end"
    assert form["scoring"].value() == "off"
    assert form["palette"].value() == "okabe_ito"
    assert form["language"].value() == "zh-hant"
    assert page.context["spec"].slug == "commotion"
    assert page.context["settings_form"]["refill_size"].value() == 8
    # Another game asked for: the class and controls stay, the game's own defaults apply.
    other = teacher_client.get(reverse("session_new") + "?game=palm_strike")
    assert other.context["spec"].slug == "palm_strike"
    assert other.context["form"]["school_class"].value() == school_class.pk


def test_the_report_shows_each_game_and_the_session_together(
    teacher_client: Client, school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> None:
    session = make_session(school_class=school_class)
    student = school_class.students.first()
    assert student is not None
    seats = played_session(session=session, students=[student])
    seat = seats[student.pk]
    for flip in range(1, 5):  # game 1: four right answers
        trial_add(seat=seat, target=True, responded=True, rt_ms=500, flip=flip)
    second = Table.objects.create(session=session, game_number=2, number=1, roster=[], seed=2)
    Seat.objects.filter(pk=seat.pk).update(table=second)
    seat.refresh_from_db()
    for flip in range(1, 5):  # game 2: four misses
        trial_add(seat=seat, target=True, responded=False, flip=flip)
    GameSession.objects.filter(pk=session.pk).update(game_number=2)
    text = _text(teacher_client.get(reverse("session_report", args=[session.pk])))
    assert "By game" in text
    by_game = text[text.index('id="by-game"') :].split("</table>")[0]
    assert "Game 1" in by_game
    assert "Game 2" in by_game
    assert "100 %" in by_game or "100%" in by_game
    assert "The session played 2 games" in text


def test_the_settings_legend_names_the_game_in_chinese(teacher_client: Client) -> None:
    teacher_client.cookies["django_language"] = "zh-hant"
    text = _text(teacher_client.get(reverse("session_new") + "?game=palm_strike"))
    assert "「色字頭上一掌拍」設定" in text
    assert "Palm Strike" not in text.split('id="game-settings"')[1].split("</legend>")[0]


# Emoji need an emoji font (a box without one); icons are inline SVG (templates/_icon.html).
# (Symbols drawn as text, such as the check marks and the star, are fine.)
EMOJI = re.compile(
    "[\U0001f000-\U0001ffff\u2693\u26a1\u2b50\u2705\u274c\u2757\u231b\u23f3\u2615\u26d4]"
)


def test_no_emoji_in_pages_scripts_styles_or_labels() -> None:
    root = Path(__file__).resolve().parents[2]
    places = [root / "templates", root / "static" / "js", root / "static" / "css"]
    files = [path for place in places for path in place.rglob("*") if path.is_file()]
    files += list((root / "classroom" / "gamesite").glob("*.py"))
    found = [
        f"{path.relative_to(root)}: {match.group()}"
        for path in files
        if path.suffix in {".html", ".js", ".css", ".py"}
        for match in [EMOJI.search(path.read_text(encoding="utf-8"))]
        if match
    ]
    assert found == []
