"""Which results were played with an accommodation (see ``classroom.people.colour_vision``).

Reports mark them: in a game where a colour is the stimulus, a reaction time on
colour-vision-safe colours answers a different stimulus than one on the standard colours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import Trial
from classroom.people.colour_vision import COLOUR_SAFE_ACCOMMODATION

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
