"""Commotion as the site's game registry knows it.

Besides the usual fields: bots take every empty seat (a race needs rivals), and a teacher
may give one student a smaller refill pile (the seat option ``refill``, folded into the
table's Config as ``refill_by_seat``; RULES.md §2 "Difficulty").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from games.commotion import rules
from games.commotion.config import MAX_REFILL, MIN_REFILL, Config
from games.engine.spec import SeatOption, game_spec
from games.engine.translation import gettext_noop

REFILL_OPTION = "refill"


def _table_config(config: Config, roster: Sequence[Mapping[str, Any]]) -> Config:
    """The session's Config with each seat's own refill size (engine seat = roster index)."""
    pairs = []
    for seat, entry in enumerate(roster):
        options = entry.get("options")
        size = options.get(REFILL_OPTION) if isinstance(options, Mapping) else None
        # Only a valid choice counts; anything else falls back to the session's setting.
        if type(size) is int and MIN_REFILL <= size <= MAX_REFILL:
            pairs.append((seat, size))
    if not pairs:
        return config
    return dataclasses.replace(config, refill_by_seat=tuple(pairs))


# Adaptive difficulty: one stock card at a time with a small refill pile first; the standard
# game (13 cards, stock by three) at the top.
LADDER = (
    *({"stock_turn": 1, "refill_size": size} for size in (5, 7, 9, 11, 13)),
    *({"stock_turn": 3, "refill_size": size} for size in (9, 11, 13)),
)


SPEC = game_spec(
    rules,
    name=gettext_noop("Commotion"),
    tagline=gettext_noop("Race solitaire: build the shared piles from START to STOP."),
    default_players=4,
    bots_fill_table=True,
    seat_options=(
        SeatOption(
            name=REFILL_OPTION,
            label=gettext_noop("Refill pile"),
            choices=tuple((size, str(size)) for size in range(MIN_REFILL, MAX_REFILL + 1)),
            help=gettext_noop("A smaller refill pile makes the round easier for this student."),
        ),
    ),
    table_config=_table_config,
    ladder=LADDER,
)
