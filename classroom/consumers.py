"""WebSocket consumers: authenticate, validate frames, forward, relay. Nothing else.

Lobby state lives in the database. When it changes, ``classroom.live_updates`` tells the
session's group; each socket then renders its own page's fragment (see
``classroom.live_fragments``) and sends it for htmx to swap in.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from classroom import live_fragments
from classroom.languages import language_from_scope
from classroom.live_updates import session_group
from classroom.models import GameSession
from classroom.seat_cookies import seat_cookie_name
from classroom.services.presence import seat_connection_close, seat_connection_open
from games.live.protocol import Ping, Pong, ProtocolError, client_frame_decode, server_frame_encode

CLOSE_FORBIDDEN = 4403


class _LobbyConsumer(AsyncWebsocketConsumer):
    """Joins the session's group and keeps one page fragment fresh."""

    session_id: int
    language: str
    _push_task: asyncio.Task[None] | None = None
    _dirty = False

    async def join_session(self, session_id: int) -> None:
        self.session_id = session_id
        self.language = language_from_scope(self.scope)
        await self.channel_layer.group_add(session_group(session_id), self.channel_name)
        await self.accept()
        await self.lobby_changed({})

    async def refuse(self, code: int) -> None:
        # Accept first: a refused handshake reaches the browser as 1006, which htmx retries
        # forever; an application close code tells the page to stop.
        await self.accept()
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "session_id", None) is not None:
            await self.channel_layer.group_discard(
                session_group(self.session_id), self.channel_name
            )
        if self._push_task is not None:
            self._push_task.cancel()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            frame = client_frame_decode(text_data if text_data is not None else bytes_data)
        except ProtocolError as error:
            await self.send(text_data=server_frame_encode(error.frame()))
            return
        if isinstance(frame, Ping):
            await self.send(text_data=server_frame_encode(Pong(seq=frame.seq)))

    async def lobby_changed(self, event: dict[str, Any]) -> None:
        # Coalesce bursts (a whole class joining): at most one render in flight, one queued.
        self._dirty = True
        if self._push_task is None or self._push_task.done():
            self._push_task = asyncio.create_task(self._push_while_dirty())

    async def _push_while_dirty(self) -> None:
        while self._dirty:
            self._dirty = False
            html, close_code = await database_sync_to_async(self._render_in_language)()
            await self.send(text_data=html)
            if close_code is not None:
                await self.close(code=close_code)
                return

    def _render_in_language(self) -> tuple[str, int | None]:
        with translation.override(self.language):
            return self.render()

    def render(self) -> tuple[str, int | None]:
        raise NotImplementedError


class _TeacherConsumer(_LobbyConsumer):
    async def connect(self) -> None:
        session_id = int(self.scope["url_route"]["kwargs"]["session_id"])
        if not await database_sync_to_async(self._owns_session)(session_id):
            await self.refuse(CLOSE_FORBIDDEN)
            return
        await self.join_session(session_id)

    def _owns_session(self, session_id: int) -> bool:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return False
        return GameSession.objects.filter(pk=session_id, teacher=user).exists()


class ConsoleConsumer(_TeacherConsumer):
    def render(self) -> tuple[str, int | None]:
        return live_fragments.console_fragment_render(session_id=self.session_id), None


class ProjectorConsumer(_TeacherConsumer):
    def render(self) -> tuple[str, int | None]:
        return live_fragments.projector_fragment_render(session_id=self.session_id), None


class SeatConsumer(_LobbyConsumer):
    """A student's tablet, authenticated by the seat token in its cookie."""

    token = ""
    seat_id: int | None = None

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        self.token = self.scope.get("cookies", {}).get(seat_cookie_name(code), "")
        session_id, self.seat_id = await database_sync_to_async(self._open)(code)
        if session_id is None:
            await self.refuse(live_fragments.CLOSE_NO_SEAT)
            return
        await self.join_session(session_id)

    def _open(self, code: str) -> tuple[int | None, int | None]:
        session = GameSession.objects.filter(code=code).first()
        if session is None:
            return None, None
        seat = session.seats.filter(token=self.token, kicked_at__isnull=True).first()
        if seat is not None:
            seat_connection_open(seat=seat, channel_name=self.channel_name)
        # A socket without a valid seat is still accepted, to be told why and closed.
        return session.pk, seat.pk if seat else None

    async def disconnect(self, code: int) -> None:
        if self.seat_id is not None:
            await database_sync_to_async(seat_connection_close)(channel_name=self.channel_name)
        await super().disconnect(code)

    def render(self) -> tuple[str, int | None]:
        fragment = live_fragments.seat_fragment_render(session_id=self.session_id, token=self.token)
        return fragment.html, fragment.close_code
