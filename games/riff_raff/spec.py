"""Riff Raff as the site's game registry knows it."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from games.engine.extra_time import roster_scales
from games.engine.spec import game_spec
from games.engine.translation import gettext_noop
from games.riff_raff import rules

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.riff_raff.config import Config

# Adaptive difficulty: a calm sea and a long catch window first, a storm and a short one last.
LADDER = tuple(
    {"wave_strength": wave, "catch_window_s": window}
    for wave, window in ((0.0, 5.0), (0.2, 4.0), (0.4, 3.0), (0.6, 2.5), (0.8, 2.0), (1.0, 1.5))
)


def _table_config(config: Config, roster: Sequence[Mapping[str, Any]]) -> Config:
    """The session's Config with each seat's extra time: a longer catch window of its own
    (games.engine.extra_time)."""
    scales = roster_scales(roster)
    return dataclasses.replace(config, catch_scale_by_seat=scales) if scales else config


SPEC = game_spec(
    rules,
    name=gettext_noop("Riff Raff"),
    tagline=gettext_noop("Load the rocking ship; catch what falls."),
    default_players=3,
    bots_fill_table=True,
    table_config=_table_config,
    ladder=LADDER,
)
