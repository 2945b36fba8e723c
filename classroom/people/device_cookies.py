"""Which tablet this is: a random id in a signed cookie, set on its first visit to join or play.

A kick keeps the tablets that held the seat out of the session (``SeatDevice``). The cookie is
enough for a classroom, not a security boundary: a child who clears the browser's cookies gets
a new id.
"""

from __future__ import annotations

import re
import secrets
from functools import wraps
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpRequest, HttpResponse

DEVICE_COOKIE = "device"
_SALT = "snapclass.device"
_MAX_AGE = 60 * 60 * 24 * 365
_WELL_FORMED = re.compile(r"[A-Za-z0-9_-]{16,64}")
# Where the id of this request's tablet is kept, and whether the response must set it.
_ID = "_snapclass_device_id"
_NEW = "_snapclass_device_new"


def device_id(request: HttpRequest) -> str:
    """This tablet's id: from its cookie, or a new one that ``device_cookie`` sets."""
    known: str | None = getattr(request, _ID, None)
    if known is not None:
        return known
    value = request.get_signed_cookie(DEVICE_COOKIE, default="", salt=_SALT) or ""
    if not _WELL_FORMED.fullmatch(value):
        value = secrets.token_urlsafe(16)
        setattr(request, _NEW, True)
    setattr(request, _ID, value)
    return value


def device_cookie(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """Give a tablet its id on its first visit to this view (kept a year)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        device_id(request)
        response = view(request, *args, **kwargs)
        if getattr(request, _NEW, False):
            response.set_signed_cookie(
                DEVICE_COOKIE,
                device_id(request),
                salt=_SALT,
                max_age=_MAX_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.HTTPS,
            )
        return response

    return wrapped
