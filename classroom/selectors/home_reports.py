"""Reads for a report for home: what one child played over a period (games, levels, sessions,
minutes and any extra time), and the language a class plays in. Only that child's own trials
are read."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Max, Min

from classroom.models import GameSession, Trial
from classroom.people.extra_time import TRIAL_KEY as EXTRA_TIME_KEY

if TYPE_CHECKING:
    from datetime import datetime

    from classroom.models import SchoolClass, Student


@dataclass(frozen=True)
class GamePlayed:
    """One game a child played in a period: its levels in the order first reached, how many
    sessions, and about how many minutes (from each session's first answer to its last, at
    least a minute a session)."""

    game: str
    levels: tuple[str, ...]
    sessions: int
    minutes: int
    # The extra-time marks its trials carry (``classroom.people.extra_time``), in mark order.
    extra_time: tuple[str, ...] = ()


def student_play(*, student: Student, since: datetime | None) -> list[GamePlayed]:
    """The games ``student`` played since ``since`` (``None``: ever), most played first."""
    trials = Trial.objects.filter(student=student)
    if since is not None:
        trials = trials.filter(created_at__gte=since)
    rows = (
        trials.values("game", "session", "level")
        .annotate(first=Min("created_at"), last=Max("created_at"), answers=Count("pk"))
        .order_by("first")
    )
    levels: dict[str, dict[str, None]] = {}
    spans: dict[str, dict[int, tuple[datetime, datetime]]] = {}
    for row in rows:
        levels.setdefault(row["game"], {})[row["level"]] = None
        sessions = spans.setdefault(row["game"], {})
        first, last = sessions.get(row["session"], (row["first"], row["last"]))
        sessions[row["session"]] = (min(first, row["first"]), max(last, row["last"]))
    marks: dict[str, set[str]] = {}
    for game, mark in (
        trials.filter(data__has_key=EXTRA_TIME_KEY)
        .order_by()
        .values_list("game", f"data__{EXTRA_TIME_KEY}")
        .distinct()
    ):
        marks.setdefault(game, set()).add(str(mark))
    played = [
        GamePlayed(
            game=game,
            levels=tuple(level for level in levels[game] if level),
            sessions=len(sessions),
            minutes=sum(
                max(1, math.ceil((last - first).total_seconds() / 60))
                for first, last in sessions.values()
            ),
            extra_time=tuple(sorted(marks.get(game, ()))),
        )
        for game, sessions in spans.items()
    ]
    return sorted(played, key=lambda found: (-found.sessions, found.game))


def class_language(*, school_class: SchoolClass) -> str | None:
    """The site language the class plays in: its latest session's game words, if they are in
    one of the site's languages."""
    latest = (
        GameSession.objects.filter(school_class=school_class)
        .order_by("-created_at", "-pk")
        .values_list("language", flat=True)
        .first()
    )
    known = {code.lower(): code for code, _name in settings.LANGUAGES}
    return known.get((latest or "").lower())
