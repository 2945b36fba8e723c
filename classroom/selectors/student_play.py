"""A child's play over weeks as their progress page shows it: their sessions (the numbers
table) and their days (the charts), kept in the cache as the class's figures are
(``classroom.selectors.class_figures``).

Both are read from every trial the child played, 40,000 in a school's year; with nothing
played since, a visit finds them under the child's tallies' fingerprint, and during a lesson
a reading of the last ``IN_PLAY_FRESH_S`` stands, so the page opened after each answer stays
as quick as the class's overview beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone

from classroom.selectors.analytics import (
    SessionMeasures,
    _tallies,
    student_days,
    student_sessions,
    tallies_played,
)
from classroom.selectors.class_figures import class_figure_kept

if TYPE_CHECKING:
    from classroom.models import Student


@dataclass(frozen=True)
class StudentPlay:
    sessions: list[SessionMeasures]  # in time order (``student_sessions``)
    days: list[SessionMeasures]  # a point per day, game and level (``student_days``)


def student_play(*, student: Student, game: str | None = None) -> StudentPlay:
    """The child's sessions and days at ``game`` (or every game)."""
    # Days are calendar days of the site's time zone: a change of it is another reading.
    key = "snapclass:student-play:{}:{}:{}".format(
        student.pk, game or "", timezone.get_current_timezone_name()
    )
    return class_figure_kept(
        key=key,
        played=tallies_played(tallies=_tallies(student=student, game=game)),
        school_class=student.school_class,
        kind=StudentPlay,
        make=lambda: StudentPlay(
            sessions=student_sessions(student=student, game=game),
            days=student_days(student=student, game=game),
        ),
    )
