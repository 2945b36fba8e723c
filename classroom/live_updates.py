"""Tell every open page of a session that its lobby changed, once the change is committed.

Each page's socket then renders its own fragment (console, projector, or one seat's lobby) in
its own language; see ``classroom.live_fragments``.
"""

from __future__ import annotations

from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def session_group(session_id: int) -> str:
    """Every open page of the session: lobby changes concern them all."""
    return f"session-{session_id}"


def teachers_group(session_id: int) -> str:
    """The session's teacher pages only: table moves would only wake the tablets for nothing."""
    return f"session-{session_id}-teachers"


def seat_group(seat_id: int) -> str:
    """The game sockets of one seat: told when the seat stops being theirs."""
    return f"seat-{seat_id}"


def seat_revoked(*, seat_id: int) -> None:
    """Tell the seat's game sockets (after commit) that it was removed or taken over."""
    transaction.on_commit(partial(_send, seat_group(seat_id), "seat.revoked"))


def lobby_changed(*, session_id: int) -> None:
    """Schedule a push after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_send, session_group(session_id), "lobby.changed"))


def _send(group: str, message_type: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(group, {"type": message_type})
