"""Sessions, their tables and seats, as the console, projector and lobby show them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet
from django.utils import timezone

from classroom.models import GameSession, SchoolClass, Seat, SeatConnection, SeatDevice, Table
from classroom.processes import processes_alive
from classroom.selectors.classes import ClassRight, classes_visible
from classroom.selectors.unique_rows import unique_row

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.contrib.auth.models import User


def sessions_kept() -> QuerySet[GameSession]:
    """Every session but those deleted (by their teacher, the retention prune, or with their
    class) whose rows the task worker is still purging: nothing finds those."""
    return GameSession.objects.filter(
        Q(school_class__isnull=True) | Q(school_class__deleted_at__isnull=True),
        deleted_at__isnull=True,
    )


def sessions_visible(*, teacher: User, right: ClassRight = ClassRight.SEE) -> QuerySet[GameSession]:
    """The sessions ``teacher`` holds ``right`` over: every session of a class they hold it
    over (whoever ran it: a session belongs to its class), and the guest sessions they ran.
    A colleague whose share is revoked no longer sees the sessions they ran for the class."""
    if teacher.pk is None:
        return GameSession.objects.none()
    return GameSession.objects.filter(
        Q(school_class__isnull=True, teacher=teacher)
        | Q(school_class__in=classes_visible(teacher=teacher, right=right)),
        deleted_at__isnull=True,
    )


def session_deletable_by(*, session: GameSession, teacher: User) -> bool:
    """Whether the teacher may delete the session (once it has ended): not a substitute."""
    deletable = sessions_visible(teacher=teacher, right=ClassRight.MANAGE)
    return deletable.filter(pk=session.pk).exists()


def session_list(*, teacher: User) -> QuerySet[GameSession]:
    """The class sessions the teacher may see (a student's practice shows on their progress
    page)."""
    return (
        sessions_visible(teacher=teacher)
        .filter(kind=GameSession.Kind.CLASS)
        .select_related("school_class", "teacher")
    )


def session_last(*, teacher: User) -> GameSession | None:
    """The newest class session this teacher ran (of a class they may still see): a new
    session starts from its settings."""
    return (
        session_list(teacher=teacher).filter(teacher=teacher).order_by("-created_at", "-pk").first()
    )


def session_tables_current(*, session: GameSession) -> QuerySet[Table]:
    """The tables of the game the session plays now (earlier games keep their own rows)."""
    return session.tables.filter(game_number=session.game_number)


def session_table_ids(*, session_id: int) -> set[int]:
    """The tables of the game the session plays now, by id (its teacher's pages draw them)."""
    current = Table.objects.filter(session_id=session_id, game_number=F("session__game_number"))
    return set(current.values_list("pk", flat=True))


def session_game_over(*, session: GameSession, tables: Sequence[Table] | None = None) -> bool:
    """The session is open but every table of its current game has finished: the console
    offers Play again, the projector shows how the game went. ``tables``: the current
    game's tables, if the caller has just read them (a live page's roster has)."""
    if session.status not in (GameSession.Status.RUNNING, GameSession.Status.PAUSED):
        return False
    if tables is not None:
        dealt = [table for table in tables if table.seed is not None]
        return bool(dealt) and all(table.status == Table.Status.ENDED for table in dealt)
    playing = session_tables_current(session=session).filter(seed__isnull=False)
    return playing.exists() and not playing.exclude(status=Table.Status.ENDED).exists()


@dataclass(frozen=True)
class SessionLine:
    """One session on the home page."""

    session: GameSession
    # "lobby", "running", "paused", "game_over" (every table of its game done) or "ended".
    state: str
    games: int
    # Whether this teacher may delete it once it has ended (a substitute may not).
    deletable: bool = False


@dataclass(frozen=True)
class ClassSessions:
    school_class: SchoolClass | None  # None: guest sessions
    lines: list[SessionLine]


def session_lines_by_class(*, teacher: User, limit: int = 40) -> list[ClassSessions]:
    """The newest class sessions the teacher may see, grouped by class (classes by name,
    guests last), newest first in each, with what state each is in."""
    current = Table.objects.filter(
        session=OuterRef("pk"), game_number=OuterRef("game_number"), seed__isnull=False
    )
    sessions = list(
        session_list(teacher=teacher)
        .annotate(
            dealt=Exists(current),
            unfinished=Exists(current.exclude(status=Table.Status.ENDED)),
        )
        .order_by("-created_at", "-pk")[:limit]
    )
    deletable = set(
        sessions_visible(teacher=teacher, right=ClassRight.MANAGE)
        .filter(pk__in=[session.pk for session in sessions])
        .values_list("pk", flat=True)
    )
    groups: dict[int | None, list[SessionLine]] = {}
    classes: dict[int | None, SchoolClass | None] = {}
    for session in sessions:
        state = session.status
        if state in (GameSession.Status.RUNNING, GameSession.Status.PAUSED) and (
            session.dealt and not session.unfinished
        ):
            state = "game_over"
        groups.setdefault(session.school_class_id, []).append(
            SessionLine(
                session=session,
                state=state,
                games=session.game_number,
                deletable=session.pk in deletable,
            )
        )
        classes[session.school_class_id] = session.school_class

    def class_order(key: int | None) -> tuple[bool, str]:
        school_class = classes[key]
        return (school_class is None, school_class.name.lower() if school_class else "")

    order = sorted(groups, key=class_order)
    return [ClassSessions(school_class=classes[key], lines=groups[key]) for key in order]


def session_get_by_code(*, code: str) -> GameSession | None:
    return unique_row(sessions_kept().select_related("school_class").filter(code=code))


def session_is_expired(*, session: GameSession) -> bool:
    lifetime = timedelta(hours=settings.SESSION_CODE_LIFETIME_HOURS)
    return session.status == GameSession.Status.LOBBY and timezone.now() > (
        session.created_at + lifetime
    )


def session_open_for_class(*, school_class_id: int) -> GameSession | None:
    """The newest session of a class that a badge can still join."""
    candidates = GameSession.objects.filter(
        school_class_id=school_class_id, kind=GameSession.Kind.CLASS
    ).exclude(status=GameSession.Status.ENDED)
    for session in candidates.order_by("-created_at", "-pk"):
        if not session_is_expired(session=session):
            return session
    return None


def _alive_processes(connections: QuerySet[SeatConnection]) -> set[str]:
    # Rows of a process that died are stale: only live processes' sockets count.
    return processes_alive(connections.values_list("process_id", flat=True).distinct())


def seats_with_presence(*, session: GameSession) -> QuerySet[Seat]:
    alive = _alive_processes(SeatConnection.objects.filter(seat__session=session))
    live = SeatConnection.objects.filter(seat=OuterRef("pk"), process_id__in=alive)
    return session.seats.annotate(
        connected=Exists(live),
        # The tablets a removal keeps out of the session (the console lists them).
        tablets_kept_out=Count("devices", filter=Q(devices__kicked_at__isnull=False)),
    ).select_related("table", "student")


def device_is_kept_out(*, session: GameSession, device_id: str) -> bool:
    """Whether the teacher removed a seat this tablet held (and has not let it back in)."""
    if not device_id:
        return False
    return SeatDevice.objects.filter(
        seat__session=session, device_id=device_id, kicked_at__isnull=False
    ).exists()


def seat_is_connected(*, seat: Seat) -> bool:
    connections = SeatConnection.objects.filter(seat=seat)
    return connections.filter(process_id__in=_alive_processes(connections)).exists()


def seat_get_by_token(*, session: GameSession, token: str) -> Seat | None:
    if not token:
        return None
    return unique_row(session.seats.select_related("table").filter(token=token))


@dataclass(frozen=True)
class TableRoster:
    table: Table
    seats: list[Seat]


@dataclass(frozen=True)
class SessionRoster:
    """Everyone in a session, by table, with whether their tablet is connected."""

    tables: list[TableRoster]
    unseated: list[Seat]
    kicked: list[Seat]

    @property
    def seated(self) -> list[Seat]:
        return [seat for roster in self.tables for seat in roster.seats] + self.unseated

    @property
    def connected_count(self) -> int:
        return sum(1 for seat in self.seated if getattr(seat, "connected", False))


def session_roster(*, session: GameSession) -> SessionRoster:
    seats = list(seats_with_presence(session=session))
    tables = [
        TableRoster(
            table=table,
            seats=[seat for seat in seats if seat.table_id == table.pk and not seat.is_kicked],
        )
        for table in session_tables_current(session=session)
    ]
    return SessionRoster(
        tables=tables,
        unseated=[seat for seat in seats if seat.table_id is None and not seat.is_kicked],
        kicked=[seat for seat in seats if seat.is_kicked],
    )


def table_mates(*, seat: Seat) -> list[Seat]:
    if seat.table_id is None:
        return []
    return list(
        Seat.objects.filter(table_id=seat.table_id, kicked_at__isnull=True).order_by(
            "joined_at", "pk"
        )
    )
