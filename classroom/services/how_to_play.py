"""Which games' how-to-play demo a student has been shown (guests keep it on the tablet)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import HowToPlaySeen

if TYPE_CHECKING:
    from classroom.models import Student


def how_to_play_seen_record(*, student: Student, game: str) -> bool:
    """Record that the student is shown how to play ``game``; True the first time only, so
    the tablet plays the demo on their first game of it and never again by itself."""
    _, created = HowToPlaySeen.objects.get_or_create(student=student, game=game)
    return created
