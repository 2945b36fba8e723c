"""The student's lobby on the tablet, kept live over a WebSocket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from classroom import live_fragments
from classroom.seat_cookies import seat_cookie_get, seat_cookie_set
from classroom.selectors.sessions import session_get_by_code
from classroom.services.join_codes import join_code_normalize
from classroom.services.seats import seat_resume

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


def play_lobby(request: HttpRequest, code: str) -> HttpResponse:
    code = join_code_normalize(code)
    session = session_get_by_code(code=code)
    if session is None:
        return redirect("join_session", code=code)
    token = seat_cookie_get(request, code=code)
    if not token:
        # Cookies cleared? The page may still hold the token in localStorage.
        return render(request, "play/resume.html", {"session": session})
    try:
        seat = seat_resume(session=session, token=token)
    except ValidationError as error:
        return render(
            request,
            "play/notice.html",
            {"session": session, "message": " ".join(error.messages)},
            status=403,
        )
    return render(request, "play/lobby.html", live_fragments.lobby_context(seat=seat))


@require_POST
def play_resume(request: HttpRequest, code: str) -> HttpResponse:
    """Take a seat token back from the tablet's localStorage into a cookie."""
    code = join_code_normalize(code)
    session = session_get_by_code(code=code)
    if session is None:
        return redirect("join_session", code=code)
    try:
        seat = seat_resume(session=session, token=request.POST.get("token", ""))
    except ValidationError:
        return redirect("join_session", code=code)
    response = redirect("play_lobby", code=code)
    seat_cookie_set(response, seat=seat)
    return response
