"""Creating sessions and moving them through lobby → running ⇄ paused → ended."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError

from classroom.join_codes import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH
from classroom.models import ActionLogEntry, GameSession, Seat, Table, Trial
from classroom.selectors.sessions import session_get_by_code, sessions_kept, sessions_visible
from classroom.selectors.sockets import seat_find_by_token, seat_playing_find
from classroom.services.retention import Pruned, sessions_purge
from classroom.services.seats import seat_join_guest, seat_join_student, seat_kick
from classroom.services.sessions import (
    SessionDeletion,
    session_create,
    session_delete,
    session_delete_preview,
    session_end,
    session_lock,
    session_pause,
    session_rebalance,
    session_resume,
    session_start,
)
from games.palm_strike.config import Config

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

    Transition = Callable[[GameSession], GameSession]

Status = GameSession.Status


def _create(teacher: User, **overrides: Any) -> GameSession:
    arguments: dict[str, Any] = {
        "teacher": teacher,
        "game": "palm_strike",
        "school_class": None,
        "players_per_table": 4,
        "settings": {},
    }
    arguments.update(overrides)
    return session_create(**arguments)


def _refused_field(teacher: User, **overrides: Any) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as caught:
        _create(teacher, **overrides)
    assert not GameSession.objects.exists()
    return caught.value.message_dict


def _seated(session: GameSession, *names: str) -> GameSession:
    for name in names:
        seat_join_guest(session=session, nickname=name)
    return GameSession.objects.get(pk=session.pk)


# --------------------------------------------------------------------------------------------
# session_create


def test_session_create_stores_a_lobby_with_full_settings(
    teacher: User, school_class: SchoolClass
) -> None:
    session = _create(
        teacher, school_class=school_class, players_per_table=3, settings={"level": "advanced"}
    )
    session.refresh_from_db()
    assert session.teacher == teacher
    assert session.school_class == school_class
    assert session.game == "palm_strike"
    assert session.players_per_table == 3
    assert session.status == Status.LOBBY
    assert not session.lobby_locked
    assert session.started_at is None
    assert session.ended_at is None
    assert not session.is_guest
    # Every setting is stored, defaults filled in for the ones not given.
    defaults = {name: getattr(Config(), name) for name in session.settings}
    assert session.settings == {**defaults, "level": "advanced"}
    assert set(session.settings) >= {"response_window_s", "team_mode", "auto_flip_s"}


def test_session_create_stores_the_palette_and_the_language_of_the_game(teacher: User) -> None:
    session = _create(teacher, palette="okabe_ito", language="zh-hant")
    session.refresh_from_db()
    assert (session.palette, session.language) == ("okabe_ito", "zh-hant")


def test_session_create_defaults_to_standard_colours_in_english(teacher: User) -> None:
    session = _create(teacher)
    assert (session.palette, session.language) == ("standard", "en")


@pytest.mark.parametrize(
    ("overrides", "field"),
    [({"palette": "neon"}, "palette"), ({"language": "fr"}, "language")],
)
def test_an_unknown_palette_or_language_is_refused(
    teacher: User, overrides: dict[str, str], field: str
) -> None:
    assert field in _refused_field(teacher, **overrides)


def test_guest_session_has_no_class(teacher: User) -> None:
    session = _create(teacher)
    assert session.is_guest
    assert session.school_class is None


def test_session_code_is_six_characters_from_the_alphabet(teacher: User) -> None:
    codes = {_create(teacher).code for _ in range(20)}
    assert len(codes) == 20
    for code in codes:
        assert len(code) == JOIN_CODE_LENGTH == 6
        assert set(code) <= set(JOIN_CODE_ALPHABET)


def test_session_seeds_differ(teacher: User) -> None:
    seeds = {_create(teacher).seed for _ in range(5)}
    assert len(seeds) == 5


def test_unknown_game_is_refused(teacher: User) -> None:
    assert "game" in _refused_field(teacher, game="tic_tac_toe")


def test_another_teachers_class_is_refused(school_class: SchoolClass, other_teacher: User) -> None:
    errors = _refused_field(other_teacher, school_class=school_class)
    assert "school_class" in errors


@pytest.mark.parametrize("players_per_table", [-1, 0, 1, 9, 30])
def test_players_per_table_out_of_range_is_refused(teacher: User, players_per_table: int) -> None:
    errors = _refused_field(teacher, players_per_table=players_per_table)
    assert errors["players_per_table"] == ["Palm Strike is played by 2 to 8 players."]


@pytest.mark.parametrize("players_per_table", [2, 8])
def test_players_per_table_bounds_are_allowed(teacher: User, players_per_table: int) -> None:
    assert _create(teacher, players_per_table=players_per_table).players_per_table == (
        players_per_table
    )


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"response_window_s": 9}, "response_window_s"),
        ({"response_window_s": 0.5}, "response_window_s"),
        ({"response_window_s": "2"}, "response_window_s"),
        ({"level": "expert"}, "level"),
        ({"cards_per_player": 4}, "cards_per_player"),
        ({"team_mode": "yes"}, "team_mode"),
        ({"grace_ms": 150.5}, "grace_ms"),
        ({"points_target": True}, "points_target"),
        ({"colour_blind": True}, "colour_blind"),
        ({"flip_pacing": "auto", "auto_flip_s": 2.5, "response_window_s": 2.5}, "auto_flip_s"),
    ],
)
def test_bad_settings_are_refused_with_the_field_name(
    teacher: User, values: dict[str, Any], field: str
) -> None:
    errors = _refused_field(teacher, settings=values)
    assert list(errors) == [field]
    assert errors[field][0]


def test_unknown_setting_message_says_so(teacher: User) -> None:
    errors = _refused_field(teacher, settings={"colour_blind": True})
    assert "not a setting of this game" in errors["colour_blind"][0].lower()


def test_nan_setting_is_refused_with_the_field_name(teacher: User) -> None:
    with pytest.raises(ValidationError) as caught:
        _create(teacher, settings={"response_window_s": float("nan")})
    assert hasattr(caught.value, "error_dict")
    assert "response_window_s" in caught.value.message_dict


# --------------------------------------------------------------------------------------------
# Status transitions


def test_start_pause_resume_end(guest_session: GameSession) -> None:
    session = _seated(guest_session, "Mia", "Noah", "Omar")

    session_start(session=session)
    session.refresh_from_db()
    assert session.status == Status.RUNNING
    assert session.started_at is not None
    assert set(session.tables.values_list("status", flat=True)) == {Table.Status.RUNNING}

    session_pause(session=session)
    session.refresh_from_db()
    assert session.status == Status.PAUSED
    assert set(session.tables.values_list("status", flat=True)) == {Table.Status.PAUSED}

    session_resume(session=session)
    session.refresh_from_db()
    assert session.status == Status.RUNNING
    assert set(session.tables.values_list("status", flat=True)) == {Table.Status.RUNNING}

    session_end(session=session)
    session.refresh_from_db()
    assert session.status == Status.ENDED
    assert session.ended_at is not None
    assert session.ended_at >= session.started_at
    assert not session.is_open
    assert set(session.tables.values_list("status", flat=True)) == {Table.Status.ENDED}


def test_a_lobby_can_be_ended_without_starting(guest_session: GameSession) -> None:
    session_end(session=guest_session)
    guest_session.refresh_from_db()
    assert guest_session.status == Status.ENDED
    assert guest_session.started_at is None


def test_paused_session_can_be_ended(guest_session: GameSession) -> None:
    session = _seated(guest_session, "Mia")
    session_start(session=session)
    session_pause(session=session)
    session_end(session=session)
    session.refresh_from_db()
    assert session.status == Status.ENDED


TRANSITIONS: dict[str, Transition] = {
    "start": lambda session: session_start(session=session),
    "pause": lambda session: session_pause(session=session),
    "resume": lambda session: session_resume(session=session),
    "end": lambda session: session_end(session=session),
    "rebalance": lambda session: session_rebalance(session=session),
    "lock": lambda session: session_lock(session=session, locked=True),
}


def _bring_to(session: GameSession, status: str) -> GameSession:
    session = _seated(session, "Mia", "Noah")
    if status != Status.LOBBY:
        session_start(session=session)
    if status == Status.PAUSED:
        session_pause(session=session)
    if status == Status.ENDED:
        session_end(session=session)
    return GameSession.objects.get(pk=session.pk)


@pytest.mark.parametrize(
    ("status", "action"),
    [
        (Status.LOBBY, "pause"),
        (Status.LOBBY, "resume"),
        (Status.RUNNING, "start"),
        (Status.RUNNING, "resume"),
        (Status.RUNNING, "rebalance"),
        (Status.PAUSED, "start"),
        (Status.PAUSED, "pause"),
        (Status.PAUSED, "rebalance"),
        (Status.ENDED, "start"),
        (Status.ENDED, "pause"),
        (Status.ENDED, "resume"),
        (Status.ENDED, "end"),
        (Status.ENDED, "rebalance"),
        (Status.ENDED, "lock"),
    ],
)
def test_illegal_transitions_are_refused_and_change_nothing(
    guest_session: GameSession, status: str, action: str
) -> None:
    session = _bring_to(guest_session, status)
    snapshot = GameSession.objects.filter(pk=session.pk).values().get()
    tables = list(session.tables.values_list("number", "status"))
    with pytest.raises(ValidationError) as caught:
        TRANSITIONS[action](session)
    assert "not possible now" in caught.value.messages[0]
    assert GameSession.objects.filter(pk=session.pk).values().get() == snapshot
    assert list(session.tables.values_list("number", "status")) == tables


def test_start_needs_at_least_one_seated_student(guest_session: GameSession) -> None:
    with pytest.raises(ValidationError) as caught:
        session_start(session=guest_session)
    assert "at least one student" in caught.value.messages[0]
    guest_session.refresh_from_db()
    assert guest_session.status == Status.LOBBY
    assert guest_session.started_at is None


def test_start_does_not_count_removed_students(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat.refresh_from_db()
    seat_kick(seat=seat)
    with pytest.raises(ValidationError):
        session_start(session=GameSession.objects.get(pk=guest_session.pk))
    guest_session.refresh_from_db()
    assert guest_session.status == Status.LOBBY


def test_start_of_a_class_session(class_session: GameSession, school_class: SchoolClass) -> None:
    seat_join_student(session=class_session, student=school_class.students.get(display_name="Ava"))
    session_start(session=GameSession.objects.get(pk=class_session.pk))
    class_session.refresh_from_db()
    assert class_session.status == Status.RUNNING


# --------------------------------------------------------------------------------------------
# Lock / unlock


def test_lock_and_unlock(guest_session: GameSession) -> None:
    session_lock(session=guest_session, locked=True)
    guest_session.refresh_from_db()
    assert guest_session.lobby_locked
    with pytest.raises(ValidationError):
        seat_join_guest(session=guest_session, nickname="Mia")

    session_lock(session=guest_session, locked=False)
    guest_session.refresh_from_db()
    assert not guest_session.lobby_locked
    assert seat_join_guest(session=guest_session, nickname="Mia").pk


@pytest.mark.parametrize("status", [Status.RUNNING, Status.PAUSED])
def test_lock_works_while_playing(guest_session: GameSession, status: str) -> None:
    session = _bring_to(guest_session, status)
    session_lock(session=session, locked=True)
    session.refresh_from_db()
    assert session.lobby_locked
    assert session.status == status


def test_locking_an_ended_session_changes_nothing(guest_session: GameSession) -> None:
    session_end(session=guest_session)
    guest_session.refresh_from_db()
    with pytest.raises(ValidationError):
        session_lock(session=guest_session, locked=True)
    guest_session.refresh_from_db()
    assert not guest_session.lobby_locked


# --------------------------------------------------------------------------------------------
# Deleting a session


def _played_guest_session(guest_session: GameSession) -> GameSession:
    seat = seat_join_guest(session=guest_session, nickname="Mia Real-Name")
    session_start(session=guest_session)
    seat.refresh_from_db()
    assert seat.table is not None
    ActionLogEntry.objects.create(
        table=seat.table, seq=1, kind="act", seat_index=0, payload={"rt_ms": 500}, server_ms=9
    )
    Trial.objects.create(
        session=guest_session, table=seat.table, seat=seat, log_seq=1, game="palm_strike",
        kind="palm_strike.flip", rt_ms=500,
    )  # fmt: skip
    return guest_session


def test_session_delete_removes_an_ended_session_with_everything_of_it(
    guest_session: GameSession, make_session: Callable[..., GameSession]
) -> None:
    session = _played_guest_session(guest_session)
    other = _played_guest_session(make_session())
    session_end(session=session)
    assert session_delete_preview(session=session) == SessionDeletion(seats=1, trials=1, ended=True)

    session_delete(session=session)

    # At once: nothing finds it, its rows left for the worker (the request stays short).
    assert Trial.objects.filter(session_id=session.pk).count() == 1
    assert session_get_by_code(code=session.code) is None
    assert not sessions_kept().filter(pk=session.pk).exists()
    assert not sessions_visible(teacher=session.teacher).filter(pk=session.pk).exists()
    seat = Seat.objects.get(session_id=session.pk)
    assert seat_find_by_token(code=session.code, token=seat.token) is None
    assert seat_playing_find(code=session.code, token=seat.token) is None

    assert sessions_purge() == Pruned(sessions=1, trials=1)
    assert not GameSession.objects.filter(pk=session.pk).exists()
    assert not Table.objects.filter(session_id=session.pk).exists()
    assert not Seat.objects.filter(session_id=session.pk).exists()
    assert not ActionLogEntry.objects.filter(table__session_id=session.pk).exists()
    assert not Trial.objects.filter(session_id=session.pk).exists()
    # Another session (even with the same typed name) keeps everything.
    assert Seat.objects.filter(session=other).count() == 1
    assert Trial.objects.filter(session=other).count() == 1
    assert ActionLogEntry.objects.filter(table__session=other).count() == 1


@pytest.mark.parametrize("pause", [False, True])
def test_session_delete_refuses_an_open_session_and_changes_nothing(
    guest_session: GameSession, pause: bool
) -> None:
    session = _played_guest_session(guest_session)
    if pause:
        session_pause(session=session)
    assert not session_delete_preview(session=session).ended
    with pytest.raises(ValidationError, match=r"still open\. End it first"):
        session_delete(session=session)
    assert Trial.objects.filter(session=session).count() == 1
    assert Seat.objects.filter(session=session).count() == 1


def test_session_delete_refuses_a_lobby(guest_session: GameSession) -> None:
    seat_join_guest(session=guest_session, nickname="Mo")
    with pytest.raises(ValidationError, match="End it first"):
        session_delete(session=guest_session)
    assert GameSession.objects.filter(pk=guest_session.pk).exists()
