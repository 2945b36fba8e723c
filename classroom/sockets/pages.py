"""The sockets of the live pages: the teacher's console and projector, and a tablet's lobby.

Lobby state lives in the database. When it changes, ``classroom.pages.notify`` tells the
session's group; each socket asks its ``RenderSchedule`` (``classroom.pages.render_schedule``)
for a fresh draw of its own page's fragment, and sends it for htmx to swap in. A socket here
checks who asks, joins the groups, and hands over what it hears: when and how often its page
is drawn is the schedule's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from channels.db import database_sync_to_async
from django.utils import translation

from classroom.hosting import table_hosts
from classroom.hosting.idle import idle_watch_ensure
from classroom.pages import fragments
from classroom.pages.code_sessions import code_session_hint, code_session_remember
from classroom.pages.notify import seat_lobby_group, session_group, teacher_group, teachers_group
from classroom.pages.page_drawing import teacher_page_draw, teacher_page_forget
from classroom.pages.page_draws import DrawAsk, Page
from classroom.pages.render_budget import teacher_render_budget
from classroom.pages.render_pool import render_pool_ensure
from classroom.pages.render_schedule import (
    LOBBY_RENDER_GAP_S,
    TEACHER_RENDER_GAP_S,
    DashboardTimer,
    Drawing,
    Pace,
    RenderSchedule,
)
from classroom.people.languages import language_from_scope
from classroom.people.seat_cookies import seat_cookie_name
from classroom.selectors.sessions import session_table_ids
from classroom.selectors.sockets import seat_find_by_token, session_visible_to
from classroom.server.heartbeat import heartbeat_ensure
from classroom.server.lobby_thread import lobby_database_call
from classroom.services.presence import seat_connection_close, seat_connection_open
from classroom.sockets.base import Socket, heartbeat_for
from classroom.sockets.close_codes import CloseCode
from classroom.web.rate_limits import (
    join_code_guesses_exhausted_for_scope,
    join_code_miss_count_for_scope,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Mapping

logger = logging.getLogger(__name__)


class PageSocket(Socket):
    """Joins the session's groups and keeps one page fresh through its ``schedule``.

    A page socket says which groups it hears (``group_names``), which changes show on its
    page (``concerns``) and how the page is drawn (the ``draw`` its schedule is given).
    """

    session_id: int
    language: str
    schedule: RenderSchedule
    # htmx reconnects a page's socket only on 1006/1011-1013 (classroom.sockets.outage_calm).
    try_again_code = None
    render_gap_s = LOBBY_RENDER_GAP_S

    # A channel layer can drop a socket from its groups: the in-memory one when a message
    # waited in its channel past the layer's expiry (60 s), Redis after its group expiry. The
    # page would then hear of no change again, with nothing said. Every page pings every
    # 2 s: on a ping this long after the last join, the socket joins again and draws its
    # page again, so a page that was dropped catches up by itself.
    rejoin_every_s = 15.0
    _joined_at = float("-inf")  # loop time of the last join

    def schedule_for(self, draw: Callable[[], Awaitable[Drawing]], pace: Pace) -> RenderSchedule:
        """The schedule of this socket's page: it draws with ``draw``, sends and closes here."""
        return RenderSchedule(
            draw=draw,
            push=lambda html: self.send_unanswered(html, what="a page"),
            close=lambda code: self.close(code=code),
            pace=pace,
        )

    def group_names(self, session_id: int) -> list[str]:
        return [session_group(session_id)]

    def concerns(self, event: dict[str, Any]) -> bool:
        """Does this change show on this socket's page?"""
        return True

    async def join_session(self, session_id: int) -> None:
        await self._enter(session_id)
        await self._go_live()

    async def _go_live(self, *, drawn: str | None = None, drawn_at: float = 0.0) -> None:
        """Accept, and show the page: ``drawn`` (begun at loop time ``drawn_at``, after the
        groups were joined), or a draw now."""
        await self.accept()
        self.watchdog = heartbeat_for(self.scope, self._silent)
        if drawn is None:
            await self.lobby_changed({})
            return
        self.schedule.shown(drawn, drawn_at=drawn_at)
        await self.send(text_data=drawn)

    async def _enter(self, session_id: int) -> None:
        """Be told of the session's changes from now on (before its page is first read)."""
        heartbeat_ensure()
        idle_watch_ensure()
        render_pool_ensure()
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
        self.schedule.cancel()
        if self.watchdog is not None:
            self.watchdog.stop()

    async def _silent(self) -> None:
        await self.close(code=CloseCode.SILENT)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # These pages only ping; a socket that floods is slowed, then closed like a tablet's.
        await self.frame_take(text_data, bytes_data)

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        if self.concerns(event):
            self.redraw()

    def redraw(self) -> None:
        self.schedule.redraw()


class TeacherPageSocket(PageSocket):
    """A teacher's live page of a session (``page``): its tables as they change, drawn apart
    from the sockets (``classroom.pages.page_drawing``) and within the teachers' budget."""

    page: Page
    # The console draws the live skills too, at their own pace (``DashboardTimer``).
    live_skills = False
    render_gap_s = TEACHER_RENDER_GAP_S

    remote_views: dict[int, dict[str, Any]]
    views: dict[int, dict[str, Any]]
    with_dashboard = False  # the draw in progress draws the console's live skills
    # The session's tables (the views this page asks the hosts for), as last read.
    table_ids: set[int]
    # A lobby change came since the last draw was asked for: the next reads the lobby again
    # (the draws keep their last reads of it: ``classroom.pages.lobby_reads``).
    _lobby_changed = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.remote_views = {}
        self.table_ids = set()
        self.views = {}
        pace = Pace(self.render_gap_s, budgeted=True)
        self.schedule = self.schedule_for(lambda: self._draw_current(), pace)
        self.dashboard = DashboardTimer(redraw=lambda: self.redraw()) if self.live_skills else None

    def group_names(self, session_id: int) -> list[str]:
        # The teacher's own group too: told when a class share of theirs is revoked. (Only
        # a signed-in teacher who may see the session gets this far: see ``connect``.)
        user_id = self.scope["user"].pk
        return [session_group(session_id), teachers_group(session_id), teacher_group(user_id)]

    async def connect(self) -> None:
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

    async def _draw_current(self) -> Drawing:
        # Game state lives in the table hosts: those in this event loop (this session's
        # only), and the latest view each host in another process sent with its change.
        local = table_hosts.registry.teacher_views(self.table_ids)
        self.views = {**self.remote_views, **local}
        self.with_dashboard = self.dashboard is not None and self.dashboard.due()
        drawing, table_ids = await self._drawn()
        # New tables (the start, a late joiner's, Play again): drawn again with their views.
        if table_ids != self.table_ids:
            self.table_ids = table_ids
            self._lobby_changed = True
            self.redraw()
        return drawing

    async def draw(self) -> Drawing:
        """The page drawn from the views and lobby as last heard of."""
        drawing, _table_ids = await self._drawn()
        return drawing

    async def _drawn(self) -> tuple[Drawing, set[int]]:
        # Drawn from plain data: what the draws keep between them (parts, lobby reads, live
        # skills) is found in the drawing process by this socket's name.
        ask = DrawAsk(
            socket=self.channel_name,
            page=self.page,
            session_id=self.session_id,
            language=self.language,
            views=self.views,
            dashboard=self.with_dashboard,
            lobby_changed=self._lobby_changed,
            stretch=teacher_render_budget.current,
        )
        self._lobby_changed = False
        try:
            drawn = await teacher_page_draw(ask)
        except BaseException:
            self._lobby_changed = ask.lobby_changed or self._lobby_changed
            raise
        return (drawn.html, None, drawn.cpu_s), drawn.table_ids

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        self._lobby_changed = True
        await super().lobby_changed(event)

    async def _enter(self, session_id: int) -> None:
        await super()._enter(session_id)
        await table_hosts.teacher_page_open(session_id, self)

    def tables_moved(
        self, table_ids: Iterable[int], views: Mapping[int, Mapping[str, Any]]
    ) -> None:
        # A table moved: its tile is drawn again; the lobby as last read still holds. Told
        # by the hosts (classroom.hosting.teacher_pages), with the views of those elsewhere.
        for table_id, view in views.items():
            self.remote_views[table_id] = dict(view)
        self.table_ids.update(table_ids)
        self.redraw()

    async def skills_changed(self, event: dict[str, Any]) -> None:
        # A draw begun before the change may still show what it read: the one asked for
        # here follows it.
        if self.dashboard is not None:
            self.dashboard.now_due()
            self.redraw()

    async def teacher_access_changed(self, event: dict[str, Any]) -> None:
        """A class share of this teacher was revoked: a page they may no longer see closes."""
        if not self.closed_here and not await database_sync_to_async(self._may_watch)(
            self.session_id
        ):
            await self.close(code=CloseCode.FORBIDDEN)

    async def disconnect(self, code: int) -> None:
        if self.dashboard is not None:
            self.dashboard.cancel()
        if getattr(self, "session_id", None) is not None:
            await table_hosts.teacher_page_close(self.session_id, self)
        await super().disconnect(code)
        teacher_page_forget(self.channel_name)


class ConsoleConsumer(TeacherPageSocket):
    """The teacher's console: the tables as they change, and the class's live skills."""

    page = "console"
    live_skills = True


class ProjectorConsumer(TeacherPageSocket):
    page = "projector"


@dataclass(frozen=True)
class _Opened:
    """What a tablet's socket found on opening: its session and seat (None: refused), and
    its first lobby when the session was known beforehand."""

    session_id: int | None = None
    seat_id: int | None = None
    lobby: str | None = None
    # Its place in the order the seat's sockets opened (``seat_connection_open``).
    opened_as: int | None = None


class SeatConsumer(PageSocket):
    """A student's tablet in the lobby, authenticated by the seat token in its cookie.

    Its database calls queue on a thread of their own (``lobby_database_call``): a class opens
    its lobbies at once.
    """

    token = ""
    seat_id: int | None = None
    # The table this tablet's lobby last showed (None: none yet, or at no table).
    shown_table_id: int | None = None
    # One seat, one live lobby socket: the newest (``lobby_opened``).
    lobby_group: str | None = None
    opened_as: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.schedule = self.schedule_for(lambda: self.draw(), Pace(self.render_gap_s))

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.token = self.scope.get("cookies", {}).get(seat_cookie_name(code), "")
        hint = code_session_hint(code)
        if self.token:
            # Before the seat's number is taken: a newer socket's word is never missed.
            self.lobby_group = seat_lobby_group(code, self.token)
            await self.channel_layer.group_add(self.lobby_group, self.channel_name)
        if hint is not None:
            # Told of the session's changes before the seat is read and its lobby drawn in
            # the same call: nothing that changes meanwhile is missed.
            await self._enter(hint)
        began = asyncio.get_running_loop().time()
        opened = await lobby_database_call(self._open, code, hint)
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
        self.seat_id, self.opened_as = opened.seat_id, opened.opened_as
        if opened.lobby is None:
            await self.join_session(opened.session_id)
        else:
            await self._go_live(drawn=opened.lobby, drawn_at=began)
        if self.lobby_group is not None and self.opened_as is not None:
            # Older lobby sockets of this seat, on any process, close.
            newer = {"type": "lobby.opened", "channel": self.channel_name, "order": self.opened_as}
            await self.channel_layer.group_send(self.lobby_group, newer)

    async def lobby_opened(self, event: dict[str, Any]) -> None:
        """A newer lobby socket of this seat opened (another tablet, a reload): this one
        says so and closes with 4409, as a game socket does, and the newer one stays."""
        if event["channel"] == self.channel_name or self.closed_here:
            return
        if self.opened_as is not None and int(event["order"]) > self.opened_as:
            await self._connection_close()
            self.seat_id = None
            with translation.override(self.language):
                notice = fragments.seat_fragment_replaced()
            await self.send_unanswered(notice.html, what="a page")
            await self.close(code=CloseCode.REPLACED)

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
        opened_as = seat_connection_open(
            seat_id=seat.pk, session_id=seat.session_id, channel_name=self.channel_name
        )
        if seat.session_id != hint:
            return _Opened(session_id=seat.session_id, seat_id=seat.pk, opened_as=opened_as)
        with translation.override(self.language):
            fragment = fragments.seat_fragment_of(seat=seat)
        self.shown_table_id = fragment.table_id
        return _Opened(
            session_id=seat.session_id, seat_id=seat.pk, lobby=fragment.html, opened_as=opened_as
        )

    async def disconnect(self, code: int) -> None:
        await self._connection_close()
        if self.lobby_group is not None:
            await self.channel_layer.group_discard(self.lobby_group, self.channel_name)
        await super().disconnect(code)

    async def _silent(self) -> None:
        # A silent tablet is gone now (see ``classroom.sockets.table``), on its own thread.
        await self._connection_close()
        await super()._silent()

    async def _connection_close(self) -> None:
        if self.seat_id is not None:
            await lobby_database_call(seat_connection_close, channel_name=self.channel_name)

    def concerns(self, event: dict[str, Any]) -> bool:
        # A join moves only a few tables' players: the tablets seated elsewhere look the same.
        tables = event.get("tables")
        return tables is None or self.shown_table_id is None or self.shown_table_id in tables

    async def draw(self) -> Drawing:
        """The tablet's lobby drawn now, with the close code of a seat that has none."""
        return await lobby_database_call(self._drawn)

    def _drawn(self) -> Drawing:
        began = time.thread_time()
        with translation.override(self.language):
            html, close_code = self.render()
        return html, close_code, time.thread_time() - began

    def render(self) -> tuple[str, int | None]:
        fragment = fragments.seat_fragment_render(session_id=self.session_id, token=self.token)
        self.shown_table_id = fragment.table_id
        return fragment.html, fragment.close_code
