"""The student's lobby on the tablet, kept live over a WebSocket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from classroom.join_codes import join_code_normalize
from classroom.people.device_cookies import device_cookie, device_id
from classroom.people.seat_cookies import seat_cookie_get, seat_cookie_name
from classroom.selectors.sessions import session_get_by_code
from classroom.services.seats import seat_resume
from classroom.views.join import code_not_found_page
from classroom.views.seat_pages import seat_page
from classroom.web.rate_limits import join_code_guesses_exhausted, join_code_miss_count

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


@device_cookie
def play_lobby(request: HttpRequest, code: str) -> HttpResponse:
    code = join_code_normalize(code)
    # Known code or not must not show to a guesser: limited and counted like /join.
    if join_code_guesses_exhausted(request):
        return code_not_found_page(code, request=request, checked=False)
    session = session_get_by_code(code=code)
    if session is None:
        join_code_miss_count(request)
        return code_not_found_page(code, request=request, checked=True)
    token = seat_cookie_get(request, code=code)
    if not token:
        # No seat on this tablet (or its cookie is gone): tap the name, or pick a nickname.
        return redirect("join_session", code=code)
    try:
        seat = seat_resume(session=session, token=token, device_id=device_id(request))
    except ValidationError as error:
        return render(
            request,
            "play/notice.html",
            {"session": session, "message": " ".join(error.messages)},
            status=403,
        )
    return seat_page(request, seat=seat)


@require_POST
def play_leave(request: HttpRequest, code: str) -> HttpResponse:
    """ "Not you?" on a shared tablet: forget this tablet's seat (the seat itself stays)."""
    code = join_code_normalize(code)
    response = redirect("join_session", code=code)
    response.delete_cookie(seat_cookie_name(code), samesite="Lax")
    return response
