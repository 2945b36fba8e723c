"""A tablet's socket at a playing table, and a teacher page watching one: JSON frames to and
from the table host."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import msgspec
from channels.db import database_sync_to_async
from django.utils import translation
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from django.utils.functional import _StrOrPromise as StrOrPromise

from classroom.hosting import table_hosts
from classroom.hosting.idle import idle_watch_ensure
from classroom.pages.notify import (
    seat_group,
    standings_group,
    teacher_group,
)
from classroom.people.languages import language_from_scope
from classroom.people.seat_cookies import seat_cookie_name
from classroom.selectors.sockets import (
    seat_playing_find,
    seat_token_valid,
    table_visible_to,
)
from classroom.server.heartbeat import heartbeat_ensure
from classroom.services.presence import seat_connection_close, seat_connection_open
from classroom.sockets.base import (
    FLOOD_COOLDOWN,
    Socket,
    heartbeat_for,
    query_params,
)
from classroom.sockets.close_codes import CloseCode
from games.live.flood import TokenBucket
from games.live.host import TableHost, wall_ms
from games.live.protocol import (
    Act,
    ErrorFrame,
    StandingsFrame,
    Sync,
    action_for_engine,
    server_frame_encode,
)
from games.live.round_trip import RoundTrip

logger = logging.getLogger(__name__)

REPLACED = gettext_lazy("This seat was opened on another tablet.")

NO_SEAT = gettext_lazy("This tablet is not in the session any more. Please join again.")
NOT_PLAYING = gettext_lazy("Your table is not playing right now.")
REMOVED = gettext_lazy("Your teacher removed you from this session.")
# Why else a seat's token stopped working (classroom.services.practice_access).
REVOKED = {
    "badge_replaced": gettext_lazy(
        "Your badge was replaced, so this tablet is signed out. Scan your new badge."
    ),
    "practice_closed": gettext_lazy(
        "Practice with the class code has ended. Scan your badge, or ask your teacher."
    ),
    "class_deleted": gettext_lazy(
        "Your class was deleted, so this tablet is signed out. Ask your teacher."
    ),
}
NOT_YOUR_TABLE = gettext_lazy("Only the teachers of the session can watch its tables.")
WATCH_NOT_PLAYING = gettext_lazy("This table is not playing right now.")


class _SocketListener:
    """How a table host reaches one socket of its table in this process."""

    def __init__(self, seat: int | None, consumer: TableSocket) -> None:
        self.seat: int | None = seat
        self._consumer = consumer
        self._language = language_from_scope(consumer.scope)

    @property
    def reply_to(self) -> str:
        """Where a host in another process sends this socket its own answers."""
        return str(self._consumer.channel_name)

    async def close(self, code: int) -> None:
        await self._consumer.close(code=code)

    async def deliver(self, frame: str) -> None:
        if self._consumer.closed_here:
            return  # closing: the socket takes nothing more
        if frame.startswith('{"type":"error"'):
            frame = self._translated(frame)
        try:
            await self._consumer.send(text_data=frame)
        except Exception:
            # The socket is closing and its disconnect has not been handled yet (Daphne raises
            # on a socket in its closing handshake). The host awaits this for its own answers
            # too: one socket going away must never stop the table for the others.
            logger.debug("dropped a frame for a closing socket", exc_info=True)

    def _translated(self, frame: str) -> str:
        # Engines speak English (marked with gettext_noop); the child reads their language.
        error = msgspec.json.decode(frame, type=ErrorFrame)
        with translation.override(self._language):
            error.message = translation.gettext(error.message)
        return server_frame_encode(error)


class TableSocket(Socket):
    """A page at a live table: frames relayed between the socket and the table host.

    The page is held to the heartbeat if it asks: the server probes it every 2 s, its answers
    are its sign of life, and a tablet's also time the round trip its reaction times are
    judged by.
    """

    host: table_hosts.TableHandle | None = None
    listener: _SocketListener | None = None
    # The round trip to this page as the server times it (a page held to the heartbeat).
    round_trip: RoundTrip | None = None
    # A host that stops sends the page to reconnect, and so to its next host; a tablet keeps
    # the last view of a game that ended instead.
    keeps_an_ended_game = False

    async def _refuse(self, code: str, message: StrOrPromise, close_code: int) -> None:
        with translation.override(language_from_scope(self.scope)):
            frame = ErrorFrame(code=code, message=str(message))
        await self.send(text_data=server_frame_encode(frame))
        await self.close(code=close_code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        decoded = await self.frame_take(text_data, bytes_data)
        if decoded is None or self.host is None or self.listener is None:
            return
        if isinstance(decoded, Sync):
            self.host.resync(self.listener)
        elif isinstance(decoded, Act):
            # The server's own round trip, never the tablet's (games.live.round_trip).
            server_rtt = self.round_trip.estimate_ms() if self.round_trip is not None else 0
            action = action_for_engine(decoded.action, server_rtt_ms=server_rtt)
            self.host.submit(self.listener, decoded.seq, action, decoded.cid)

    async def pinged(self, seq: int) -> None:
        # A tablet's ping answers the server's probe, or is its own (it heard nothing for a
        # while): answered with a pong.
        if self.round_trip is not None and self.round_trip.echoed(seq, wall_ms()):
            return
        await super().pinged(seq)

    def _heartbeat_keep(self) -> None:
        # A table page held to the heartbeat: the server probes it every 2 s and its answers
        # are its sign of life; a tablet's also time the round trip its reaction times are
        # judged by. Called once the socket has joined its table: until then its frames wait
        # unread (a socket handles one message at a time, and joining waits on the database,
        # seconds when a class joins a busy school), and silence counted from the handshake
        # would close tablets that are answering.
        self.watchdog = heartbeat_for(self.scope, self._silent, beat=self._probe)
        if self.watchdog is not None:
            self.round_trip = RoundTrip()

    async def _probe(self) -> None:
        if self.round_trip is None or self.closed_here:
            return
        await self.send_unanswered(self.round_trip.probe(wall_ms()), what="a probe")

    async def _silent(self) -> None:
        await self.close(code=CloseCode.SILENT)

    def _host_stopped(self) -> None:
        if self.host is not None and not (self.keeps_an_ended_game and self.host.ended):
            self._closing = asyncio.ensure_future(self.close(code=CloseCode.SERVICE_RESTART))

    async def table_reply(self, event: dict[str, Any]) -> None:
        """The answer to this socket's own input from a host in another process."""
        if self.listener is not None:
            await self.listener.deliver(event["frame"])

    async def disconnect(self, code: int) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.host is not None and self.listener is not None:
            self.host.forget_on_stop(self._host_stopped)
            self.host.leave(self.listener)
            if isinstance(self.host, TableHost):
                table_hosts.registry.listener_left(self.host)


class TableConsumer(TableSocket):
    """A tablet at a playing table, authenticated by the seat token in its cookie."""

    keeps_an_ended_game = True
    seat_id: int | None = None
    # The group telling this page what it may show of points and ranks, if it asked.
    standings_group: str | None = None
    token = ""
    # This socket's number among the seat's sockets (``seat_connection_open``), once it has one.
    opened_as: int | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        token = self.scope.get("cookies", {}).get(seat_cookie_name(code), "")
        self.token = token
        self.bucket = TokenBucket()
        if token and FLOOD_COOLDOWN.active(token, wall_ms()):
            # Closed for flooding moments ago and straight back: refused before any lookup.
            await self.accept()
            await self.close(code=CloseCode.POLICY)
            return
        found = await database_sync_to_async(seat_playing_find)(code=code, token=token)
        await self.accept()
        if found is None:
            await self._refuse("no_seat", NO_SEAT, CloseCode.NO_SEAT)
            return
        self.seat_id = found.seat_id
        heartbeat_ensure()
        idle_watch_ensure()
        if _page_game_number(self.scope) not in (None, found.game_number):
            # A page of the game before (Play again came while this tablet was away).
            await self.close(code=CloseCode.NEXT_GAME)
            return
        host = await table_hosts.table_handle(found.table_id)
        if host is None:
            await self._refuse("not_playing", NOT_PLAYING, CloseCode.NOT_PLAYING)
            return
        self.host = host
        self.listener = _SocketListener(found.seat_index, self)
        await self.channel_layer.group_add(seat_group(self.seat_id), self.channel_name)
        if _wants_standings(self.scope):
            # Before the first view, so the page knows what it may show when it draws it.
            self.standings_group = standings_group(found.session_id)
            await self.channel_layer.group_add(self.standings_group, self.channel_name)
            await self.send(text_data=server_frame_encode(StandingsFrame(**found.standings)))
        self.opened_as = await database_sync_to_async(seat_connection_open)(
            seat_id=found.seat_id, session_id=found.session_id, channel_name=self.channel_name
        )
        # One seat, one live socket: older sockets of this seat, on any process, close (each
        # is in the seat's group already, since it joined before it took its number).
        opened = {"type": "seat.opened", "channel": self.channel_name, "order": self.opened_as}
        await self.channel_layer.group_send(seat_group(self.seat_id), opened)
        host.on_stop(self._host_stopped)
        await host.join(self.listener)
        self._heartbeat_keep()

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        if self.standings_group is not None:
            await self.channel_layer.group_discard(self.standings_group, self.channel_name)
        if self.seat_id is not None:
            await self.channel_layer.group_discard(seat_group(self.seat_id), self.channel_name)
            await database_sync_to_async(seat_connection_close)(channel_name=self.channel_name)

    async def flooded(self) -> None:
        if self.token:
            FLOOD_COOLDOWN.start(self.token, wall_ms())
        await super().flooded()

    async def _silent(self) -> None:
        await _presence_gone(self.seat_id, self.channel_name)
        await super()._silent()

    async def session_standings(self, event: dict[str, Any]) -> None:
        """The teacher changed the leaderboard or scoring control
        (classroom.selectors.standings)."""
        if self.closed_here:
            return
        frame = StandingsFrame(
            leaderboard=str(event["leaderboard"]),
            scoring=bool(event["scoring"]),
            sound=bool(event.get("sound", False)),
        )
        await self.send(text_data=server_frame_encode(frame))

    async def seat_next_game(self, event: dict[str, Any]) -> None:
        """Play again: the seat's table deals a new game; the tablet loads it."""
        if not self.closed_here:
            await self.close(code=CloseCode.NEXT_GAME)

    async def seat_opened(self, event: dict[str, Any]) -> None:
        """Another socket took this seat; the newer one stays (see ``connect``)."""
        if event["channel"] == self.channel_name or self.closed_here:
            return
        if self.opened_as is not None and int(event["order"]) > self.opened_as:
            await self._refuse("replaced", REPLACED, CloseCode.REPLACED)

    async def seat_revoked(self, event: dict[str, Any]) -> None:
        # Removed by the teacher (or the seat taken over on another tablet): stop at once.
        if self.seat_id is not None and not await database_sync_to_async(_seat_still_valid)(
            self.seat_id, self.scope
        ):
            reason = str(event.get("reason", "removed"))
            if reason in REVOKED:
                await self._refuse(reason, REVOKED[reason], CloseCode.FORBIDDEN)
            else:
                await self._refuse("removed", REMOVED, CloseCode.FORBIDDEN)


class TableWatchConsumer(TableSocket):
    """A teacher page watching one live table: the projector's and console's moving ship.

    It listens as no seat (the public view) and never starts a host: a table runs for its
    tablets. When the host stops, the page is told to reconnect (4012) and finds the next one.
    """

    watched: tuple[int, int]  # (session id, table id)
    # The watching teacher's group (``teacher_access_changed``), once let in.
    access_group: str | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        session_id, table_id = int(kwargs["session_id"]), int(kwargs["table_id"])
        self.bucket = TokenBucket()
        self.watched = (session_id, table_id)
        may_watch = await database_sync_to_async(self._may_watch)()
        await self.accept()
        if not may_watch:
            await self._refuse("forbidden", NOT_YOUR_TABLE, CloseCode.FORBIDDEN)
            return
        self.access_group = teacher_group(self.scope["user"].pk)
        await self.channel_layer.group_add(self.access_group, self.channel_name)
        host = await table_hosts.table_watch_handle(table_id)
        if host is None:
            await self._refuse("not_playing", WATCH_NOT_PLAYING, CloseCode.NOT_PLAYING)
            return
        self.host = host
        self.listener = _SocketListener(None, self)
        host.on_stop(self._host_stopped)
        await host.join(self.listener)
        self._heartbeat_keep()

    def _may_watch(self) -> bool:
        session_id, table_id = self.watched
        return table_visible_to(
            session_id=session_id, table_id=table_id, user=self.scope.get("user")
        )

    async def teacher_access_changed(self, event: dict[str, Any]) -> None:
        """A class share of this teacher was revoked: a table they may no longer see closes."""
        if not self.closed_here and not await database_sync_to_async(self._may_watch)():
            await self._refuse("forbidden", NOT_YOUR_TABLE, CloseCode.FORBIDDEN)

    async def disconnect(self, code: int) -> None:
        if self.access_group is not None:
            await self.channel_layer.group_discard(self.access_group, self.channel_name)
        await super().disconnect(code)


def _page_game_number(scope: dict[str, Any]) -> int | None:
    """The game the tablet's page was drawn for (``?game=``), if it says."""
    raw = query_params(scope).get("game", [""])[0]
    return int(raw) if raw.isdigit() and len(raw) < 6 else None


def _wants_standings(scope: dict[str, Any]) -> bool:
    # Game pages ask (?standings=1); bots and benchmarks get game frames only.
    return "1" in query_params(scope).get("standings", [])


async def _presence_gone(seat_id: int | None, channel_name: str) -> None:
    # A silent tablet is gone now: the console says so at once, not after the closing
    # handshake that a dead link never answers (Daphne waits a second for it). The disconnect
    # that follows finds nothing left to close.
    if seat_id is not None:
        await database_sync_to_async(seat_connection_close)(channel_name=channel_name)


def _seat_still_valid(seat_id: int, scope: dict[str, Any]) -> bool:
    code = scope["url_route"]["kwargs"]["code"]
    token = scope.get("cookies", {}).get(seat_cookie_name(code), "")
    return seat_token_valid(seat_id=seat_id, token=token)
