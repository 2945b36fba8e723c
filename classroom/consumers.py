"""WebSocket consumers: authenticate, validate frames, forward, relay. Nothing else.

Lobby state lives in the database. When it changes, ``classroom.live.notify`` tells the
session's group; each socket then renders its own page's fragment (see
``classroom.live.fragments``) and sends it for htmx to swap in.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar
from urllib.parse import parse_qs

import msgspec
from autobahn.exception import Disconnected
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation
from django.utils.translation import gettext_lazy

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from django.utils.functional import _StrOrPromise as StrOrPromise

from classroom.live import fragments, hosting
from classroom.live.code_sessions import code_session_hint, code_session_remember
from classroom.live.idle import idle_watch_ensure
from classroom.live.notify import (
    seat_group,
    session_group,
    standings_group,
    teacher_group,
    teachers_group,
)
from classroom.live.page_draws import DrawAsk, Page
from classroom.live.render_budget import teacher_render_budget
from classroom.people.languages import language_from_scope
from classroom.people.seat_cookies import seat_cookie_name
from classroom.selectors.sessions import session_table_ids
from classroom.selectors.sockets import (
    seat_find_by_token,
    seat_playing_find,
    seat_token_valid,
    session_visible_to,
    table_visible_to,
)
from classroom.server import metrics
from classroom.server.lobby_thread import lobby_database_call
from classroom.server.outages import OutageCalmSocket
from classroom.server.page_drawing import teacher_page_draw, teacher_page_forget
from classroom.server.process import heartbeat_ensure
from classroom.services.presence import seat_connection_close, seat_connection_open
from classroom.web.rate_limits import (
    join_code_guesses_exhausted_for_scope,
    join_code_miss_count_for_scope,
)
from games.live.flood import Cooldown, TokenBucket
from games.live.heartbeat import SilenceWatchdog
from games.live.host import TableHost, wall_ms
from games.live.protocol import (
    Act,
    ClientFrame,
    ErrorFrame,
    Ping,
    Pong,
    ProtocolError,
    StandingsFrame,
    Sync,
    action_for_engine,
    client_frame_decode,
    server_frame_encode,
)
from games.live.round_trip import PROBE_EVERY_MS, RoundTrip

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

CLOSE_FORBIDDEN = 4403
# The least time between two renders of one lobby, console or projector socket while
# changes keep coming (the first change of a quiet spell renders at once).
LOBBY_RENDER_GAP_S = 0.25
# The same for the teacher's console and the projector (the first change after a quiet
# spell is still drawn at once).
TEACHER_RENDER_GAP_S = 1.0
# The least time between two renders of the console's live skills (every trial of the
# session is read for them) while the tables keep changing.
DASHBOARD_GAP_S = 2.0


class _Socket(OutageCalmSocket, AsyncWebsocketConsumer):
    """What every socket here does alike with an incoming frame: the heartbeat hears it, the
    flood limit meters it, garbage is answered with an error and a ping with a pong."""

    # Set once this side has closed the socket. Until the browser answers the close (and the
    # disconnect arrives) frames may still come in: none of them is read or answered.
    closed_here = False
    watchdog: SilenceWatchdog | None = None
    bucket: TokenBucket | None = None

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        self.closed_here = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Channels' own, without the ``aclose_old_connections()`` it runs before every
        handler since 4.2.

        That call queues ``close_old_connections`` on the one thread every
        ``database_sync_to_async`` call shares, so each message a socket handled (a slap, a
        ping, a table's move) waited behind the teacher pages' renders there. The game
        sockets had skipped it already; the lobby and teacher pages had not, and under a
        school's load (``make bench-capacity``, about 700 students) a console's handshake
        took over 5 s, and teacher pages fell more than a minute behind their channel, whose
        expired messages made the in-memory layer drop them from every group: frozen, with
        nothing said. Every database call of these sockets goes through
        ``database_sync_to_async``, which closes old connections itself, in that thread,
        before and after the call.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def frame_take(
        self, text_data: str | None, bytes_data: bytes | None
    ) -> ClientFrame | None:
        """The frame for this socket to act on, or None when it was answered here."""
        if self.closed_here:
            return None  # e.g. a flood closed with 4008: tokens refilled since must not reopen it
        if self.watchdog is not None:
            self.watchdog.heard()
        if self.bucket is None:
            self.bucket = TokenBucket()
        if not self.bucket.take(wall_ms()):
            if self.bucket.strikes >= FLOOD_STRIKES_TO_CLOSE:
                await self.flooded()
                return None
            frame = ErrorFrame(code="slow_down", message="Too many messages. Slow down a little.")
            await self.send(text_data=server_frame_encode(frame))
            return None
        try:
            decoded = client_frame_decode(text_data if text_data is not None else bytes_data)
        except ProtocolError as error:
            await self.send(text_data=server_frame_encode(error.frame()))
            return None
        if isinstance(decoded, Ping):
            await self.pinged(decoded.seq)
            return None
        return decoded

    async def pinged(self, seq: int) -> None:
        await self.send_unanswered(server_frame_encode(Pong(seq=seq)), what="a pong")

    async def send_unanswered(self, text_data: str, *, what: str) -> bool:
        """Send a frame nothing waits on (a pong, a probe, a page); False when the socket was
        closing. Daphne raises on a socket in its closing handshake until its disconnect is
        handled, and a goodbye is no fault worth a traceback in the server's log."""
        try:
            await self.send(text_data=text_data)
        except Disconnected:
            logger.debug("dropped %s for a closing socket", what, exc_info=True)
            return False
        return True

    async def flooded(self) -> None:
        """Sustained flooding: the socket is closed (a tablet's is also kept out a while)."""
        metrics.flood_cutoff(self.scope["path"])
        await self.close(code=CLOSE_POLICY)


class _LobbyConsumer(_Socket):
    """Joins the session's group and keeps one page fragment fresh."""

    session_id: int
    language: str
    views: dict[int, dict[str, Any]]
    _push_task: asyncio.Task[None] | None = None
    _dirty = False
    _sent_html: str | None = None
    _rendered_at = float("-inf")  # loop time the last render began
    # htmx reconnects a lobby socket only on 1006/1011-1013 (classroom.server.outages).
    try_again_code = None
    render_gap_s = LOBBY_RENDER_GAP_S

    # A channel layer can drop a socket from its groups: the in-memory one when a message
    # waited in its channel past the layer's expiry (60 s), Redis after its group expiry. The
    # page would then hear of no change again, with nothing said. Every page pings every
    # 2 s: on a ping this long after the last join, the socket joins again and draws its
    # page again, so a page that was dropped catches up by itself.
    rejoin_every_s = 15.0
    _joined_at = float("-inf")  # loop time of the last join

    def group_names(self, session_id: int) -> list[str]:
        return [session_group(session_id)]

    async def join_session(self, session_id: int) -> None:
        await self._enter(session_id)
        await self._go_live()

    async def _go_live(self, *, drawn: str | None = None, drawn_at: float = 0.0) -> None:
        """Accept, and show the page: ``drawn`` (begun at loop time ``drawn_at``, after the
        groups were joined), or a render now."""
        await self.accept()
        self.watchdog = _heartbeat_for(self.scope, self._silent)
        if drawn is None:
            await self.lobby_changed({})
            return
        self._rendered_at = drawn_at
        self._sent_html = drawn
        await self.send(text_data=drawn)

    async def _enter(self, session_id: int) -> None:
        """Be told of the session's changes from now on (before its page is first read)."""
        heartbeat_ensure()
        idle_watch_ensure()
        self.session_id = session_id
        self.language = language_from_scope(self.scope)
        await self._join_groups()

    async def _leave_groups(self) -> None:
        for group in self.group_names(self.session_id):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _join_groups(self) -> None:
        self._joined_at = asyncio.get_running_loop().time()
        for group in self.group_names(self.session_id):
            await self.channel_layer.group_add(group, self.channel_name)

    async def pinged(self, seq: int) -> None:
        await super().pinged(seq)
        if getattr(self, "session_id", None) is None or self.closed_here:
            return
        if asyncio.get_running_loop().time() - self._joined_at >= self.rejoin_every_s:
            await self._join_groups()
            await self.lobby_changed({})  # what a dropped page missed, drawn

    async def refuse(self, code: int) -> None:
        # Accept first: a refused handshake reaches the browser as 1006, which htmx retries
        # forever; an application close code tells the page to stop.
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "session_id", None) is not None:
            await self._leave_groups()
        if self._push_task is not None:
            self._push_task.cancel()
        if self.watchdog is not None:
            self.watchdog.stop()

    async def _silent(self) -> None:
        await self.close(code=CLOSE_SILENT)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # These pages only ping; a socket that floods is slowed, then closed like a tablet's.
        await self.frame_take(text_data, bytes_data)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        if not self.concerns(event):
            return
        self.redraw()

    async def table_changed(self, event: dict[str, Any]) -> None:
        await self.lobby_changed(event)

    def redraw(self) -> None:
        # Coalesce bursts (a whole class joining): at most one render in flight, one queued.
        self._dirty = True
        if self._push_task is None or self._push_task.done():
            self._push_task = asyncio.create_task(self._push_while_dirty())

    async def _push_while_dirty(self) -> None:
        loop = asyncio.get_running_loop()
        while self._dirty:
            # At most one render per gap: a burst (a class joining at once, tables flipping)
            # would render every socket of the session once per change, all on the one
            # thread that also answers the joins. Changes that come meanwhile are shown
            # together; the first change after a quiet spell is drawn at once.
            now = loop.time()
            wait = self._rendered_at + self.render_gap(now) - now
            if wait > 0:
                await asyncio.sleep(wait)
            self._dirty = False
            self._rendered_at = loop.time()
            self.gather()
            html, close_code, cpu_s = await self.draw()
            self.render_spent(cpu_s, loop.time())
            if html != self._sent_html:
                if not await self.send_unanswered(html, what="a page"):
                    return  # closed while it was drawn: nobody to push to any more
                self._sent_html = html
            if close_code is not None:
                await self.close(code=close_code)
                return
            self.after_render()

    async def database_call(self, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run a sync database call off the event loop, on the thread the page's calls use."""
        result: R = await database_sync_to_async(call)(*args, **kwargs)
        return result

    async def draw(self) -> tuple[str, int | None, float]:
        """The page drawn now (after ``gather``): its HTML, a close code, the CPU it took."""
        return await self.database_call(self._render_timed)

    def render_gap(self, now: float) -> float:
        """The least time between two renders now."""
        return self.render_gap_s

    def render_spent(self, cpu_s: float, now: float) -> None:
        """A render took ``cpu_s`` of its thread's CPU."""

    def concerns(self, event: dict[str, Any]) -> bool:
        """Does this change show on this socket's page?"""
        return True

    def after_render(self) -> None:
        """What a render read that the next one needs (it ran in a thread)."""

    def gather(self) -> None:
        """Read what the render needs from this event loop (it then runs in a thread)."""

    def _render_timed(self) -> tuple[str, int | None, float]:
        began = time.thread_time()
        html, close_code = self._render_in_language()
        return html, close_code, time.thread_time() - began

    def _render_in_language(self) -> tuple[str, int | None]:
        with translation.override(self.language):
            return self.render()

    def render(self) -> tuple[str, int | None]:
        raise NotImplementedError


class _TeacherConsumer(_LobbyConsumer):
    # While tables play they change every few hundred ms, and a console render costs ~25 ms
    # of CPU (the projector's ~7): at most once a second, and less often while the process's
    # teacher pages use more than their budget.
    render_gap_s = TEACHER_RENDER_GAP_S

    def render_gap(self, now: float) -> float:
        return self.render_gap_s * teacher_render_budget.stretch(now=now)

    def render_spent(self, cpu_s: float, now: float) -> None:
        teacher_render_budget.spend(cpu_s=cpu_s, now=now)

    def group_names(self, session_id: int) -> list[str]:
        # The teacher's own group too: told when a class share of theirs is revoked. (Only
        # a signed-in teacher who may see the session gets this far: see ``connect``.)
        user_id = self.scope["user"].pk
        return [session_group(session_id), teachers_group(session_id), teacher_group(user_id)]

    remote_views: dict[int, dict[str, Any]]
    page: Page
    with_dashboard = False  # the draw in progress draws the console's live skills

    # The session's tables (the views this page asks the hosts for), as last read.
    table_ids: set[int]
    _table_ids_read: set[int] | None = None
    # A lobby change came since the last draw was asked for: the next reads the lobby again
    # (the draws keep their last reads of it: ``classroom.live.lobby_reads``).
    _lobby_changed = True

    def gather(self) -> None:
        # Game state lives in the table hosts: those in this event loop (this session's
        # only), and the latest view each host in another process sent with its change.
        local = hosting.registry.teacher_views(self.table_ids)
        self.views = {**self.remote_views, **local}

    async def draw(self) -> tuple[str, int | None, float]:
        # Drawn apart from the sockets (``classroom.server.page_drawing``), from plain data:
        # what the draws keep between them (parts, lobby reads, live skills) is found there
        # by this socket's name.
        ask = DrawAsk(
            socket=self.channel_name,
            page=self.page,
            session_id=self.session_id,
            language=self.language,
            views=self.views,
            dashboard=self.with_dashboard,
            lobby_changed=self._lobby_changed,
        )
        self._lobby_changed = False
        try:
            drawn = await teacher_page_draw(ask)
        except BaseException:
            self._lobby_changed = ask.lobby_changed or self._lobby_changed
            raise
        self._table_ids_read = drawn.table_ids
        return drawn.html, None, drawn.cpu_s

    def after_render(self) -> None:
        # New tables (the start, a late joiner's, Play again): draw again with their views.
        if self._table_ids_read is not None and self._table_ids_read != self.table_ids:
            self.table_ids = self._table_ids_read
            self._lobby_changed = True
            self._dirty = True

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        self._lobby_changed = True
        await super().lobby_changed(event)

    async def disconnect(self, code: int) -> None:
        await super().disconnect(code)
        teacher_page_forget(self.channel_name)

    async def table_changed(self, event: dict[str, Any]) -> None:
        # A table moved: its tile is drawn again; the lobby as last read still holds.
        for table_id, view in event.get("views", {}).items():
            self.remote_views[int(table_id)] = view
        self.table_ids.update(int(table_id) for table_id in event.get("table_ids", []))
        self.redraw()

    async def connect(self) -> None:
        self.remote_views = {}
        self.table_ids = set()
        session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        owned = await database_sync_to_async(self._owned_tables)(session_id)
        if owned is None:
            await self.refuse(CLOSE_FORBIDDEN)
            return
        self.table_ids = owned
        await self.join_session(session_id)

    def _may_watch(self, session_id: int) -> bool:
        return session_visible_to(session_id=session_id, user=self.scope.get("user"))

    def _owned_tables(self, session_id: int) -> set[int] | None:
        """The session's tables, if this teacher may watch the session."""
        if not self._may_watch(session_id):
            return None
        return session_table_ids(session_id=session_id)

    async def teacher_access_changed(self, event: dict[str, Any]) -> None:
        """A class share of this teacher was revoked: a page they may no longer see closes."""
        if not self.closed_here and not await database_sync_to_async(self._may_watch)(
            self.session_id
        ):
            await self.close(code=CLOSE_FORBIDDEN)


class ConsoleConsumer(_TeacherConsumer):
    """The teacher's console: the tables as they change, the live skills at most every
    DASHBOARD_GAP_S, and once more after the last change of a burst."""

    page = "console"
    _dashboard_at = float("-inf")  # loop time of the last render with the live skills
    _dashboard_task: asyncio.Task[None] | None = None

    def gather(self) -> None:
        super().gather()
        now = asyncio.get_running_loop().time()
        gap = DASHBOARD_GAP_S * teacher_render_budget.stretch(now=now)
        self.with_dashboard = now - self._dashboard_at >= gap
        if self.with_dashboard:
            self._dashboard_at = now
        elif self._dashboard_task is None or self._dashboard_task.done():
            wait = self._dashboard_at + gap - now
            self._dashboard_task = asyncio.create_task(self._dashboard_later(wait))

    async def _dashboard_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.redraw()

    async def disconnect(self, code: int) -> None:
        if self._dashboard_task is not None:
            self._dashboard_task.cancel()
        await super().disconnect(code)


class ProjectorConsumer(_TeacherConsumer):
    page = "projector"


@dataclass(frozen=True)
class _Opened:
    """What a tablet's socket found on opening: its session and seat (None: refused), and
    its first lobby when the session was known beforehand."""

    session_id: int | None = None
    seat_id: int | None = None
    lobby: str | None = None


class SeatConsumer(_LobbyConsumer):
    """A student's tablet, authenticated by the seat token in its cookie."""

    token = ""
    seat_id: int | None = None
    # The table this tablet's lobby last showed (None: none yet, or at no table).
    shown_table_id: int | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.token = self.scope.get("cookies", {}).get(seat_cookie_name(code), "")
        hint = code_session_hint(code)
        if hint is not None:
            # Told of the session's changes before the seat is read and its lobby drawn in
            # the same call: nothing that changes meanwhile is missed.
            await self._enter(hint)
        began = asyncio.get_running_loop().time()
        opened = await self.database_call(self._open, code, hint)
        if opened.session_id is not None:
            code_session_remember(code, opened.session_id)
        if hint is not None and opened.session_id != hint:
            await self._leave_groups()
        if opened.session_id is None:
            # Unknown code, unknown token, or too many of those: all told alike, so the socket
            # says nothing about which codes exist.
            with translation.override(language_from_scope(self.scope)):
                notice = fragments.seat_fragment_render(session_id=0, token="")
            await self.accept()
            await self.send(text_data=notice.html)
            await self.close(code=fragments.CLOSE_NO_SEAT)
            return
        self.seat_id = opened.seat_id
        if opened.lobby is None:
            await self.join_session(opened.session_id)
        else:
            await self._go_live(drawn=opened.lobby, drawn_at=began)

    def _open(self, code: str, hint: int | None) -> _Opened:
        # A code and token with no seat behind them are a miss, limited as on /join.
        if join_code_guesses_exhausted_for_scope(self.scope):
            return _Opened()
        seat = seat_find_by_token(code=code, token=self.token)
        if seat is None:
            join_code_miss_count_for_scope(self.scope)
            return _Opened()
        if seat.is_kicked:
            # Still accepted, to be told why and closed.
            return _Opened(session_id=seat.session_id)
        seat_connection_open(
            seat_id=seat.pk, session_id=seat.session_id, channel_name=self.channel_name
        )
        if seat.session_id != hint:
            return _Opened(session_id=seat.session_id, seat_id=seat.pk)
        with translation.override(self.language):
            fragment = fragments.seat_fragment_of(seat=seat)
        self.shown_table_id = fragment.table_id
        return _Opened(session_id=seat.session_id, seat_id=seat.pk, lobby=fragment.html)

    async def database_call(self, call: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        # A class opens its lobbies at once: they queue on a thread of their own.
        return await lobby_database_call(call, *args, **kwargs)

    async def disconnect(self, code: int) -> None:
        await self._connection_close()
        await super().disconnect(code)

    async def _silent(self) -> None:
        # A silent tablet is gone now (see ``_presence_gone``), on this socket's own thread.
        await self._connection_close()
        await super()._silent()

    async def _connection_close(self) -> None:
        if self.seat_id is not None:
            await self.database_call(seat_connection_close, channel_name=self.channel_name)

    def concerns(self, event: dict[str, Any]) -> bool:
        # A join moves only a few tables' players: the tablets seated elsewhere look the same.
        tables = event.get("tables")
        return tables is None or self.shown_table_id is None or self.shown_table_id in tables

    def render(self) -> tuple[str, int | None]:
        fragment = fragments.seat_fragment_render(session_id=self.session_id, token=self.token)
        self.shown_table_id = fragment.table_id
        return fragment.html, fragment.close_code


# Sustained flooding (this many refused frames on one socket) closes the socket. Daphne's
# WebSocket layer (autobahn) lets an application close only with 1000 or 3000-4999, so the
# protocol codes are mirrored in the application range: 4008 for 1008 (policy violation) and
# 4012 for 1012 (service restart).
FLOOD_STRIKES_TO_CLOSE = 40
CLOSE_POLICY = 4008
# A tablet closed for flooding is refused at once for this long (games.live.flood.Cooldown).
FLOOD_COOLDOWN = Cooldown(seconds=10.0)
CLOSE_NOT_PLAYING = 4404
# The table's host stopped here; a watching page reconnects to whichever host runs next.
CLOSE_SERVICE_RESTART = 4012
# The seat was opened on another tablet (or another tab): the tablet says so and stays put.
CLOSE_REPLACED = 4409
REPLACED = gettext_lazy("This seat was opened on another tablet.")
# A socket held to the heartbeat that went silent (games.live.heartbeat): mirrors 1001.
CLOSE_SILENT = 4001
# The seat's table deals a new game (Play again): the tablet loads the page of its new game.
CLOSE_NEXT_GAME = 4100
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
}
NOT_YOUR_TABLE = gettext_lazy("Only the teachers of the session can watch its tables.")
WATCH_NOT_PLAYING = gettext_lazy("This table is not playing right now.")


class _SocketListener:
    """How a table host reaches one socket of its table in this process."""

    def __init__(self, seat: int | None, consumer: TableConsumer) -> None:
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


class TableConsumer(_Socket):
    """A tablet at a playing table: JSON frames to and from the table host."""

    host: hosting.TableHandle | None = None
    listener: _SocketListener | None = None
    seat_id: int | None = None
    # The group telling this page what it may show of points and ranks, if it asked.
    standings_group: str | None = None
    token = ""
    # This socket's number among the seat's sockets (``seat_connection_open``), once it has one.
    opened_as: int | None = None
    # The round trip to this tablet as the server times it (a seat's socket only).
    round_trip: RoundTrip | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        token = self.scope.get("cookies", {}).get(seat_cookie_name(code), "")
        self.token = token
        self.bucket = TokenBucket()
        if token and FLOOD_COOLDOWN.active(token, wall_ms()):
            # Closed for flooding moments ago and straight back: refused before any lookup.
            await self.accept()
            await self.close(code=CLOSE_POLICY)
            return
        found = await database_sync_to_async(seat_playing_find)(code=code, token=token)
        await self.accept()
        self._heartbeat_keep()
        if found is None:
            await self._refuse("no_seat", NO_SEAT, fragments.CLOSE_NO_SEAT)
            return
        self.seat_id = found.seat_id
        heartbeat_ensure()
        idle_watch_ensure()
        if _page_game_number(self.scope) not in (None, found.game_number):
            # A page of the game before (Play again came while this tablet was away).
            await self.close(code=CLOSE_NEXT_GAME)
            return
        host = await hosting.table_handle(found.table_id)
        if host is None:
            await self._refuse("not_playing", NOT_PLAYING, CLOSE_NOT_PLAYING)
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

    def _host_stopped(self) -> None:
        # A finished game keeps its last view on the tablet; a host that stopped for any other
        # reason (taken over, failed) sends the tablet to reconnect, and so to its new host.
        if self.host is not None and not self.host.ended:
            self._closing = asyncio.ensure_future(self.close(code=CLOSE_SERVICE_RESTART))

    async def _refuse(self, code: str, message: StrOrPromise, close_code: int) -> None:
        with translation.override(language_from_scope(self.scope)):
            frame = ErrorFrame(code=code, message=str(message))
        await self.send(text_data=server_frame_encode(frame))
        await self.close(code=close_code)

    async def disconnect(self, code: int) -> None:
        if self.watchdog is not None:
            self.watchdog.stop()
        if self.host is not None and self.listener is not None:
            self.host.forget_on_stop(self._host_stopped)
            self.host.leave(self.listener)
            if isinstance(self.host, TableHost):
                hosting.registry.listener_left(self.host)
        if self.standings_group is not None:
            await self.channel_layer.group_discard(self.standings_group, self.channel_name)
        if self.seat_id is not None:
            await self.channel_layer.group_discard(seat_group(self.seat_id), self.channel_name)
            await database_sync_to_async(seat_connection_close)(channel_name=self.channel_name)

    async def flooded(self) -> None:
        if self.token:
            FLOOD_COOLDOWN.start(self.token, wall_ms())
        await super().flooded()

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
        # judged by.
        self.watchdog = _heartbeat_for(self.scope, self._silent, beat=self._probe)
        if self.watchdog is not None:
            self.round_trip = RoundTrip()

    async def _probe(self) -> None:
        if self.round_trip is None or self.closed_here:
            return
        await self.send_unanswered(self.round_trip.probe(wall_ms()), what="a probe")

    async def _silent(self) -> None:
        await _presence_gone(self.seat_id, self.channel_name)
        await self.close(code=CLOSE_SILENT)

    async def table_reply(self, event: dict[str, Any]) -> None:
        """The answer to this socket's own input from a host in another process."""
        if self.listener is not None:
            await self.listener.deliver(event["frame"])

    async def session_standings(self, event: dict[str, Any]) -> None:
        """The teacher changed the leaderboard or scoring control (classroom.live.standings)."""
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
            await self.close(code=CLOSE_NEXT_GAME)

    async def seat_opened(self, event: dict[str, Any]) -> None:
        """Another socket took this seat; the newer one stays (see ``connect``)."""
        if event["channel"] == self.channel_name or self.closed_here:
            return
        if self.opened_as is not None and int(event["order"]) > self.opened_as:
            await self._refuse("replaced", REPLACED, CLOSE_REPLACED)

    async def seat_revoked(self, event: dict[str, Any]) -> None:
        # Removed by the teacher (or the seat taken over on another tablet): stop at once.
        if self.seat_id is not None and not await database_sync_to_async(_seat_still_valid)(
            self.seat_id, self.scope
        ):
            reason = str(event.get("reason", "removed"))
            if reason in REVOKED:
                await self._refuse(reason, REVOKED[reason], CLOSE_FORBIDDEN)
            else:
                await self._refuse("removed", REMOVED, CLOSE_FORBIDDEN)


class TableWatchConsumer(TableConsumer):
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
        self._heartbeat_keep()
        if not may_watch:
            await self._refuse("forbidden", NOT_YOUR_TABLE, CLOSE_FORBIDDEN)
            return
        self.access_group = teacher_group(self.scope["user"].pk)
        await self.channel_layer.group_add(self.access_group, self.channel_name)
        host = await hosting.table_watch_handle(table_id)
        if host is None:
            await self._refuse("not_playing", WATCH_NOT_PLAYING, CLOSE_NOT_PLAYING)
            return
        self.host = host
        self.listener = _SocketListener(None, self)
        host.on_stop(self._host_stopped)
        await host.join(self.listener)

    def _host_stopped(self) -> None:
        # Even a finished game: the page looks again and finds the next host, or waits.
        self._closing = asyncio.ensure_future(self.close(code=CLOSE_SERVICE_RESTART))

    def _may_watch(self) -> bool:
        session_id, table_id = self.watched
        return table_visible_to(
            session_id=session_id, table_id=table_id, user=self.scope.get("user")
        )

    async def teacher_access_changed(self, event: dict[str, Any]) -> None:
        """A class share of this teacher was revoked: a table they may no longer see closes."""
        if not self.closed_here and not await database_sync_to_async(self._may_watch)():
            await self._refuse("forbidden", NOT_YOUR_TABLE, CLOSE_FORBIDDEN)

    async def disconnect(self, code: int) -> None:
        if self.access_group is not None:
            await self.channel_layer.group_discard(self.access_group, self.channel_name)
        await super().disconnect(code)


def _page_game_number(scope: dict[str, Any]) -> int | None:
    """The game the tablet's page was drawn for (``?game=``), if it says."""
    raw = _query(scope).get("game", [""])[0]
    return int(raw) if raw.isdigit() and len(raw) < 6 else None


def _wants_standings(scope: dict[str, Any]) -> bool:
    # Game pages ask (?standings=1); bots, benchmarks and older pages get game frames only.
    return "1" in _query(scope).get("standings", [])


def _heartbeat_for(
    scope: dict[str, Any],
    on_silent: Callable[[], Awaitable[None]],
    *,
    beat: Callable[[], Awaitable[None]] | None = None,
) -> SilenceWatchdog | None:
    """Held to the heartbeat: closed after 4 s without a frame (games.live.heartbeat), and
    ``beat`` called every PROBE_EVERY_MS.

    Only pages that keep the heartbeat ask for it (?heartbeat=1: table_socket.js, live.js);
    scripts, bots, tests and pages of an older release are left to Daphne's keepalive.
    """
    if "1" not in _query(scope).get("heartbeat", []):
        return None
    watchdog = SilenceWatchdog(on_silent, beat=beat, beat_every_s=PROBE_EVERY_MS / 1000)
    watchdog.arm()
    return watchdog


def _query(scope: dict[str, Any]) -> dict[str, list[str]]:
    return parse_qs(scope.get("query_string", b"").decode("latin-1"))


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
