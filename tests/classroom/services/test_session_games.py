"""A session that holds several games: Play again, finished tables, idle sessions ending."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from classroom.models import GameSession, Seat, SeatConnection, Table
from classroom.pages import notify
from classroom.processes import PROCESS_ID
from classroom.selectors.sessions import session_game_over, session_tables_current
from classroom.services.live_tables import table_finished
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import (
    IDLE_END_AFTER,
    session_end,
    session_play_again,
    session_start,
    sessions_idle_end,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

Status = GameSession.Status


def _started(make_session: Callable[..., GameSession], *names: str, **kw: Any) -> GameSession:
    session = make_session(**kw)
    for name in names:
        seat_join_guest(session=session, nickname=name)
    return session_start(session=GameSession.objects.get(pk=session.pk))


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    messages: list[tuple[str, str]] = []
    monkeypatch.setattr(
        notify, "_send", lambda group, kind, data=None: messages.append((group, kind))
    )
    return messages


def test_play_again_deals_a_new_game_on_the_same_tables_and_tells_every_tablet(
    make_session: Callable[..., GameSession],
    sent: list[tuple[str, str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    session = _started(make_session, "Ann", "Ben", "Cat", "Dan")
    first = {table.number: table for table in session_tables_current(session=session)}
    first_rosters = {n: [e.get("seat_id") for e in t.roster] for n, t in first.items()}
    with django_capture_on_commit_callbacks(execute=True):
        session_play_again(session=session)
    session.refresh_from_db()
    assert session.game_number == 2
    assert session.status == Status.RUNNING
    second = {table.number: table for table in session_tables_current(session=session)}
    assert set(second) == set(first)
    for number, table in second.items():
        assert table.pk != first[number].pk
        assert table.status == Table.Status.RUNNING
        # The same players at the same table, dealt afresh.
        assert [e.get("seat_id") for e in table.roster] == first_rosters[number]
        assert table.seed != first[number].seed
    for table in first.values():
        table.refresh_from_db()
        assert table.status == Table.Status.ENDED
        assert table.settings == session.settings  # its replay keeps its own settings
    assert set(Seat.objects.values_list("table__game_number", flat=True)) == {2}
    told = {group for group, kind in sent if kind == "seat.next_game"}
    assert told == {notify.seat_group(seat.pk) for seat in Seat.objects.all()}


def test_play_again_with_changed_settings_keeps_the_old_settings_on_the_old_tables(
    make_session: Callable[..., GameSession], sent: list[tuple[str, str]]
) -> None:
    session = _started(make_session, "Ann", "Ben", settings={"level": "beginner"})
    old = list(session_tables_current(session=session))
    session_play_again(session=session, settings={"level": "advanced"})
    session.refresh_from_db()
    assert session.settings["level"] == "advanced"
    for table in old:
        table.refresh_from_db()
        assert table.settings["level"] == "beginner"


def test_play_again_refuses_a_bad_setting_and_changes_nothing(
    make_session: Callable[..., GameSession], sent: list[tuple[str, str]]
) -> None:
    session = _started(make_session, "Ann", "Ben")
    with pytest.raises(ValidationError):
        session_play_again(session=session, settings={"level": "impossible"})
    session.refresh_from_db()
    assert session.game_number == 1
    assert not Table.objects.filter(status=Table.Status.ENDED).exists()


@pytest.mark.parametrize("status", [Status.LOBBY, Status.ENDED])
def test_play_again_needs_a_session_that_plays(
    make_session: Callable[..., GameSession], sent: list[tuple[str, str]], status: str
) -> None:
    session = _started(make_session, "Ann", "Ben")
    GameSession.objects.filter(pk=session.pk).update(status=status)
    with pytest.raises(ValidationError):
        session_play_again(session=session)


def test_a_game_is_over_once_every_table_finished(
    make_session: Callable[..., GameSession],
    sent: list[tuple[str, str]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    session = _started(make_session, "Ann", "Ben", "Cat", "Dan")
    tables = list(session_tables_current(session=session))
    assert len(tables) == 2
    assert not session_game_over(session=session)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert table_finished(table_id=tables[0].pk)
        assert not table_finished(table_id=tables[0].pk)  # once
        assert not session_game_over(session=session)
        table_finished(table_id=tables[1].pk)
    assert session_game_over(session=session)
    # The same answer from the tables a live page has just read.
    read = {table.pk: table for table in session_tables_current(session=session)}
    assert session_game_over(session=session, tables=list(read.values()))
    # (tables[1] as read before it finished)
    assert not session_game_over(session=session, tables=[read[tables[0].pk], tables[1]])
    # The pages are told each time a table finished.
    assert sent.count((notify.session_group(session.pk), "lobby.changed")) == 2
    session_play_again(session=session)
    session.refresh_from_db()
    assert not session_game_over(session=session)


# ---- idle sessions ---------------------------------------------------------------------------


def _age(session: GameSession, started: timedelta, last_seen: timedelta | None) -> None:
    now = timezone.now()
    GameSession.objects.filter(pk=session.pk).update(started_at=now - started)
    Seat.objects.filter(session=session).update(
        last_seen_at=None if last_seen is None else now - last_seen
    )


def test_a_session_with_no_tablet_for_thirty_minutes_ends_by_itself(
    make_session: Callable[..., GameSession], sent: list[tuple[str, str]]
) -> None:
    idle = _started(make_session, "Ann", "Ben")
    _age(idle, started=timedelta(hours=1), last_seen=timedelta(minutes=31))
    recent = _started(make_session, "Cat", "Dan")
    _age(recent, started=timedelta(hours=1), last_seen=timedelta(minutes=29))
    connected = _started(make_session, "Eve", "Fay")
    _age(connected, started=timedelta(hours=1), last_seen=timedelta(hours=1))
    SeatConnection.objects.create(
        seat=connected.seats.first(), channel_name="tablet-1", process_id=PROCESS_ID
    )
    # A socket row left by a process that died is nobody connected.
    SeatConnection.objects.create(
        seat=idle.seats.first(), channel_name="tablet-2", process_id="dead-process"
    )
    never = _started(make_session, "Gus", "Hal")
    _age(never, started=timedelta(minutes=10), last_seen=None)

    now = timezone.now()
    assert sessions_idle_end(now=now) == [idle.pk]
    statuses = dict(GameSession.objects.values_list("pk", "status"))
    assert statuses == {
        idle.pk: Status.ENDED,
        recent.pk: Status.RUNNING,
        connected.pk: Status.RUNNING,
        never.pk: Status.RUNNING,
    }
    # The same look IDLE_END_AFTER later (time given, not waited for) ends those left alone.
    SeatConnection.objects.all().delete()
    later = now + IDLE_END_AFTER
    assert sorted(sessions_idle_end(now=later)) == sorted([recent.pk, never.pk, connected.pk])


def test_idle_end_leaves_other_teachers_lobbies_and_ended_sessions_alone(
    make_session: Callable[..., GameSession], other_teacher: User, sent: list[tuple[str, str]]
) -> None:
    lobby = make_session()
    GameSession.objects.filter(pk=lobby.pk).update(created_at=timezone.now() - timedelta(days=1))
    ended = _started(make_session, "Ann", "Ben")
    session_end(session=ended)
    theirs = _started(make_session, "Cat", "Dan", owner=other_teacher)
    _age(theirs, started=timedelta(hours=2), last_seen=timedelta(hours=2))
    mine_only = sessions_idle_end(now=timezone.now(), teacher=ended.teacher)
    assert mine_only == []
    assert GameSession.objects.get(pk=lobby.pk).status == Status.LOBBY
    assert sessions_idle_end(now=timezone.now()) == [theirs.pk]
