"""A socket with no session cookie is anonymous at once; one with a teacher's session cookie
is resolved to the teacher, on the database thread, as by Channels' own middleware."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.auth import UserLazyObject
from django.conf import settings
from django.test import Client

from classroom.sockets import auth
from classroom.sockets.auth import CookieAuthMiddleware

if TYPE_CHECKING:
    from django.contrib.auth.models import User


async def _inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
    return None


async def _resolved(cookies: dict[str, str], session: Any) -> Any:
    scope = {"type": "websocket", "cookies": cookies, "session": session, "user": UserLazyObject()}
    await CookieAuthMiddleware(_inner).resolve_scope(scope)
    return scope["user"]._wrapped


async def test_no_session_cookie_is_anonymous_without_the_database_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def never(scope: dict[str, Any]) -> None:
        raise AssertionError("the user was looked up")

    monkeypatch.setattr(auth.AuthMiddleware, "resolve_scope", never)
    user = await _resolved({"snapclass_seat_x": "token"}, session=None)
    assert user.is_anonymous


@pytest.mark.django_db(transaction=True)
async def test_a_session_cookie_is_resolved_to_its_user(teacher: User) -> None:
    def login() -> str:
        client = Client()
        client.force_login(teacher)
        return str(client.cookies[settings.SESSION_COOKIE_NAME].value)

    key = await sync_to_async(login)()
    session = import_module(settings.SESSION_ENGINE).SessionStore(key)
    user = await _resolved({settings.SESSION_COOKIE_NAME: key}, session=session)
    assert user.pk == teacher.pk


async def test_the_socket_sends_through_the_servers_own_send_with_its_session_resolved() -> None:
    seen: dict[str, Any] = {}

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["send"] = send
        seen["session_key"] = scope["session"].session_key

    async def server_send(message: dict[str, Any]) -> None:
        return None

    scope = {"type": "websocket", "cookies": {settings.SESSION_COOKIE_NAME: "a-session-key"}}
    await auth.SocketSessionMiddleware(inner)(scope, None, server_send)
    # No wrapper looks at the session for every frame on its way out.
    assert seen["send"] is server_send
    assert seen["session_key"] == "a-session-key"
