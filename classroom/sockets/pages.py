"""WebSocket consumers: authenticate, validate frames, forward, relay. Nothing else.

Lobby state lives in the database. When it changes, ``classroom.pages.notify`` tells the
session's group; each socket then renders its own page's fragment (see
``classroom.pages.fragments``) and sends it for htmx to swap in.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.utils import translation

if TYPE_CHECKING:
    from collections.abc import Callable


from classroom.hosting import table_hosts
from classroom.hosting.idle import idle_watch_ensure
from classroom.pages import fragments
from classroom.pages.code_sessions import code_session_hint, code_session_remember
from classroom.pages.notify import (
    session_group,
    teacher_group,
    teachers_group,
)
from classroom.pages.page_drawing import teacher_page_draw, teacher_page_forget
from classroom.pages.page_draws import DrawAsk, Page
from classroom.pages.render_budget import teacher_render_budget
from classroom.people.languages import language_from_scope
from classroom.people.seat_cookies import seat_cookie_name
from classroom.selectors.sessions import session_table_ids
from classroom.selectors.sockets import (
    seat_find_by_token,
    session_visible_to,
)
from classroom.server.heartbeat import heartbeat_ensure
from classroom.server.lobby_thread import lobby_database_call
from classroom.services.presence import seat_connection_close, seat_connection_open
from classroom.sockets.base import _heartbeat_for, _Socket
from classroom.sockets.close_codes import CloseCode
from classroom.web.rate_limits import (
    join_code_guesses_exhausted_for_scope,
    join_code_miss_count_for_scope,
)

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

# The least time between two renders of one lobby, console or projector socket while
# changes keep coming (the first change of a quiet spell renders at once).
LOBBY_RENDER_GAP_S = 0.25
# The same for the teacher's console and the projector (the first change after a quiet
# spell is still drawn at once).
TEACHER_RENDER_GAP_S = 1.0
# The least time between two renders of the console's live skills (every trial of the
# session is read for them) while the tables keep changing.
DASHBOARD_GAP_S = 2.0


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
        await self.close(code=CloseCode.SILENT)

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
    # (the draws keep their last reads of it: ``classroom.pages.lobby_reads``).
    _lobby_changed = True

    def gather(self) -> None:
        # Game state lives in the table hosts: those in this event loop (this session's
        # only), and the latest view each host in another process sent with its change.
        local = table_hosts.registry.teacher_views(self.table_ids)
        self.views = {**self.remote_views, **local}

    async def draw(self) -> tuple[str, int | None, float]:
        # Drawn apart from the sockets (``classroom.pages.page_drawing``), from plain data:
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
            await self.refuse(CloseCode.FORBIDDEN)
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
            await self.close(code=CloseCode.FORBIDDEN)


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
            await self.close(code=CloseCode.NO_SEAT)
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
