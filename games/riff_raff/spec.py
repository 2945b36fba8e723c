"""Riff Raff as the site's game registry knows it."""

from __future__ import annotations

from games.engine.spec import GameSpec
from games.engine.translation import gettext_noop
from games.riff_raff import rules
from games.riff_raff.actions import ACTIONS
from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.config import Config

# Adaptive difficulty: a calm sea and a long catch window first, a storm and a short one last.
LADDER = tuple(
    {"wave_strength": wave, "catch_window_s": window}
    for wave, window in ((0.0, 5.0), (0.2, 4.0), (0.4, 3.0), (0.6, 2.5), (0.8, 2.0), (1.0, 1.5))
)


SPEC = GameSpec(
    slug="riff_raff",
    name=gettext_noop("Riff Raff"),
    tagline=gettext_noop("Load the rocking ship; catch what falls."),
    config_cls=Config,
    min_players=2,
    max_players=4,
    default_players=3,
    rules=rules,
    actions=ACTIONS,
    bot_levels=BOT_LEVELS,
    bots_fill_table=True,
    ladder=LADDER,
)
