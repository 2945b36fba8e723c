"""The trials an export holds, one flat row each, read without building model instances.

An export of a big class runs to 100k+ trials, so rows are plain tuples fetched in pages
(``trial_rows``): memory stays flat however many there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, NamedTuple

from classroom.models import RunFlag
from classroom.selectors.analytics import human_trials, session_trials

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from datetime import datetime
    from decimal import Decimal

    from django.db.models import QuerySet

    from classroom.models import GameSession, SchoolClass, Trial

CHUNK_SIZE = 1000
_VALID_RUN: tuple[str | None, bool | None] = (None, None)
DAY = timedelta(days=1)


class TrialRow(NamedTuple):
    session_code: str
    session_started_at: datetime | None
    session_created_at: datetime
    session_kind: str
    game: str
    game_number: int  # which game of the session (Play again deals the next)
    table_number: int
    name: str
    level: str
    target: bool | None
    congruent: bool | None
    responded: bool | None
    rt_ms: int | None
    correct: bool | None
    plausible: bool
    data: dict[str, Any]
    created_at: datetime
    kind: str
    # The tablet it was played on (``Device``), all None when its page never reported one.
    device_screen_width: int | None
    device_screen_height: int | None
    device_frame_interval_ms: Decimal | None
    device_user_agent: str | None
    seat_id: int | None
    # The run's flags (``RunFlag``) and whether the teacher kept it, both None for a valid run.
    run_flags: str | None
    run_kept: bool | None


# The Trial lookups behind each TrialRow field, in the same order.
_FIELDS = (
    "session__code",
    "session__started_at",
    "session__created_at",
    "session__kind",
    "game",
    "table__game_number",
    "table__number",
    "seat__name",
    "level",
    "target",
    "congruent",
    "responded",
    "rt_ms",
    "correct",
    "plausible",
    "data",
    "created_at",
    "kind",
    "device__screen_width",
    "device__screen_height",
    "device__frame_interval_ms",
    "device__user_agent",
    "seat_id",
)
_SEAT = _FIELDS.index("seat_id")


def session_export_trials(*, session: GameSession) -> QuerySet[Trial]:
    """Every human trial of the session (bots excluded), in the order they happened."""
    return session_trials(session=session)


def class_export_trials(*, school_class: SchoolClass) -> QuerySet[Trial]:
    """Every trial of the class's students, across sessions, in the order they happened.

    The same trials as the class progress pages (``student__school_class``)."""
    return human_trials().filter(student__school_class=school_class).order_by("created_at", "pk")


@dataclass(frozen=True)
class ReadInDays:
    """How to read a class's trials a day at a time (``trial_rows``): the games they are of
    (the trials index is by student, game and time, so a day of one student's game is one
    range of it) and the students whose first and last trial bound the days."""

    games: Sequence[str]
    students: Sequence[int]


def trial_rows(
    *, trials: QuerySet[Trial], chunk_size: int = CHUNK_SIZE, days: ReadInDays | None = None
) -> Iterator[TrialRow]:
    """The trials in the order they happened: their ids first, then their rows ``chunk_size``
    ids at a time, each chunk its own query.

    With ``days``, the ids are read a day at a time: a year of a class is about a million
    trials, and listing and sorting all their ids at once would hold the first row back for
    seconds.
    No read stays open while the rows are written out: on SQLite a connection holding an old
    snapshot cannot write (a task's progress updates would fail with "database is locked" once
    a live table has committed since), and a long read holds back WAL checkpoints. A trial
    deleted meanwhile is left out; one recorded meanwhile is not in this file."""
    model = trials.model._default_manager
    by_id = model.order_by("created_at", "pk")
    newest = model.order_by("-pk").values_list("pk", flat=True).first()
    if newest is None:
        return
    trials = trials.filter(pk__lte=newest)
    for ids in _ids_in_order(trials, days):
        for start in range(0, len(ids), chunk_size):
            chunk = list(by_id.filter(pk__in=ids[start : start + chunk_size]).values_list(*_FIELDS))
            # A chunk's few seats' flags in one small read, not a join on every trial.
            flagged = _run_flags({values[_SEAT] for values in chunk})
            for values in chunk:
                yield TrialRow._make((*values, *flagged.get(values[_SEAT], _VALID_RUN)))


def _run_flags(seats: set[int | None]) -> dict[int | None, tuple[str | None, bool | None]]:
    """The flagged runs among these seats, by seat: their flags and whether they are kept."""
    known = {seat for seat in seats if seat is not None}
    if not known:
        return {}
    found = RunFlag.objects.filter(seat_id__in=known).values_list("seat_id", "flags", "kept")
    return {seat: (flags, kept) for seat, flags, kept in found}


def _ids_in_order(trials: QuerySet[Trial], days: ReadInDays | None) -> Iterator[list[int]]:
    ordered = trials.order_by("created_at", "pk").values_list("pk", flat=True)
    if days is None:
        yield list(ordered)
        return
    bounds = _time_bounds(trials.model._default_manager.all(), days)
    if bounds is None:
        return
    start, last = bounds
    in_games = ordered.filter(game__in=days.games)
    while start <= last:
        end = start + DAY
        yield list(in_games.filter(created_at__gte=start, created_at__lt=end))
        start = end


def _time_bounds(every: QuerySet[Trial], days: ReadInDays) -> tuple[datetime, datetime] | None:
    """The first and last trial's time among the students' games: one index entry each."""
    moments = []
    for student_id in days.students:
        for game in days.games:
            of_game = every.filter(student_id=student_id, game=game).values_list(
                "created_at", flat=True
            )
            moments += [
                moment
                for moment in (
                    of_game.order_by("created_at").first(),
                    of_game.order_by("-created_at").first(),
                )
                if moment is not None
            ]
    return (min(moments), max(moments)) if moments else None
