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
    return f"session-{session_id}"


def lobby_changed(*, session_id: int) -> None:
    """Schedule a push after the current transaction commits (at once outside one)."""
    transaction.on_commit(partial(_notify, session_id))


def _notify(session_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(session_group(session_id), {"type": "lobby.changed"})
