"""What a seated tablet is shown: its lobby, or its table's game once play has started."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.shortcuts import redirect, render

from classroom.gamesite import game_site
from classroom.pages import fragments
from classroom.people.colour_vision import seat_palette
from classroom.selectors.standings import standings_for_tablets, standings_rules
from classroom.views.how_to_play import how_to_play_for_seat

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import Seat


def seat_page(request: HttpRequest, *, seat: Seat) -> HttpResponse:
    """The page at the seat's ``play_lobby`` address."""
    session = seat.session
    if fragments.seat_plays_at_its_table(seat=seat):
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
            "how_to_play": how_to_play_for_seat(seat=seat),
        }
        return render(request, f"play/{session.game}.html", context)
    return render(request, "play/lobby.html", fragments.lobby_context(seat=seat))


def joined_page(request: HttpRequest, *, seat: Seat) -> HttpResponse:
    """The answer to the tap that seated a tablet. The lobby comes in the answer itself,
    which saves a class joining at once a request each (the page moves its address to the
    lobby's: ``data-page-url``, live.js), so a reload asks for the lobby, not the form again.
    A game page is reached by its address, as its scripts expect a page of their own."""
    if fragments.seat_plays_at_its_table(seat=seat):
        return redirect("play_lobby", code=seat.session.code)
    return seat_page(request, seat=seat)
