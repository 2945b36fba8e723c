"""Palm Strike as the site's game registry knows it."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from games.engine.extra_time import roster_scales
from games.engine.spec import game_spec
from games.engine.translation import gettext_noop
from games.palm_strike import rules

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.palm_strike.config import Config

# Adaptive difficulty: the matching levels, and within each a response window that shrinks.
LADDER = tuple(
    {"level": level, "response_window_s": window}
    for level in ("beginner", "intermediate", "advanced")
    for window in (3.5, 2.5, 1.5)
)


def _single_table(config: Config) -> bool:
    # Team mode is one whole-class table around a shared centre.
    return config.team_mode


def _table_config(config: Config, roster: Sequence[Mapping[str, Any]]) -> Config:
    """The session's Config with each seat's extra time (games.engine.extra_time)."""
    scales = roster_scales(roster)
    return dataclasses.replace(config, window_scale_by_seat=scales) if scales else config


SPEC = game_spec(
    rules,
    name=gettext_noop("Palm Strike"),
    tagline=gettext_noop("Spot the colour match and slap the card first."),
    default_players=4,
    single_table=_single_table,
    table_config=_table_config,
    ladder=LADDER,
)
