"""Riff Raff's analytics trials (human seats only; bots produce none).

``riff_raff.catch``: one per piece that left the ship during a human seat's turn (each is a
chance to catch). ``target`` is True. Caught: ``responded`` and ``correct`` True, ``rt_ms``
as the tablet measured it (from the first frame that showed the piece falling to the tap),
plausible when at least ``MIN_PLAUSIBLE_RT_MS`` and no longer than the piece has been
falling plus the measured round trip and ``PLAUSIBLE_SLACK_MS``. Missed (the catch window
ran out): ``responded`` and ``correct`` False, ``rt_ms`` None, plausible (nothing measured).

``riff_raff.placement``: one per drop of a human seat. ``target`` None (not a
go/no-go stimulus), ``responded`` True, ``rt_ms`` None, ``correct`` when the piece stayed
on the ship through the settling and caused no fall.

Both carry ``level`` (``wave_<strength times 10>``), ``area``, ``piece``, ``shape``, ``round``,
``bot`` False and ``congruent`` None.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from games.engine.contract import Trial
from games.engine.reaction import rt_plausible

if TYPE_CHECKING:
    from games.riff_raff.config import Config
    from games.riff_raff.state import Piece

CATCH = "riff_raff.catch"
PLACEMENT = "riff_raff.placement"
# Faster than this is an anticipation, not a reaction to the falling piece.
MIN_PLAUSIBLE_RT_MS = 150
# Clock granularity and frame timing on the tablet.
PLAUSIBLE_SLACK_MS = 150


def level(config: Config) -> str:
    """The difficulty a trial was played at, as analytics groups trials."""
    return f"wave_{round(config.wave_strength * 10)}"


_LEVEL = re.compile(r"wave_(\d{1,2})")


def level_wave_strength(level: str) -> float | None:
    """The wave strength ``level`` (as ``level`` wrote it) names, or None for another game's."""
    if found := _LEVEL.fullmatch(level):
        return int(found.group(1)) / 10
    return None


def _data(config: Config, piece: Piece, area: int, round_number: int) -> dict[str, Any]:
    return {
        "level": level(config),
        "area": area,
        "piece": piece.id,
        "shape": piece.shape,
        "round": round_number,
        "bot": False,
        "congruent": None,
    }


def catch_plausible(rt_ms: int, *, elapsed_ms: int, rtt_ms: int) -> bool:
    return rt_plausible(
        rt_ms,
        age_ms=elapsed_ms,
        rtt_ms=rtt_ms,
        floor_ms=MIN_PLAUSIBLE_RT_MS,
        slack_ms=PLAUSIBLE_SLACK_MS,
    )


def caught(
    config: Config,
    seat: int,
    piece: Piece,
    *,
    area: int,
    round_number: int,
    rt_ms: int,
    rtt_ms: int,
    elapsed_ms: int,
) -> Trial:
    data = _data(config, piece, area, round_number)
    data.update(
        target=True,
        responded=True,
        correct=True,
        rt_ms=rt_ms,
        plausible=catch_plausible(rt_ms, elapsed_ms=elapsed_ms, rtt_ms=rtt_ms),
    )
    return Trial(seat=seat, kind=CATCH, data=data)


def missed(config: Config, seat: int, piece: Piece, *, area: int, round_number: int) -> Trial:
    data = _data(config, piece, area, round_number)
    # No response: no measurement to doubt.
    data.update(target=True, responded=False, correct=False, rt_ms=None, plausible=True)
    return Trial(seat=seat, kind=CATCH, data=data)


def placement(
    config: Config, seat: int, piece: Piece, *, area: int, round_number: int, stayed: bool
) -> Trial:
    data = _data(config, piece, area, round_number)
    data.update(target=None, responded=True, correct=stayed, rt_ms=None, plausible=True)
    return Trial(seat=seat, kind=PLACEMENT, data=data)
