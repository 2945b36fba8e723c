"""Channels' auth middleware, without a trip to the database thread for a socket that brings
no session cookie, and its session middleware without a wrapper around every frame sent.

Channels' ``AuthMiddleware`` resolves ``scope["user"]`` for every socket through
``database_sync_to_async``, on the one thread every socket's database calls share. A tablet
is never signed in (its seat cookie says who it is), so for a class opening its lobbies at
once each socket would queue behind that thread's other work (the teacher pages' draws) only
to be told "anonymous". With no session cookie there is no user to find: it is anonymous at
once. A socket with one (a teacher's page) is resolved by Channels.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser


class CookieAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if settings.SESSION_COOKIE_NAME not in scope.get("cookies", {}):
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


class SocketSessionMiddleware(SessionMiddleware):
    """Channels' ``SessionMiddleware``, handing the socket the server's own ``send``.

    Channels' wraps ``send`` to save a changed session and set its cookie, which it does on an
    HTTP response's start and nothing else. A socket's frames never carry a cookie, yet the
    wrapper looks at the session for each of them, on the event loop, and a table's tablets
    get several frames a second.
    """

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


def auth_middleware_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack``, with ``CookieAuthMiddleware`` and
    ``SocketSessionMiddleware``."""
    return CookieMiddleware(SocketSessionMiddleware(CookieAuthMiddleware(inner)))
