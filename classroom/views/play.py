"""The student's lobby on the tablet, kept live over a WebSocket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from classroom import live_fragments
from classroom.colour_vision import seat_palette
from classroom.gamesite import game_site
from classroom.models import GameSession, Seat
from classroom.seat_cookies import seat_cookie_get, seat_cookie_name, seat_cookie_set
from classroom.selectors.sessions import session_get_by_code
from classroom.services.join_codes import join_code_normalize
from classroom.services.seats import seat_resume
from classroom.standings import standings_for_tablets, standings_rules

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
    if _plays_at_its_table(seat):
        context = {
            "session": session,
            "seat": seat,
            "labels": game_site(session.game).tablet_labels(seat=seat, settings=session.settings),
            # The settings now, and the rule to apply them to the table's views.
            "standings": {
                **standings_for_tablets(session=session),
                "rules": standings_rules(game=session.game),
            },
            "palette": seat_palette(seat=seat),
        }
        return render(request, f"play/{session.game}.html", context)
    return render(request, "play/lobby.html", live_fragments.lobby_context(seat=seat))


def _plays_at_its_table(seat: Seat) -> bool:
    """Play has started and this seat is one of its table's players."""
    if seat.session.status == GameSession.Status.LOBBY or seat.table is None:
        return False
    return any(entry.get("seat_id") == seat.pk for entry in seat.table.roster)


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


@require_POST
def play_leave(request: HttpRequest, code: str) -> HttpResponse:
    """ "Not you?" on a shared tablet: forget this tablet's seat (the seat itself stays)."""
    code = join_code_normalize(code)
    response = redirect("join_session", code=code)
    response.delete_cookie(seat_cookie_name(code), samesite="Lax")
    return response
