"""Riff Raff as the site's game registry knows it."""

from __future__ import annotations

from games.engine.spec import game_spec
from games.engine.translation import gettext_noop
from games.riff_raff import rules

# Adaptive difficulty: a calm sea and a long catch window first, a storm and a short one last.
LADDER = tuple(
    {"wave_strength": wave, "catch_window_s": window}
    for wave, window in ((0.0, 5.0), (0.2, 4.0), (0.4, 3.0), (0.6, 2.5), (0.8, 2.0), (1.0, 1.5))
)


SPEC = game_spec(
    rules,
    name=gettext_noop("Riff Raff"),
    tagline=gettext_noop("Load the rocking ship; catch what falls."),
    default_players=3,
    bots_fill_table=True,
    ladder=LADDER,
)
