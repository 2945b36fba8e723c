"""Palm Strike as the site's game registry knows it."""

from __future__ import annotations

from games.engine.spec import GameSpec
from games.engine.translation import gettext_noop
from games.palm_strike import rules
from games.palm_strike.actions import ACTIONS
from games.palm_strike.bots import BOT_LEVELS
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


SPEC = GameSpec(
    slug="palm_strike",
    name=gettext_noop("Palm Strike"),
    tagline=gettext_noop("Stroop colour-word slap game: see the match, slap first."),
    config_cls=Config,
    min_players=2,
    max_players=8,
    default_players=4,
    rules=rules,
    actions=ACTIONS,
    bot_levels=BOT_LEVELS,
    single_table=_single_table,
    ladder=LADDER,
)
