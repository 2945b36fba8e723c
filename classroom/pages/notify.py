"""Tell the open pages of a session what changed in the store, once the change is committed.

Each page's socket then renders its own fragment (console, projector, or one seat's lobby) in
its own language; see ``classroom.pages.fragments``.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from typing import TYPE_CHECKING, Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer

from classroom.events import (
    LiveSkillsChanged,
    LobbyChanged,
    PresenceChanged,
    SeatNextGame,
    SeatRevoked,
    StandingsChanged,
    TeacherAccessChanged,
    event_subscribe,
)

if TYPE_CHECKING:
    import concurrent.futures
    from collections.abc import Mapping


logger = logging.getLogger(__name__)


def session_group(session_id: int) -> str:
    """Every open page of the session: lobby changes concern them all."""
    return f"session-{session_id}"


def teachers_group(session_id: int) -> str:
    """The session's teacher pages only: table moves would only wake the tablets for nothing."""
    return f"session-{session_id}-teachers"


def teacher_group(user_id: int) -> str:
    """Every teacher page (console, projector, table watch) one teacher has open."""
    return f"teacher-{user_id}"


def seat_group(seat_id: int) -> str:
    """The game sockets of one seat: told when the seat stops being theirs."""
    return f"seat-{seat_id}"


def seat_lobby_group(code: str, token: str) -> str:
    """The lobby sockets of one seat token in one session: told when a newer one opens. Named
    before the seat is read (so no newer socket is missed), by a hash: a token is a secret,
    never a channel layer's key."""
    digest = hashlib.sha256(f"{code}:{token}".encode()).hexdigest()[:40]
    return f"seat-lobby-{digest}"


def standings_group(session_id: int) -> str:
    """The session's game sockets that draw points and ranks
    (see ``classroom.selectors.standings``)."""
    return f"session-{session_id}-standings"


def _seat_revoked(event: SeatRevoked) -> None:
    _send(seat_group(event.seat_id), "seat.revoked", {"reason": event.reason})


def _seat_next_game(event: SeatNextGame) -> None:
    # The tablet loads the new game (Play again on the console; no code to type).
    _send(seat_group(event.seat_id), "seat.next_game")


def _teacher_access_changed(event: TeacherAccessChanged) -> None:
    # Each of the teacher's pages looks again whether it may still watch its session.
    _send(teacher_group(event.teacher_id), "teacher.access_changed")


def _lobby_changed(event: LobbyChanged) -> None:
    data = None if event.tables is None else {"tables": sorted(event.tables)}
    _send(session_group(event.session_id), "lobby.changed", data)


def _presence_changed(event: PresenceChanged) -> None:
    _send(teachers_group(event.session_id), "lobby.changed")


def _live_skills_changed(event: LiveSkillsChanged) -> None:
    _send(teachers_group(event.session_id), "skills.changed")


def _standings_changed(event: StandingsChanged) -> None:
    _send(standings_group(event.session_id), "session.standings", dict(event.standings))


def notices_subscribe() -> None:
    """Tell the open pages of every store event they show (the app does it when it starts)."""
    event_subscribe(kind=SeatRevoked, handler=_seat_revoked)
    event_subscribe(kind=SeatNextGame, handler=_seat_next_game)
    event_subscribe(kind=TeacherAccessChanged, handler=_teacher_access_changed)
    event_subscribe(kind=LobbyChanged, handler=_lobby_changed)
    event_subscribe(kind=PresenceChanged, handler=_presence_changed)
    event_subscribe(kind=LiveSkillsChanged, handler=_live_skills_changed)
    event_subscribe(kind=StandingsChanged, handler=_standings_changed)


def _send(group: str, message_type: str, data: Mapping[str, Any] | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    message = {**(data or {}), "type": message_type}
    loop = _calling_loop()
    if loop is None:
        async_to_sync(layer.group_send)(group, message)
        return
    # Called from sync code a running event loop handed work to (a view, a socket's database
    # call): hand the send to that loop and go on. Waiting for it would hold this thread
    # (for sockets, the one thread all their database calls share) until the busy loop got
    # round to it; the notice says only "look again", so it need not be sent yet.
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), loop)
    future.add_done_callback(_log_failure)


def _calling_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop whose ``sync_to_async`` runs this thread's code, if it still runs."""
    local = SyncToAsync.threadlocal
    if getattr(local, "main_event_loop_pid", None) != os.getpid():
        return None
    loop: asyncio.AbstractEventLoop | None = getattr(local, "main_event_loop", None)
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def _log_failure(future: concurrent.futures.Future[None]) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("a page notice was not sent", exc_info=future.exception())
