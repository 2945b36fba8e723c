"""A class student's new seat: the student's name as the seat's, and a fresh seat token."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from classroom.models import Seat
from classroom.people.names import name_key
from classroom.services.tokens import token_new

if TYPE_CHECKING:
    from classroom.models import GameSession, Student, Table


def student_seat_new(
    *, session: GameSession, table: Table, student: Student, **fields: Any
) -> Seat:
    """The seat, not yet saved (seeders save many at once); ``fields``: any other columns."""
    return Seat(
        session=session,
        table=table,
        student=student,
        name=student.display_name,
        name_key=name_key(student.display_name),
        token=token_new(),
        **fields,
    )
