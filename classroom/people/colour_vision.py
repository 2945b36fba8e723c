"""Who plays with the colour-vision-safe palette, and how their trials say so.

The palette itself is CSS (``static/css/snapclass.css``: ``[data-palette="okabe_ito"]``
overrides the game colour custom properties); tests/classroom/people/test_colour_vision.py checks
its five game colours stay apart under simulated colour-vision deficiencies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.gamesite import game_sites
from classroom.models import GameSession

if TYPE_CHECKING:
    from classroom.models import Seat

SAFE_PALETTE = GameSession.Palette.OKABE_ITO.value
STANDARD_PALETTE = GameSession.Palette.STANDARD.value

# Written into the data of a trial played with the safe palette, in games where a colour is
# the stimulus: its reaction times were measured on other colours than the rest of the class's.
COLOUR_SAFE_ACCOMMODATION = "colour_safe"
COLOUR_STIMULUS_GAMES = frozenset(site.slug for site in game_sites() if site.colour_stimulus)


def palette_for_player(*, session_palette: str, colour_safe: bool) -> str:
    """The palette one tablet draws with: the session's, or the safe one for a student who
    needs it whatever the session uses."""
    return SAFE_PALETTE if colour_safe or session_palette == SAFE_PALETTE else STANDARD_PALETTE


def trial_accommodation(*, game: str, palette: str) -> str | None:
    """The accommodation flag a trial of ``game`` played in ``palette`` carries, if any."""
    if game in COLOUR_STIMULUS_GAMES and palette == SAFE_PALETTE:
        return COLOUR_SAFE_ACCOMMODATION
    return None


def seat_palette(*, seat: Seat) -> str:
    """The palette the tablet holding ``seat`` draws with."""
    student = seat.student if seat.student_id is not None else None
    return palette_for_player(
        session_palette=seat.session.palette,
        colour_safe=student is not None and student.colour_safe,
    )
