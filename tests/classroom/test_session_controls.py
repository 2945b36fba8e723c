"""The class controls: set on the new-session form, changed on the console, honoured by the
console's and the projector's table tiles."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.urls import reverse

from classroom.forms.sessions import SessionForm
from classroom.models import GameSession
from classroom.pages import fragments, notify
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import (
    session_controls_update,
    session_create,
    session_end,
    session_pause,
    session_start,
)
from games.palm_strike.config import Config

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.test import Client

    MakeSession = Callable[..., GameSession]

HTMX = {"HX-Request": "true"}


def _text(response: Any) -> str:
    return html.unescape(response.content.decode())


def _palm_strike_settings() -> dict[str, str]:
    """The game's settings fieldset as the page posts it (every default, booleans as "on")."""
    data = {}
    for name in Config.__dataclass_fields__:
        value = getattr(Config(), name)
        if value is not False:
            data[f"settings-{name}"] = "on" if value is True else str(value)
    return data


# ---- the form and session_create -----------------------------------------------------------


def test_the_form_offers_the_controls_with_friendly_defaults(teacher: User) -> None:
    form = SessionForm(teacher=teacher)
    assert form["leaderboard"].value() in (None, "always")
    assert [value for value, _label in form.fields["leaderboard"].choices] == [  # type: ignore[attr-defined]
        "always",
        "between_rounds",
        "end",
        "never",
    ]
    assert not form["adaptive"].value()


def test_the_form_reads_the_controls(teacher: User) -> None:
    data = {
        "game": "palm_strike",
        "players_per_table": "3",
        "leaderboard": "between_rounds",
        "scoring": "off",
        "late_join": "off",
        "adaptive": "on",
    }
    form = SessionForm(data, teacher=teacher)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["leaderboard"] == "between_rounds"
    assert form.cleaned_data["scoring"] is False
    assert form.cleaned_data["late_join"] is False
    assert form.cleaned_data["adaptive"] is True


def test_a_form_posted_without_the_controls_keeps_the_defaults(teacher: User) -> None:
    form = SessionForm({"game": "palm_strike", "players_per_table": "3"}, teacher=teacher)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["leaderboard"] == "always"
    assert form.cleaned_data["scoring"] is True
    assert form.cleaned_data["late_join"] is True
    assert form.cleaned_data["adaptive"] is False


def test_the_form_refuses_an_unknown_leaderboard_setting(teacher: User) -> None:
    form = SessionForm(
        {"game": "palm_strike", "players_per_table": "3", "leaderboard": "sometimes"},
        teacher=teacher,
    )
    assert not form.is_valid()
    assert "leaderboard" in form.errors


def test_session_create_stores_the_controls(teacher: User) -> None:
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=None,
        players_per_table=2,
        settings={},
        leaderboard="never",
        scoring=False,
        late_join=False,
        adaptive=True,
    )
    session.refresh_from_db()
    assert (session.leaderboard, session.scoring, session.late_join, session.adaptive) == (
        "never",
        False,
        False,
        True,
    )


def test_session_create_refuses_an_unknown_leaderboard_setting(teacher: User) -> None:
    with pytest.raises(ValidationError) as caught:
        session_create(
            teacher=teacher,
            game="palm_strike",
            school_class=None,
            players_per_table=2,
            settings={},
            leaderboard="sometimes",
        )
    assert "leaderboard" in caught.value.message_dict


def test_the_new_session_page_creates_a_session_with_the_controls(
    teacher_client: Client,
) -> None:
    page = teacher_client.get(reverse("session_new"))
    text = _text(page)
    for label in ("Class controls", "Show the leaderboard", "Scoring", "Latecomers"):
        assert label in text
    response = teacher_client.post(
        reverse("session_new"),
        {
            "game": "palm_strike",
            "players_per_table": "2",
            "leaderboard": "end",
            "scoring": "off",
            "late_join": "off",
            "adaptive": "on",
            **_palm_strike_settings(),
        },
    )
    assert response.status_code == 302, _text(response)
    session = GameSession.objects.get()
    assert (session.leaderboard, session.scoring, session.late_join, session.adaptive) == (
        "end",
        False,
        False,
        True,
    )


# ---- changing them during the session --------------------------------------------------------


def test_controls_change_and_tell_the_tablets_after_commit(
    guest_session: GameSession,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[tuple[str, str, dict[str, Any] | None]] = []
    monkeypatch.setattr(
        notify, "_send", lambda group, kind, data=None: sent.append((group, kind, data))
    )
    with django_capture_on_commit_callbacks(execute=True):
        session_controls_update(session=guest_session, leaderboard="between_rounds", scoring=False)
    guest_session.refresh_from_db()
    assert guest_session.leaderboard == "between_rounds"
    assert not guest_session.scoring
    group = notify.standings_group(guest_session.pk)
    assert (
        group,
        "session.standings",
        {"leaderboard": "between_rounds", "scoring": False, "sound": False},
    ) in sent
    assert (notify.session_group(guest_session.pk), "lobby.changed", None) in sent


def test_late_join_alone_does_not_bother_the_tablets(
    guest_session: GameSession,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    sent: list[str] = []
    monkeypatch.setattr(notify, "_send", lambda group, kind, data=None: sent.append(kind))
    with django_capture_on_commit_callbacks(execute=True):
        session_controls_update(session=guest_session, late_join=False)
    guest_session.refresh_from_db()
    assert not guest_session.late_join
    assert sent == ["lobby.changed"]


def test_controls_cannot_change_after_the_end(guest_session: GameSession) -> None:
    session_end(session=guest_session)
    with pytest.raises(ValidationError):
        session_controls_update(session=guest_session, scoring=False)
    with pytest.raises(ValidationError):
        session_controls_update(session=guest_session, leaderboard="nope")


def test_an_unknown_leaderboard_value_changes_nothing(guest_session: GameSession) -> None:
    with pytest.raises(ValidationError):
        session_controls_update(session=guest_session, leaderboard="sometimes", scoring=False)
    guest_session.refresh_from_db()
    assert guest_session.leaderboard == "always"
    assert guest_session.scoring


@pytest.mark.parametrize(
    ("action", "field", "value"),
    [
        ("leaderboard-always", "leaderboard", "always"),
        ("leaderboard-between-rounds", "leaderboard", "between_rounds"),
        ("leaderboard-end", "leaderboard", "end"),
        ("leaderboard-never", "leaderboard", "never"),
        ("scoring-off", "scoring", False),
        ("late-join-off", "late_join", False),
    ],
)
def test_console_buttons_change_one_control_each(
    teacher_client: Client, guest_session: GameSession, action: str, field: str, value: object
) -> None:
    response = teacher_client.post(
        reverse("session_action", args=[guest_session.pk, action]), headers=HTMX
    )
    assert response.status_code == 200
    guest_session.refresh_from_db()
    assert getattr(guest_session, field) == value
    # The swapped-in console shows the new state as the pressed button.
    pressed = reverse("session_action", args=[guest_session.pk, action])
    text = _text(response)
    after = text[text.index(pressed) :]
    assert 'aria-pressed="true"' in after[: after.index("</form>")]


def test_console_shows_the_controls_read_only_after_the_end(
    teacher_client: Client, guest_session: GameSession
) -> None:
    guest_session.leaderboard = "never"
    guest_session.save()
    session_end(session=guest_session)
    text = _text(teacher_client.get(reverse("session_console", args=[guest_session.pk])))
    assert "Leaderboard: Never" in " ".join(text.split())
    assert reverse("session_action", args=[guest_session.pk, "scoring-off"]) not in text


def test_another_teacher_cannot_change_the_controls(
    client: Client, other_teacher: User, guest_session: GameSession
) -> None:
    client.force_login(other_teacher)
    response = client.post(reverse("session_action", args=[guest_session.pk, "scoring-off"]))
    assert response.status_code == 404
    guest_session.refresh_from_db()
    assert guest_session.scoring


# ---- the tiles of the console and the projector ------------------------------------------------


def _playing_table(
    make_session: MakeSession, **controls: Any
) -> tuple[GameSession, dict[int, Any]]:
    session = make_session(players_per_table=2)
    for name, value in controls.items():
        setattr(session, name, value)
    session.save()
    for name in ("Ava", "Ben"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    table = session.tables.get()
    # The host's teacher view, as far as the tiles read it: Ava has won with no cards left.
    view = {
        "game": "palm_strike",
        "phase": "game_over",
        "flip": 23,
        "round": 1,
        "players": [
            {"seat": 0, "card_count": 0, "score": 0},
            {"seat": 1, "card_count": 4, "score": 0},
        ],
        "winners": [0],
        "claims": {},
        "centre": [],
        "active_seat": 1,
    }
    return session, {table.pk: view}


def _projector(session: GameSession, views: dict[int, Any]) -> str:
    context = fragments.projector_context(session=session, views=views)
    return render_to_string("classroom/projector.html#live", context)


def _console(session: GameSession, views: dict[int, Any]) -> str:
    context = fragments.console_context(session=session, views=views)
    return render_to_string("classroom/session_console.html#live", context)


def test_the_projector_shows_winners_and_counts_when_the_leaderboard_is_always_up(
    make_session: MakeSession,
) -> None:
    session, views = _playing_table(make_session)
    text = _projector(session, views)
    assert "icon-trophy" in text
    assert "card-count" in text
    # The number says what it counts, on the screen, not only to a screen reader.
    assert '<span class="count-unit">cards left</span>' in text


@pytest.mark.parametrize(
    ("phase", "number", "unit"), [("playing", "3", "refill pile"), ("game_over", "7", "points")]
)
def test_the_projector_shows_commotion_scores_once_a_round_is_scored(
    teacher: User, phase: str, number: str, unit: str
) -> None:
    # Commotion is won on points: at the end the projector says them, not the refill piles
    # (Ben, with 3 left, won 7 to 2).
    session = session_create(
        teacher=teacher, game="commotion", school_class=None, players_per_table=2, settings={}
    )
    for name in ("Ava", "Ben"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    table = session.tables.get()
    view = {
        "game": "commotion",
        "phase": phase,
        "round": 2,
        "players": [{"seat": 0, "refill": 0, "total": 2}, {"seat": 1, "refill": 3, "total": 7}],
        "winners": [1] if phase == "game_over" else None,
    }
    text = _projector(session, {table.pk: view})
    ben = text[text.index("Ben") :]
    assert f'<span class="card-count">{number}</span>' in ben
    assert f'<span class="count-unit">{unit}</span>' in ben


@pytest.mark.parametrize(
    "controls",
    [{"leaderboard": "never"}, {"leaderboard": "end"}, {"scoring": False}],
    ids=["never", "end", "scoring-off"],
)
def test_the_projector_hides_winners_and_counts_unless_allowed(
    make_session: MakeSession, controls: dict[str, Any]
) -> None:
    session, views = _playing_table(make_session, **controls)
    text = _projector(session, views)
    assert "icon-trophy" not in text
    assert "is-winner" not in text
    assert "card-count" not in text
    assert "Flip 23" in text  # how far the table is, instead of who leads
    assert "Ava" in text


def test_between_rounds_shows_the_standings_once_the_game_is_over_or_paused(
    make_session: MakeSession,
) -> None:
    session, views = _playing_table(make_session, leaderboard="between_rounds")
    assert "icon-trophy" in _projector(session, views)
    (view,) = views.values()
    view["phase"] = "open"
    assert "card-count" not in _projector(session, views)
    session_pause(session=session)
    assert "card-count" in _projector(session, views)


def test_the_console_drops_the_winner_pill_and_scores_without_scoring(
    make_session: MakeSession,
) -> None:
    session, views = _playing_table(make_session)
    assert ">winner<" in _console(session, views)
    session_controls_update(session=session, scoring=False)
    text = _console(session, views)
    assert ">winner<" not in text
    assert "is-winner" not in text
