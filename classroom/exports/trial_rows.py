"""The trials an export holds, one flat row each, read without building model instances.

An export of a big class runs to 100k+ trials, so rows are plain tuples fetched in chunks
(``values_list(...).iterator()``): memory stays flat however many there are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from classroom.selectors.analytics import human_trials, session_trials

if TYPE_CHECKING:
    from collections.abc import Iterator
    from datetime import datetime

    from django.db.models import QuerySet

    from classroom.models import GameSession, SchoolClass, Trial

CHUNK_SIZE = 2000


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
)


def session_export_trials(*, session: GameSession) -> QuerySet[Trial]:
    """Every human trial of the session (bots excluded), in the order they happened."""
    return session_trials(session=session)


def class_export_trials(*, school_class: SchoolClass) -> QuerySet[Trial]:
    """Every trial of the class's students, across sessions, in the order they happened.

    The same trials as the class progress pages (``student__school_class``)."""
    return human_trials().filter(student__school_class=school_class).order_by("created_at", "pk")


def trial_rows(*, trials: QuerySet[Trial]) -> Iterator[TrialRow]:
    for values in trials.values_list(*_FIELDS).iterator(chunk_size=CHUNK_SIZE):
        yield TrialRow._make(values)
