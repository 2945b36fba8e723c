"""What the store tells the rest of the site after a write: typed events on an in-process bus.

Services publish; the live side (page notices, table hosts) and the background tasks subscribe
when the app starts (``classroom.apps``). So the store never imports the runtime that reacts
to it, and a write that rolls back tells nobody.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import transaction

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping


@dataclass(frozen=True)
class LobbyChanged:
    """Who sits where, or a session setting the lobby shows, changed.

    ``tables``: only the players of these tables changed, so only the tablets seated there
    (and the teacher's pages) need to redraw; None when it may concern every tablet.
    """

    session_id: int
    tables: tuple[int, ...] | None = None


@dataclass(frozen=True)
class PresenceChanged:
    """A tablet connected or left: only the teacher's pages show that."""

    session_id: int


@dataclass(frozen=True)
class LiveSkillsChanged:
    """What the consoles' live skills show changed with no play (a "needs help" mark was
    dismissed): they draw them again, or the mark stays up while the game is paused."""

    session_id: int


@dataclass(frozen=True)
class SeatRevoked:
    """The seat was removed or taken over, or (``reason``) its token stopped working."""

    seat_id: int
    reason: str = "removed"


@dataclass(frozen=True)
class SeatNextGame:
    """The seat's table deals a new game (Play again): the tablet loads it."""

    seat_id: int


@dataclass(frozen=True)
class TeacherAccessChanged:
    """What the teacher may see changed (a class share was revoked)."""

    teacher_id: int


@dataclass(frozen=True)
class StandingsChanged:
    """What the session's tablets may show of points and ranks changed."""

    session_id: int
    standings: Mapping[str, Any]


@dataclass(frozen=True)
class TablesControlled:
    """Pause, resume or end the session's running tables (or only ``table_ids``)."""

    session_id: int
    command: str
    table_ids: tuple[int, ...] | None = None


@dataclass(frozen=True)
class SeatGivenToBot:
    """A bot plays this seat of the table from now on."""

    table_id: int
    seat_index: int
    level: str


@dataclass(frozen=True)
class ClassDeleted:
    """A class was marked deleted: its sessions and trials are to be purged."""

    class_id: int


@dataclass(frozen=True)
class SessionsDeleted:
    """Sessions were marked deleted: their seats, log and trials are to be purged."""


@dataclass(frozen=True)
class ExportRequested:
    """A prepared download was created and waits for a worker to build it."""

    export_id: int


Event = (
    LobbyChanged
    | PresenceChanged
    | LiveSkillsChanged
    | SeatRevoked
    | SeatNextGame
    | TeacherAccessChanged
    | StandingsChanged
    | TablesControlled
    | SeatGivenToBot
    | ClassDeleted
    | SessionsDeleted
    | ExportRequested
)
E = TypeVar("E", bound=Event)

_handlers: dict[type[Any], list[Callable[[Any], None]]] = {}


def event_subscribe(*, kind: type[E], handler: Callable[[E], None]) -> None:
    """Call ``handler`` with every event of ``kind`` published from now on (once per handler,
    however often the app starts up)."""
    handlers = _handlers.setdefault(kind, [])
    if handler not in handlers:
        handlers.append(handler)


def event_publish(*, event: Event) -> None:
    """Deliver ``event`` once the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_deliver, event))


def event_publish_now(*, event: Event) -> None:
    """Deliver ``event`` at once, inside the current transaction: for a subscriber whose own
    writes (a task queued in the database) must commit or roll back with the publisher's."""
    _deliver(event)


def _deliver(event: Event) -> None:
    for handler in _handlers.get(type(event), ()):
        handler(event)
