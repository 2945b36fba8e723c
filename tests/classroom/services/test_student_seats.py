"""A class student's new seat."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import Seat
from classroom.services.student_seats import student_seat_new

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass


def test_a_students_seat_takes_their_name_and_a_fresh_token(
    school_class: SchoolClass, class_session: GameSession
) -> None:
    ava, ben = school_class.students.order_by("display_name")[:2]
    table = class_session.tables.create(number=9)
    first = student_seat_new(session=class_session, table=table, student=ava, options={"x": 1})
    second = student_seat_new(session=class_session, table=table, student=ben)
    assert first.pk is None  # not saved: seeders save many at once
    assert (first.name, first.name_key, first.options) == ("Ava", "ava", {"x": 1})
    assert first.token
    assert first.token != second.token
    first.save()
    assert Seat.objects.get(pk=first.pk).student == ava
