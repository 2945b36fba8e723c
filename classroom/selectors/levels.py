"""Where each child stands on a game's adaptive ladder, read from the trials they played."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from classroom.models import Trial

if TYPE_CHECKING:
    from datetime import datetime

    from classroom.models import Student


def student_rung(*, student: Student, game: str) -> int:
    """The rung the student last played this game at (0, the easiest, if never)."""
    rung = (
        Trial.objects.filter(student=student, game=game, data__has_key="rung")
        .order_by("-created_at", "-pk")
        .values_list("data__rung", flat=True)
        .first()
    )
    return rung if isinstance(rung, int) and rung >= 0 else 0


@dataclass(frozen=True)
class LevelPoint:
    """One session's stretch of the level track: the rungs it started and ended at."""

    session_id: int
    played_at: datetime | None
    practice: bool
    first_rung: int
    last_rung: int
    highest_rung: int
    trials: int


def level_track(*, student: Student, game: str) -> list[LevelPoint]:
    """The student's level track in a game, session by session, oldest first."""
    rows = (
        Trial.objects.filter(student=student, game=game, data__has_key="rung")
        .order_by("created_at", "pk")
        .values_list("session_id", "session__started_at", "session__kind", "data__rung")
    )
    points: dict[int, LevelPoint] = {}
    for session_id, started_at, kind, rung in rows.iterator():
        if not isinstance(rung, int):
            continue
        point = points.get(session_id)
        points[session_id] = (
            LevelPoint(session_id, started_at, kind == "practice", rung, rung, rung, 1)
            if point is None
            else replace(
                point,
                last_rung=rung,
                highest_rung=max(point.highest_rung, rung),
                trials=point.trials + 1,
            )
        )
    return list(points.values())
