"""Writing a table's log: entries and the trials they closed, all or none."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classroom.hosting.log_store import (
    StaleOwner,
    action_log_append_many,
    table_epoch_claim,
    table_record,
)
from classroom.models import ActionLogEntry, Table, Trial
from classroom.services.classes import student_colour_safe_set, student_remove
from classroom.services.devices import device_get_or_create, seat_device_set
from classroom.services.seats import seat_join_guest, seat_join_student
from classroom.services.sessions import session_create, session_start
from games.engine.contract import Trial as EngineTrial
from games.live.host import LogEntry

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


def _table(make_session: Callable[..., GameSession]) -> Table:
    # One student alone at a table of two: the game seats a bot beside her.
    session = make_session(players_per_table=2)
    seat_join_guest(session=session, nickname="Ava")
    session_start(session=session)
    return Table.objects.get(session=session)


def _flip_trial(seat: int, **data: object) -> EngineTrial:
    base = {
        "level": "intermediate",
        "target": True,
        "responded": True,
        "congruent": False,
        "rt_ms": 512,
        "plausible": True,
        "correct": True,
        "public": {"bg": "red", "word": "blue", "ink": "green"},
    }
    return EngineTrial(seat=seat, kind="palm_strike.flip", data={**base, **data})


def test_an_entry_and_its_trials_are_stored_with_their_columns(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    record = table_record(table=table)
    human = next(iter(record.humans))
    bot = next(index for index in range(len(table.roster)) if index not in record.humans)
    entry = LogEntry(1, "act", human, {"kind": "slap", "flip": 1, "rt_ms": 512}, 4200)
    before = timezone.now()

    action_log_append_many(
        items=[(record, entry, [_flip_trial(human), _flip_trial(bot, rt_ms=300)])]
    )

    stored = ActionLogEntry.objects.get(table=table)
    assert (stored.seq, stored.kind, stored.seat_index, stored.server_ms) == (1, "act", human, 4200)
    assert stored.payload == {"kind": "slap", "flip": 1, "rt_ms": 512}
    assert stored.created_at >= before
    trial = Trial.objects.get(table=table)  # the bot's response is nobody's progress
    assert trial.seat_id == record.humans[human][0]
    assert trial.session_id == table.session_id
    assert (trial.game, trial.kind, trial.level, trial.log_seq) == (
        "palm_strike",
        "palm_strike.flip",
        "intermediate",
        1,
    )
    assert (trial.target, trial.responded, trial.congruent) == (True, True, False)
    assert (trial.rt_ms, trial.correct, trial.plausible) == (512, True, True)
    assert trial.data["public"] == {"bg": "red", "word": "blue", "ink": "green"}
    assert trial.created_at >= before


def test_a_tick_without_a_seat_or_payload_is_stored_as_nulls(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    record = table_record(table=table)
    human = next(iter(record.humans))
    trial = _flip_trial(human, responded=False, rt_ms=None, congruent=None)

    action_log_append_many(items=[(record, LogEntry(1, "tick", None, None, 1500), [trial])])

    stored = ActionLogEntry.objects.get(table=table)
    assert (stored.seat_index, stored.payload) == (None, None)
    row = Trial.objects.get(table=table)
    assert (row.responded, row.rt_ms, row.congruent) == (False, None, None)


def test_an_entry_written_twice_is_refused_and_its_batch_stores_nothing(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    record = table_record(table=table)
    human = next(iter(record.humans))
    action_log_append_many(items=[(record, LogEntry(1, "tick", None, None, 1500), [])])

    batch = [
        (record, LogEntry(2, "tick", None, None, 3000), [_flip_trial(human)]),
        (record, LogEntry(1, "tick", None, None, 1500), []),
    ]
    with pytest.raises(IntegrityError):
        action_log_append_many(items=batch)

    assert list(ActionLogEntry.objects.filter(table=table).values_list("seq", flat=True)) == [1]
    assert not Trial.objects.filter(table=table).exists()


def test_a_write_from_a_former_owner_is_refused_and_stores_nothing(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    table_epoch_claim(table_id=table.pk, epoch=3)
    old_owner = table_record(table=table, epoch=2)
    entry = LogEntry(1, "act", 0, {"kind": "flip"}, 100, "page-a:1")
    with pytest.raises(StaleOwner) as refused:
        action_log_append_many(items=[(old_owner, entry, [_flip_trial(0)])])
    assert refused.value.table_ids == (table.pk,)
    assert not ActionLogEntry.objects.exists()
    assert not Trial.objects.exists()


def test_the_current_owner_writes_with_its_epoch_and_client_id(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    table_epoch_claim(table_id=table.pk, epoch=3)
    owner = table_record(table=table, epoch=3)
    action_log_append_many(items=[(owner, LogEntry(1, "act", 0, {"kind": "flip"}, 100, "p:1"), [])])
    row = ActionLogEntry.objects.get()
    assert (row.epoch, row.client_id) == (3, "p:1")
    table.refresh_from_db()
    assert table.epoch == 3


def test_a_batch_of_several_tables_checks_their_owners_in_one_read(
    make_session: Callable[..., GameSession],
) -> None:
    tables = [_table(make_session) for _ in range(3)]
    records = [table_record(table=table, epoch=2) for table in tables]
    for table in tables:
        table_epoch_claim(table_id=table.pk, epoch=2)
    # One table's host writes with an epoch newer than the stored one: it is stored.
    records[2] = dataclasses.replace(records[2], epoch=4)
    batch = [
        (record, LogEntry(1, "act", 0, {"kind": "flip"}, 100, f"p:{number}"), [])
        for number, record in enumerate(records)
    ]
    with CaptureQueriesContext(connection) as queries:
        action_log_append_many(items=batch)
    table_queries = [q["sql"] for q in queries.captured_queries if '"classroom_table"' in q["sql"]]
    assert len(table_queries) == 2  # the locking read, and the one newer epoch stored
    assert table_queries[0].startswith("SELECT")
    assert [Table.objects.get(pk=table.pk).epoch for table in tables] == [2, 2, 4]
    assert ActionLogEntry.objects.count() == 3


def test_claiming_a_table_fences_every_older_epoch_and_refuses_a_stale_claim(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    table_epoch_claim(table_id=table.pk, epoch=5)
    with pytest.raises(StaleOwner):
        table_epoch_claim(table_id=table.pk, epoch=4)
    table.refresh_from_db()
    assert table.epoch == 5


def test_the_same_client_id_twice_in_one_table_log_is_refused(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    record = table_record(table=table)
    first = LogEntry(1, "act", 0, {"kind": "flip"}, 100, "page-a:1")
    action_log_append_many(items=[(record, first, [])])
    with pytest.raises(IntegrityError):
        action_log_append_many(items=[(record, dataclasses.replace(first, seq=2), [])])
    assert ActionLogEntry.objects.count() == 1


# --------------------------------------------------------------------------------------------
# Accommodations: Palm Strike trials played on the colour-vision-safe palette say so


def _class_table(
    session: GameSession, school_class: SchoolClass, *names: str
) -> tuple[Table, dict[str, int]]:
    """The students seated at one table; returns it with each name's engine seat index."""
    seats = {
        name: seat_join_student(
            session=session, student=school_class.students.get(display_name=name)
        )
        for name in names
    }
    session_start(session=session)
    table = Table.objects.get(session=session)
    index = {entry.get("seat_id"): i for i, entry in enumerate(table.roster)}
    return table, {name: index[seat.pk] for name, seat in seats.items()}


def _stored_data(table: Table, record_seat: int) -> dict[str, object]:
    record = table_record(table=table)
    trial = _flip_trial(record_seat)
    action_log_append_many(items=[(record, LogEntry(1, "tick", None, None, 1500), [trial])])
    return Trial.objects.get(table=table, log_seq=1).data


def test_a_colour_safe_students_trials_carry_the_flag_and_their_neighbours_do_not(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    student_colour_safe_set(student=school_class.students.get(display_name="Ava"), colour_safe=True)
    session = make_session(school_class=school_class, players_per_table=2)
    table, seat_of = _class_table(session, school_class, "Ava", "Ben")
    record = table_record(table=table)
    assert record.accommodations == {seat_of["Ava"]: "colour_safe"}

    trials = [_flip_trial(seat_of["Ava"]), _flip_trial(seat_of["Ben"])]
    action_log_append_many(items=[(record, LogEntry(1, "tick", None, None, 1500), trials)])

    by_name = {trial.seat.name: trial.data for trial in Trial.objects.select_related("seat")}
    assert by_name["Ava"]["accommodation"] == "colour_safe"
    assert "accommodation" not in by_name["Ben"]
    assert by_name["Ava"]["public"] == by_name["Ben"]["public"]  # the rest is untouched


def test_every_trial_of_a_session_played_on_the_safe_palette_carries_the_flag(
    teacher: User, school_class: SchoolClass
) -> None:
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=school_class,
        players_per_table=2,
        settings={},
        palette="okabe_ito",
    )
    table, seat_of = _class_table(session, school_class, "Ben")
    assert _stored_data(table, seat_of["Ben"])["accommodation"] == "colour_safe"


def test_games_whose_stimulus_is_not_a_colour_carry_no_flag(
    teacher: User, school_class: SchoolClass
) -> None:
    student_colour_safe_set(student=school_class.students.get(display_name="Ava"), colour_safe=True)
    session = session_create(
        teacher=teacher,
        game="commotion",
        school_class=school_class,
        players_per_table=2,
        settings={},
        palette="okabe_ito",
    )
    table, _seat_of = _class_table(session, school_class, "Ava")
    assert table_record(table=table).accommodations == {}


@pytest.mark.django_db(transaction=True)
def test_trials_of_a_student_taken_off_the_list_since_the_host_started_are_stored_unlinked(
    teacher: User, school_class: SchoolClass
) -> None:
    # A host reads its seats once, when it starts; its record then names a seat and a
    # student that no longer exist. The write must still succeed (it failed the foreign keys,
    # and so every later write of the table), and link the trial to no one.
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=school_class,
        players_per_table=2,
        settings={},
    )
    ava, ben = school_class.students.order_by("display_name")[:2]
    seat_join_student(session=session, student=ava)
    seat_join_student(session=session, student=ben)
    session_start(session=session)
    table = Table.objects.get(session=session)
    record = table_record(table=table)
    by_student = {student: index for index, (_seat, student) in record.humans.items()}
    ava_index, ben_index = by_student[ava.pk], by_student[ben.pk]
    student_remove(student=ava)

    entry = LogEntry(1, "act", ben_index, {"kind": "flip"}, 1000)
    trials = [_flip_trial(ava_index), _flip_trial(ben_index, rt_ms=400)]
    action_log_append_many(items=[(record, entry, trials)])

    stored = {trial.rt_ms: (trial.seat_id, trial.student_id) for trial in Trial.objects.all()}
    assert stored[512] == (None, None)
    assert stored[400] == (record.humans[ben_index][0], ben.pk)
    assert ActionLogEntry.objects.filter(table=table, seq=1).exists()


def test_trials_are_written_with_the_device_their_seat_reported_last(
    make_session: Callable[..., GameSession],
) -> None:
    table = _table(make_session)
    record = table_record(table=table)  # read before either report: the device is read later
    human = next(iter(record.humans))
    seat = table.seats.get()
    assert Trial._meta.get_field("device").null
    action_log_append_many(
        items=[(record, LogEntry(1, "tick", None, None, 1500), [_flip_trial(human)])]
    )
    first = device_get_or_create(
        user_agent="Tablet A", screen_width=1024, screen_height=768, frame_interval_ms=16.7
    )
    seat_device_set(seat=seat, device=first)
    action_log_append_many(
        items=[(record, LogEntry(2, "tick", None, None, 3000), [_flip_trial(human)])]
    )
    second = device_get_or_create(
        user_agent="Tablet B", screen_width=800, screen_height=1280, frame_interval_ms=8.3
    )
    seat_device_set(seat=seat, device=second)
    action_log_append_many(
        items=[(record, LogEntry(3, "tick", None, None, 4500), [_flip_trial(human)])]
    )
    devices = list(
        Trial.objects.filter(table=table).order_by("log_seq").values_list("device", flat=True)
    )
    assert devices == [None, first.pk, second.pk]
