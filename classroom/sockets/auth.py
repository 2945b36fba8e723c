"""Channels' auth middleware, without a trip to the database thread for a socket that brings
no session cookie.

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
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.contrib.auth.models import AnonymousUser


class CookieAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if settings.SESSION_COOKIE_NAME not in scope.get("cookies", {}):
            scope["user"]._wrapped = AnonymousUser()
            return
        await super().resolve_scope(scope)


def auth_middleware_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack``, with ``CookieAuthMiddleware``."""
    return CookieMiddleware(SessionMiddleware(CookieAuthMiddleware(inner)))
