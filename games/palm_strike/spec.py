"""Palm Strike as the site's game registry knows it."""

from __future__ import annotations

from games.core import GameSpec, gettext_noop
from games.palm_strike.config import Config


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
    single_table=_single_table,
)
