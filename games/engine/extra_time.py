"""Extra time for one seat: its own, longer response window, the rest of the table unchanged.

A teacher gives a child extra time on the class page; the site writes the choice into the
child's roster entry when the table's seats are fixed (``ROSTER_KEY``), and a game with a
response window folds the table's entries into its Config as ``(seat, scale)`` pairs. The
engine then holds that seat to ``scale`` times the table's window and everyone else to the
table's own. "No speed scoring" (``UNTIMED``) plays with the longest window; the site leaves
that child's times out of its speed measures. Pure, like the engines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.settings import SettingError
from games.engine.translation import gettext_noop

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# The roster entry's key, and the values a teacher may choose (none: no key at all).
ROSTER_KEY = "extra_time"
X1_5, X2, UNTIMED = "x1.5", "x2", "untimed"
SCALES: dict[str, float] = {X1_5: 1.5, X2: 2.0, UNTIMED: 2.0}

SeatScales = tuple[tuple[int, float], ...]


def roster_scales(roster: Sequence[Mapping[str, Any]]) -> SeatScales:
    """``(engine seat, window scale)`` for the roster's seats with extra time (engine seat =
    roster index); an unknown value is no extra time."""
    return tuple(
        (seat, SCALES[entry[ROSTER_KEY]])
        for seat, entry in enumerate(roster)
        if entry.get(ROSTER_KEY) in SCALES
    )


def scales_check(name: str, pairs: object) -> None:
    """Raise SettingError for ``name`` unless ``pairs`` is a tuple of ``(seat, scale)`` with
    each seat once and each scale one of ``SCALES``'."""
    if not isinstance(pairs, tuple):
        raise SettingError(name, gettext_noop("Must be a list of seat scales."))
    seen: set[int] = set()
    for pair in pairs:
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise SettingError(name, gettext_noop("Must be a list of seat scales."))
        seat, scale = pair
        if isinstance(seat, bool) or not isinstance(seat, int) or seat in seen:
            raise SettingError(name, gettext_noop("Must be a list of seat scales."))
        seen.add(seat)
        if isinstance(scale, bool) or scale not in set(SCALES.values()):
            raise SettingError(name, gettext_noop("Must be a list of seat scales."))


def scale_for(pairs: SeatScales, seat: int | None) -> float:
    """The window scale of ``seat``: its own, else 1 (the table's window)."""
    for pair_seat, scale in pairs:
        if pair_seat == seat:
            return scale
    return 1.0
