"""Tell every open page of a session that its lobby changed, once the change is committed.

Each page's socket then renders its own fragment (console, projector, or one seat's lobby) in
its own language; see ``classroom.live.fragments``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    import concurrent.futures
    from collections.abc import Iterable, Mapping


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


def standings_group(session_id: int) -> str:
    """The session's game sockets that draw points and ranks
    (see ``classroom.selectors.standings``)."""
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


def lobby_changed(*, session_id: int, tables: Iterable[int] | None = None) -> None:
    """Schedule a push after the current transaction commits (at once outside one).

    ``tables``: only the players of these tables changed, so only the tablets seated there
    (and the teacher's pages) need to redraw; None when it may concern every tablet.
    """
    data = None if tables is None else {"tables": sorted(tables)}
    transaction.on_commit(partial(_send, session_group(session_id), "lobby.changed", data))


def presence_changed(*, session_id: int) -> None:
    """A tablet connected or left: only the teacher's pages show that (after commit)."""
    transaction.on_commit(partial(_send, teachers_group(session_id), "lobby.changed"))


def standings_changed(*, session_id: int, standings: Mapping[str, Any]) -> None:
    """Tell the session's game sockets (after commit) what they may show of points and ranks."""
    transaction.on_commit(
        partial(_send, standings_group(session_id), "session.standings", dict(standings))
    )


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
