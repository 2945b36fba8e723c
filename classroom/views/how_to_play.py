"""How to play: what a game page, the console and the projector give the demo
(static/js/lib/how_to_play.js): the game, whether this is the child's first game of it, the
table's level from the settings, and the game's own part of the page (its words and script,
``gamesite/<game>/_how_to_play.html``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from classroom.services.how_to_play import how_to_play_seen_record

if TYPE_CHECKING:
    from classroom.models import GameSession, Seat


def _page(session: GameSession, *, first: bool | None, where: str) -> dict[str, Any]:
    settings = session.settings or {}
    return {
        "game": session.game,
        # True or False for a student (the server keeps it); None for a guest (the tablet does).
        "first": first,
        "where": where,
        "channel": f"snapclass-how-to-play-{session.pk}",
        "level": settings.get("level"),
        "team": bool(settings.get("team_mode")),
        # The language of the words on the game's cards, as on the tablets.
        "language": session.language,
        "template": f"gamesite/{session.game}/_how_to_play.html",
    }


def how_to_play_for_seat(*, seat: Seat) -> dict[str, Any]:
    """A game page's demo. A student's first game of this game plays it (and records that
    it did); a guest's tablet decides from what it kept."""
    first = (
        None
        if seat.student is None
        else how_to_play_seen_record(student=seat.student, game=seat.session.game)
    )
    return _page(seat.session, first=first, where="tablet")


def how_to_play_for_teacher(*, session: GameSession, where: str) -> dict[str, Any]:
    """The console's or the projector's "Show how to play"."""
    return _page(session, first=False, where=where)
