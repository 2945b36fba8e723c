"""The seat token on a tablet: an HttpOnly cookie per session code.

Only the cookie holds it: no page carries the token, so no script (nor an injected one) can read
it; the sockets authenticate by the cookie. A tablet that lost it taps its name again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.shortcuts import redirect

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import Seat


def seat_cookie_name(code: str) -> str:
    return f"seat_{code}"


def seat_cookie_set(response: HttpResponse, *, seat: Seat) -> None:
    response.set_cookie(
        seat_cookie_name(seat.session.code),
        seat.token,
        max_age=settings.SEAT_COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.HTTPS,
    )


def seat_lobby_redirect(*, seat: Seat) -> HttpResponse:
    """The way to the seat's lobby, with the cookie that seats the tablet there."""
    response = redirect("play_lobby", code=seat.session.code)
    seat_cookie_set(response, seat=seat)
    return response


def seat_cookie_get(request: HttpRequest, *, code: str) -> str:
    return request.COOKIES.get(seat_cookie_name(code), "")
