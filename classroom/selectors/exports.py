"""Reads for prepared downloads: a teacher's exports, the settings the exported games were
played with, and the task queue's length for the metrics."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q
from django.shortcuts import get_object_or_404

from classroom.models import Export, GameSession, Table
from classroom.selectors.classes import classes_visible
from classroom.selectors.sessions import sessions_visible

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import User
    from django.db.models import QuerySet

    from classroom.models import SchoolClass, Trial


def export_of_owner(*, owner: User, export_id: int) -> Export:
    """The export, if ``owner`` asked for it and may still see its session or class (a
    colleague whose share was revoked loses the files they prepared); 404 for anyone else."""
    exports = Export.objects.filter(owner=owner).filter(
        Q(session__in=sessions_visible(teacher=owner))
        | Q(school_class__in=classes_visible(teacher=owner))
    )
    return get_object_or_404(exports, pk=export_id)


def export_latest(
    *,
    owner: User,
    kind: str,
    session: GameSession | None = None,
    school_class: SchoolClass | None = None,
    game: str = "",
) -> Export | None:
    """The newest export of this kind of the session or class that ``owner`` asked for (a
    class's printed reports: of that one ``game``, or blank for every game)."""
    exports = Export.objects.filter(owner=owner, kind=kind, game=game)
    if session is not None:
        exports = exports.filter(session=session)
    else:
        exports = exports.filter(school_class=school_class)
    return exports.order_by("-created_at", "-pk").first()


def exports_waiting() -> dict[str, int]:
    """How many exports wait for a worker (``queued``) and are being built (``running``)."""
    counts = Export.objects.aggregate(
        queued=Count("pk", filter=Q(status=Export.Status.QUEUED)),
        running=Count("pk", filter=Q(status=Export.Status.RUNNING)),
    )
    return {"queued": counts["queued"] or 0, "running": counts["running"] or 0}


@dataclass(frozen=True)
class ExportedGame:
    """One game of one session in an export, with the settings it was played with."""

    session: GameSession
    game_number: int
    # The game's own settings (its Config values) as that game was dealt.
    settings: dict[str, Any]

    @property
    def date(self) -> datetime:
        return self.session.started_at or self.session.created_at


def exported_games(*, trials: QuerySet[Trial]) -> list[ExportedGame]:
    """Every (session, game number) the trials come from, in the order they were played.

    An earlier game of a session keeps the settings it was dealt with on its tables
    (``Table.settings``, set when Play again changed them); otherwise the session's hold."""
    pairs = set(trials.order_by().values_list("session_id", "table__game_number").distinct())
    sessions = GameSession.objects.in_bulk({session_id for session_id, _number in pairs})
    dealt: dict[tuple[int, int], dict[str, Any]] = {}
    for table in Table.objects.filter(session_id__in=sessions, settings__isnull=False).order_by(
        "number"
    ):
        if table.settings is not None:
            dealt.setdefault((table.session_id, table.game_number), table.settings)
    games = [
        ExportedGame(
            session=sessions[session_id],
            game_number=number,
            settings=dealt.get((session_id, number), sessions[session_id].settings),
        )
        for session_id, number in pairs
    ]
    return sorted(games, key=lambda game: (game.date, game.session.pk, game.game_number))
