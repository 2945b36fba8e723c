"""Practice games: a session of one student's own, adaptive, never joinable, marked practice."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError

from classroom.models import GameSession, Trial
from classroom.selectors.sessions import session_list, session_open_for_class
from classroom.services.assignments import assignment_create
from classroom.services.practice import practice_finish, practice_modes, practice_start
from classroom.services.seats import seat_join_student

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db


def test_practice_with_robots_seats_the_child_and_one_gentle_bot(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = practice_start(student=ava, game="commotion", mode="bots")
    session = seat.session
    assert session.is_practice
    assert session.adaptive
    assert session.status == GameSession.Status.RUNNING
    assert seat.table is not None
    roster = seat.table.roster
    assert roster[0]["seat_id"] == seat.pk
    assert roster[0]["rung"] == 0
    assert roster[0]["band"] == [0, None]
    assert [entry.get("bot") for entry in roster[1:]] == ["gentle"]


def test_palm_strike_alone_is_one_seat_in_team_mode(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = practice_start(student=ava, game="palm_strike", mode="solo")
    assert seat.table is not None
    assert len(seat.table.roster) == 1
    assert seat.session.settings["team_mode"] is True


def test_only_palm_strike_can_be_played_alone(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    assert practice_modes(game="palm_strike") == ["solo", "bots"]
    assert practice_modes(game="riff_raff") == ["bots"]
    with pytest.raises(ValidationError, match="cannot be practised that way"):
        practice_start(student=ava, game="riff_raff", mode="solo")
    with pytest.raises(ValidationError, match="Choose one of the games"):
        practice_start(student=ava, game="chess")
    assert not GameSession.objects.exists()


def test_a_new_practice_game_ends_the_one_left_open(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    first = practice_start(student=ava, game="riff_raff").session
    second = practice_start(student=ava, game="riff_raff").session
    first.refresh_from_db()
    assert first.status == GameSession.Status.ENDED
    assert second.status == GameSession.Status.RUNNING


def test_the_child_starts_where_they_left_off_inside_the_assignment_band(
    school_class: SchoolClass, teacher: User
) -> None:
    ava = school_class.students.get(display_name="Ava")
    earlier = practice_start(student=ava, game="palm_strike")
    assert earlier.table is not None
    Trial.objects.create(
        session=earlier.session, table=earlier.table, seat=earlier, student=ava, log_seq=1,
        game="palm_strike", kind="palm_strike.flip", data={"rung": 7},
    )  # fmt: skip
    again = practice_start(student=ava, game="palm_strike")
    assert again.table is not None
    assert again.table.roster[0]["rung"] == 7
    assignment = assignment_create(
        teacher=teacher, school_class=school_class, student=None, game="palm_strike",
        rung_min=1, rung_max=4, goal_kind="games", goal=2, due_on=None,
    )  # fmt: skip
    seat = practice_start(student=ava, game="palm_strike", assignment=assignment)
    assert seat.table is not None
    assert seat.table.roster[0]["band"] == [1, 4]
    assert seat.session.assignment == assignment


def test_someone_elses_assignment_is_refused(school_class: SchoolClass, teacher: User) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    for_ben = assignment_create(
        teacher=teacher, school_class=school_class, student=ben, game="commotion",
        rung_min=0, rung_max=3, goal_kind="minutes", goal=10, due_on=None,
    )  # fmt: skip
    with pytest.raises(ValidationError, match="not set for you"):
        practice_start(student=ava, game="commotion", assignment=for_ben)
    with pytest.raises(ValidationError, match="not set for you"):
        practice_start(student=ben, game="riff_raff", assignment=for_ben)


def test_practice_stays_out_of_class_sessions_and_badges(
    school_class: SchoolClass, teacher: User
) -> None:
    ava = school_class.students.get(display_name="Ava")
    practice_start(student=ava, game="commotion")
    assert session_open_for_class(school_class_id=school_class.pk) is None
    assert not session_list(teacher=teacher).exists()


def test_finishing_ends_the_practice_game_and_twice_is_harmless(school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = practice_start(student=ava, game="commotion")
    practice_finish(seat=seat)
    session = practice_finish(seat=seat)
    assert session.status == GameSession.Status.ENDED
    assert session.tables.get().status == "ended"


def test_a_class_seat_cannot_be_finished_from_the_tablet(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = seat_join_student(session=class_session, student=ava)
    with pytest.raises(ValidationError, match="Only a practice game"):
        practice_finish(seat=seat)
    class_session.refresh_from_db()
    assert class_session.status == GameSession.Status.LOBBY
