"""The student's lobby on the tablet, kept live over a WebSocket."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from classroom.gamesite import game_site
from classroom.live import fragments
from classroom.live.standings import standings_for_tablets, standings_rules
from classroom.models import GameSession, Seat
from classroom.people.colour_vision import seat_palette
from classroom.people.device_cookies import device_cookie, device_id
from classroom.people.seat_cookies import seat_cookie_get, seat_cookie_name
from classroom.selectors.sessions import session_get_by_code
from classroom.services.join_codes import join_code_normalize
from classroom.services.seats import seat_resume
from classroom.views.join import code_not_found_page
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
    return render(request, "play/lobby.html", fragments.lobby_context(seat=seat))


def _plays_at_its_table(seat: Seat) -> bool:
    """Play has started and this seat is one of its table's players."""
    if seat.session.status == GameSession.Status.LOBBY or seat.table is None:
        return False
    return any(entry.get("seat_id") == seat.pk for entry in seat.table.roster)


@require_POST
def play_leave(request: HttpRequest, code: str) -> HttpResponse:
    """ "Not you?" on a shared tablet: forget this tablet's seat (the seat itself stays)."""
    code = join_code_normalize(code)
    response = redirect("join_session", code=code)
    response.delete_cookie(seat_cookie_name(code), samesite="Lax")
    return response
