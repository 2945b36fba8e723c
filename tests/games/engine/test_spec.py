"""A game as the site knows it: GameSpec."""

from __future__ import annotations

from games.engine.spec import GameSpec
from games.palm_strike import rules as palm_strike_rules
from games.palm_strike.actions import ACTIONS as PALM_STRIKE_ACTIONS
from tests.games.engine.configs import Demo


def test_default_single_table_is_false() -> None:
    spec = GameSpec(
        slug="demo",
        name="Demo",
        tagline="",
        config_cls=Demo,
        min_players=1,
        max_players=2,
        default_players=2,
        rules=palm_strike_rules,
        actions=PALM_STRIKE_ACTIONS,
        bot_levels={"steady": "steady"},
    )
    assert spec.single_table(spec.default_config()) is False
    assert spec.config({"rounds": 4}) == Demo(rounds=4)
