"""Tell every open page of a session that its lobby changed, once the change is committed.

Each page's socket then renders its own fragment (console, projector, or one seat's lobby) in
its own language; see ``classroom.live.fragments``.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from collections.abc import Mapping


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


def standings_group(session_id: int) -> str:
    """The session's game sockets that draw points and ranks (see ``classroom.live.standings``)."""
    return f"session-{session_id}-standings"


def seat_revoked(*, seat_id: int, reason: str = "removed") -> None:
    """Tell the seat's game sockets (after commit) that it was removed or taken over, or
    (``reason``) why else their token stopped working."""
    transaction.on_commit(partial(_send, seat_group(seat_id), "seat.revoked", {"reason": reason}))


def seat_next_game(*, seat_id: int) -> None:
    """Tell the seat's game sockets (after commit) that its table deals a new game: the tablet
    loads it (Play again on the console; no code to type)."""
    transaction.on_commit(partial(_send, seat_group(seat_id), "seat.next_game"))


def teacher_access_changed(*, teacher_id: int) -> None:
    """Tell the teacher's open pages (after commit) that what they may see changed (a class
    share was revoked): each looks again whether it may still watch its session."""
    transaction.on_commit(partial(_send, teacher_group(teacher_id), "teacher.access_changed"))


def lobby_changed(*, session_id: int) -> None:
    """Schedule a push after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_send, session_group(session_id), "lobby.changed"))


def standings_changed(*, session_id: int, standings: Mapping[str, Any]) -> None:
    """Tell the session's game sockets (after commit) what they may show of points and ranks."""
    transaction.on_commit(
        partial(_send, standings_group(session_id), "session.standings", dict(standings))
    )


def _send(group: str, message_type: str, data: Mapping[str, Any] | None = None) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(group, {**(data or {}), "type": message_type})
