"""Which results were played with an accommodation (see ``classroom.people.colour_vision``
and ``classroom.people.extra_time``).

Reports mark them: in a game where a colour is the stimulus, a reaction time on
colour-vision-safe colours answers a different stimulus than one on the standard colours;
a child with extra time had a longer window than the table's (or no speed scoring).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import Trial
from classroom.people.colour_vision import COLOUR_SAFE_ACCOMMODATION
from classroom.people.extra_time import TRIAL_KEY as EXTRA_TIME_KEY

if TYPE_CHECKING:
    from classroom.models import GameSession, Student


def session_colour_safe_seats(*, session: GameSession) -> set[int]:
    """Pks of the session's seats with trials played on the colour-vision-safe palette."""
    return set(
        Trial.objects.filter(session=session, data__accommodation=COLOUR_SAFE_ACCOMMODATION)
        .exclude(seat__isnull=True)
        .order_by()
        .values_list("seat_id", flat=True)
        .distinct()
    )


def student_colour_safe_sessions(*, student: Student) -> set[int]:
    """Pks of the sessions in which the student played on the colour-vision-safe palette."""
    return set(
        # ``has_key`` says no more than the value does; it lets the database use the partial
        # index of the trials with an accommodation (``Trial.Meta.indexes``).
        Trial.objects.filter(
            student=student,
            data__has_key="accommodation",
            data__accommodation=COLOUR_SAFE_ACCOMMODATION,
        )
        .order_by()
        .values_list("session_id", flat=True)
        .distinct()
    )


def session_extra_time_seats(*, session: GameSession) -> dict[int, str]:
    """Seat pk -> the extra time its trials were played with ("x1.5", "x2", "untimed"), for
    the session's seats that had any (classroom.people.extra_time)."""
    return dict(
        Trial.objects.filter(session=session, data__has_key=EXTRA_TIME_KEY)
        .exclude(seat__isnull=True)
        .order_by()
        .values_list("seat_id", f"data__{EXTRA_TIME_KEY}")
        .distinct()
    )


def student_extra_time_sessions(*, student: Student) -> dict[int, str]:
    """Session pk -> the extra time the student played that session with."""
    return dict(
        Trial.objects.filter(student=student, data__has_key=EXTRA_TIME_KEY)
        .order_by()
        .values_list("session_id", f"data__{EXTRA_TIME_KEY}")
        .distinct()
    )
