"""Hosts loaded from the database: the log and trials they write, and replay after a crash."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async

from classroom.hosting.log_store import StaleOwner, table_clock_save, table_epoch_claim
from classroom.hosting.table_hosts import registry, table_host_load
from classroom.models import ActionLogEntry, GameSession, Seat, Table, Trial
from classroom.services.classes import student_remove
from classroom.services.seats import seat_join_guest, seat_join_student
from classroom.services.sessions import session_create, session_pause, session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Student

pytestmark = pytest.mark.django_db(transaction=True)


class Tablet:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.frames: list[dict[str, Any]] = []

    async def deliver(self, frame: str) -> None:
        self.frames.append(json.loads(frame))


def _started_table(make_session: Callable[..., GameSession]) -> Table:
    session = make_session(
        players_per_table=3,
        settings={"flip_pacing": "auto", "auto_flip_s": 2.0, "response_window_s": 1.5},
    )
    for name in ("Ava", "Ben", "Cy"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    return Table.objects.get(session=session)


async def test_a_host_killed_mid_game_comes_back_identical_from_its_log(
    make_session: Callable[..., GameSession],
) -> None:
    table = await sync_to_async(_started_table)(make_session)
    host = await table_host_load(table.pk)
    assert host is not None
    ava = Tablet(0)
    host.start()
    await host.join(ava)
    # Let a few auto flips and their windows happen, slapping every open card.
    slapped = 0
    for _ in range(60):
        await asyncio.sleep(0.1)
        view = host.engine.view(host.state, 0)
        if view["window_closes_ms"] and slapped < view["flip"]:
            slapped = view["flip"]
            host.submit(ava, slapped, {"kind": "slap", "flip": slapped, "rt_ms": 450, "rtt_ms": 5})
    await host.stop()  # the process dies here, mid-game
    before = {seat: host.engine.view(host.state, seat) for seat in (0, 1, 2, None)}

    entries = await sync_to_async(ActionLogEntry.objects.filter(table=table).count)()
    assert entries == host.version
    assert slapped >= 2

    revived = await table_host_load(table.pk)
    assert revived is not None
    after = {seat: revived.engine.view(revived.state, seat) for seat in (0, 1, 2, None)}
    assert after == before
    assert revived.version == host.version


async def test_trials_are_written_for_students_with_their_seat(
    make_session: Callable[..., GameSession],
) -> None:
    table = await sync_to_async(_started_table)(make_session)
    host = await table_host_load(table.pk)
    assert host is not None
    host.start()
    await asyncio.sleep(4.5)  # first flip at 1.5 s, its window closes 1.5 s later
    await host.stop()
    trials = await sync_to_async(list)(Trial.objects.filter(table=table).select_related("seat"))
    assert trials, "a closed flip writes one trial per student"
    names = {trial.seat.name for trial in trials if trial.seat is not None}
    assert names == {"Ava", "Ben", "Cy"}
    first = trials[0]
    assert first.game == "palm_strike"
    assert first.kind == "palm_strike.flip"
    assert first.level == "beginner"
    assert first.data["response"] == "none"
    seats = await sync_to_async(set)(Seat.objects.filter(table=table).values_list("pk", flat=True))
    assert {trial.seat_id for trial in trials} <= seats


async def _clock_stored(table_id: int, *, frozen: bool) -> Table:
    """The table once its host's clock mark has reached the database."""
    for _ in range(200):
        table = await sync_to_async(Table.objects.get)(pk=table_id)
        if table.clock_origin_ms is not None and (table.clock_frozen_ms is not None) == frozen:
            return table
        await asyncio.sleep(0.05)
    raise AssertionError("the host never stored its clock")


async def test_a_host_reloaded_after_a_crash_continues_the_tables_timeline(
    make_session: Callable[..., GameSession],
) -> None:
    table = await sync_to_async(_started_table)(make_session)
    host = await table_host_load(table.pk)
    assert host is not None
    host.start()
    await _clock_stored(table.pk, frozen=False)
    await asyncio.sleep(2.0)  # the first card flipped at 1.5 s; nothing is logged until 3 s
    killed_at = host.clock.now()
    await host.stop()  # the process dies here
    last_logged = await sync_to_async(
        lambda: ActionLogEntry.objects.filter(table=table).order_by("seq").last()
    )()
    assert last_logged is not None
    assert last_logged.server_ms < killed_at

    revived = await table_host_load(table.pk)
    assert revived is not None
    # Not back to the last logged entry: the game clock goes on from where it was.
    assert revived.clock.now() >= killed_at


async def test_a_paused_table_reloaded_stays_paused_at_the_same_game_time(
    make_session: Callable[..., GameSession],
) -> None:
    table = await sync_to_async(_started_table)(make_session)
    host = await table_host_load(table.pk)
    assert host is not None
    host.start()
    await asyncio.sleep(2.0)
    host.control("pause")
    await sync_to_async(GameSession.objects.filter(pk=table.session_id).update)(
        status=GameSession.Status.PAUSED
    )
    stored = await _clock_stored(table.pk, frozen=True)
    paused_at = host.clock.now()
    assert stored.clock_frozen_ms == paused_at
    await host.stop()
    await asyncio.sleep(0.5)  # down a while, still paused

    revived = await table_host_load(table.pk)
    assert revived is not None
    assert revived.paused
    assert revived.clock.now() == paused_at


def test_a_former_owner_cannot_move_the_tables_clock(
    make_session: Callable[..., GameSession],
) -> None:
    table = _started_table(make_session)
    table_epoch_claim(table_id=table.pk, epoch=3)
    table_clock_save(table_id=table.pk, epoch=3, origin_ms=1_000, frozen_ms=None)
    with pytest.raises(StaleOwner):
        table_clock_save(table_id=table.pk, epoch=2, origin_ms=5_000, frozen_ms=700)
    table.refresh_from_db()
    assert (table.clock_origin_ms, table.clock_frozen_ms) == (1_000, None)


# --------------------------------------------------------------------------------------------
# A student taken off the class list mid-game: a bot takes the seat, in every game

GAMES = ("palm_strike", "commotion", "riff_raff")
# Polling bounds (not timings): far more than a table needs to make a few moves.
POLL_S, POLLS = 0.05, 400


def _class_table(teacher: User, school_class: SchoolClass, game: str) -> tuple[Table, Student]:
    session = session_create(
        teacher=teacher, game=game, school_class=school_class, players_per_table=2, settings={}
    )
    # Ava alone with a bot: once she goes, nobody waits for a child who never plays (Riff
    # Raff's rounds wait for every player's card).
    ava = school_class.students.get(display_name="Ava")
    seat_join_student(session=session, student=ava)
    session_start(session=session)
    return Table.objects.get(session=session), ava


def _entries(table: Table) -> list[tuple[str, int | None]]:
    return list(ActionLogEntry.objects.filter(table=table).values_list("kind", "seat_index"))


async def _until(check: Callable[[], Any], *, in_loop: bool = False) -> Any:
    """Poll ``check`` (a database read, or with ``in_loop`` the host's own state, read
    between its steps) until it holds."""
    for _ in range(POLLS):
        found = check() if in_loop else await sync_to_async(check)()
        if found:
            return found
        await asyncio.sleep(POLL_S)
    raise AssertionError("the table did not get there")


def _bots_of(state: Any) -> set[int]:
    return set(getattr(state, "game", state).bots)


@pytest.mark.parametrize("game", GAMES)
async def test_a_student_removed_mid_game_is_replaced_by_a_bot_and_the_table_plays_on(
    game: str, teacher: User, school_class: SchoolClass
) -> None:
    table, ava = await sync_to_async(_class_table)(teacher, school_class, game)
    host = await registry.host_for(table.pk)
    assert host is not None
    record = host.store.record  # type: ignore[attr-defined]
    ava_id = ava.pk
    index = next(i for i, (_seat, student) in record.humans.items() if student == ava_id)
    try:
        await sync_to_async(student_remove)(student=ava)
        await _until(lambda: ("bot", index) in _entries(table))
        # The host takes the seat once the entry is stored; its responses are then nobody's.
        await _until(lambda: index in _bots_of(host.state), in_loop=True)
        assert index not in host.store.record.humans  # type: ignore[attr-defined]
        # The table goes on: more entries are written after the takeover, every one stored.
        logged = await sync_to_async(_entries)(table)
        await _until(lambda: len(_entries(table)) >= len(logged) + 2)
        assert not host.finished
        # Paused, the table writes nothing more: what is stored can be compared with it.
        session = await sync_to_async(lambda: table.session)()
        await sync_to_async(session_pause)(session=session)
        await _until(lambda: host.paused, in_loop=True)
        await host.stop()
        assert await sync_to_async(ActionLogEntry.objects.filter(table=table).count)() == (
            host.version
        )
        assert not await sync_to_async(Trial.objects.filter(student_id=ava_id).exists)()
        # Rebuilt from its log (the bot entry with it), the table is the same table.
        revived = await table_host_load(table.pk)
        assert revived is not None
        assert revived.engine.view(revived.state, None) == host.engine.view(host.state, None)
        assert index in _bots_of(revived.state)
    finally:
        await registry.stop_all()


async def test_a_table_not_running_at_the_removal_gives_the_seat_to_a_bot_when_it_starts(
    teacher: User, school_class: SchoolClass
) -> None:
    table, ava = await sync_to_async(_class_table)(teacher, school_class, "riff_raff")
    await sync_to_async(student_remove)(student=ava)
    table = await sync_to_async(Table.objects.get)(pk=table.pk)
    (index,) = [i for i, entry in enumerate(table.roster) if "took_over" in entry]
    host = await registry.host_for(table.pk)
    assert host is not None
    try:
        await _until(lambda: ("bot", index) in _entries(table))
        await _until(lambda: index in _bots_of(host.state), in_loop=True)
        # Loaded again, it finds the bot in its log and does not take the seat twice.
        await host.stop()
        revived = await table_host_load(table.pk)
        assert revived is not None
        revived.start()
        await _until(lambda: len(_entries(table)) >= 2)
        assert _entries_kinds(await sync_to_async(_entries)(table)).count("bot") == 1
        await revived.stop()
    finally:
        await registry.stop_all()


def _entries_kinds(entries: list[tuple[str, int | None]]) -> list[str]:
    return [kind for kind, _seat in entries]
