"""What a seated tablet is shown: its lobby, or its table's game once play has started."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from classroom.gamesite import game_site
from classroom.pages import fragments
from classroom.people.colour_vision import seat_palette
from classroom.selectors.standings import standings_for_tablets, standings_rules
from classroom.selectors.warmups import seat_warmup_due
from classroom.views.how_to_play import how_to_play_for_seat

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import Seat


def _warmup_words() -> dict[str, str]:
    """What the warm-up's script says, in the page's language."""
    return {
        "count": _("%(n)s of %(total)s"),
        "tap": _("Tap the star as soon as it appears!"),
        "too_soon": _("Too soon! Wait for the star."),
        "missed": _("Be quick! Tap the star."),
        "saving": _("Saving…"),
        "not_saved": _("That did not save. Tap Play! to try again."),
        "done": _("Well done! Ready to play."),
    }


def seat_page(request: HttpRequest, *, seat: Seat) -> HttpResponse:
    """The page at the seat's ``play_lobby`` address: the warm-up first when it is due."""
    session = seat.session
    plays = fragments.seat_plays_at_its_table(seat=seat)
    if seat_warmup_due(seat=seat, plays=plays):
        context = {"session": session, "seat": seat, "warmup_words": _warmup_words()}
        return render(request, "play/warmup.html", context)
    if plays:
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
    A game page (or the warm-up) is reached by its address, as its scripts expect a page of
    their own."""
    plays = fragments.seat_plays_at_its_table(seat=seat)
    if plays or seat_warmup_due(seat=seat, plays=plays):
        return redirect("play_lobby", code=seat.session.code)
    return seat_page(request, seat=seat)
