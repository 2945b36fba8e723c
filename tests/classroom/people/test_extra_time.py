"""Extra time from the class page to the table: the roster keeps it, the engine's Config gets
it, and every trial of the child carries the mark under ``extra_time``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError

from classroom.hosting.engines import table_engine
from classroom.hosting.log_store import action_log_append_many, table_record
from classroom.models import Table, Trial
from classroom.people.extra_time import trial_extra_time
from classroom.services.classes import student_extra_time_set
from classroom.services.seats import seat_join_student
from classroom.services.sessions import session_create, session_start
from games.engine.contract import Trial as EngineTrial
from games.live.host import LogEntry
from games.registry import game_get

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass


@pytest.mark.parametrize(
    ("game", "choice", "mark"),
    [
        ("palm_strike", "x1.5", "x1.5"),
        ("palm_strike", "x2", "x2"),
        ("palm_strike", "untimed", "untimed"),
        ("riff_raff", "x2", "x2"),
        # Commotion has no window to lengthen: any extra time there is no speed scoring.
        ("commotion", "x1.5", "untimed"),
        ("commotion", "x2", "untimed"),
        ("palm_strike", "", None),
        ("palm_strike", "x3", None),
    ],
)
def test_the_mark_a_trial_carries(game: str, choice: str, mark: str | None) -> None:
    assert trial_extra_time(game=game, choice=choice) == mark


@pytest.mark.django_db
def test_the_service_keeps_only_the_listed_choices(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    student_extra_time_set(student=ava, extra_time="untimed")
    with pytest.raises(ValidationError):
        student_extra_time_set(student=ava, extra_time="x3")
    ava.refresh_from_db()
    assert ava.extra_time == "untimed"


def _dealt(
    teacher: User, school_class: SchoolClass, game: str, *, extra_time: dict[str, str]
) -> tuple[Table, dict[str, int]]:
    """Ava and Ben at one table of ``game``, after the teacher gave ``extra_time`` (name:
    choice); the table with each name's engine seat."""
    for name, choice in extra_time.items():
        student_extra_time_set(
            student=school_class.students.get(display_name=name), extra_time=choice
        )
    session = session_create(
        teacher=teacher, game=game, school_class=school_class, players_per_table=2, settings={}
    )
    seats = {
        name: seat_join_student(
            session=session, student=school_class.students.get(display_name=name)
        )
        for name in ("Ava", "Ben")
    }
    session_start(session=session)
    table = Table.objects.get(session=session)
    index = {entry.get("seat_id"): i for i, entry in enumerate(table.roster)}
    return table, {name: index[seat.pk] for name, seat in seats.items()}


@pytest.mark.django_db
def test_a_childs_extra_time_reaches_the_engine_and_every_trial_of_theirs(
    teacher: User, school_class: SchoolClass
) -> None:
    table, seat_of = _dealt(teacher, school_class, "palm_strike", extra_time={"Ava": "x2"})
    ava, ben = seat_of["Ava"], seat_of["Ben"]
    assert table.roster[ava]["extra_time"] == "x2"
    assert "extra_time" not in table.roster[ben]
    spec = game_get("palm_strike")
    assert spec is not None
    _engine, config = table_engine(spec=spec, settings={}, adaptive=False, roster=table.roster)
    assert config.window_ms_for(ava) == 2 * config.window_ms_for(ben)

    # A change on the class page waits for the next table: this one keeps its windows.
    student_extra_time_set(student=school_class.students.get(display_name="Ava"), extra_time="")
    record = table_record(table=table)
    assert record.extra_time == {ava: "x2"}
    trials = [EngineTrial(seat, "palm_strike.flip", {"rt_ms": 900}) for seat in (ava, ben)]
    action_log_append_many(items=[(record, LogEntry(1, "tick", None, None, 1500), trials)])
    by_name = {trial.seat.name: trial.data for trial in Trial.objects.select_related("seat")}
    assert by_name["Ava"]["extra_time"] == "x2"
    assert "extra_time" not in by_name["Ben"]


@pytest.mark.django_db
@pytest.mark.parametrize("choice", ["x1.5", "x2", "untimed"])
def test_commotion_trials_of_a_child_with_extra_time_are_untimed(
    teacher: User, school_class: SchoolClass, choice: str
) -> None:
    table, seat_of = _dealt(teacher, school_class, "commotion", extra_time={"Ben": choice})
    assert table_record(table=table).extra_time == {seat_of["Ben"]: "untimed"}
