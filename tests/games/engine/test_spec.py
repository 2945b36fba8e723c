"""A game as the site knows it: GameSpec."""

from __future__ import annotations

from games.engine.spec import GameSpec, game_spec
from games.palm_strike import rules as palm_strike_rules
from games.palm_strike.actions import ACTIONS as PALM_STRIKE_ACTIONS
from games.palm_strike.bots import BOT_LEVELS as PALM_STRIKE_BOTS
from games.palm_strike.config import Config as PalmStrikeConfig
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


def test_game_spec_finds_the_rest_beside_the_rules() -> None:
    spec = game_spec(palm_strike_rules, name="Demo", tagline="", default_players=2)
    assert spec.slug == "palm_strike"
    assert spec.engine_path == "games.palm_strike.rules"
    assert (spec.min_players, spec.max_players) == (
        palm_strike_rules.MIN_SEATS,
        palm_strike_rules.MAX_SEATS,
    )
    assert spec.config_cls is PalmStrikeConfig
    assert spec.actions is PALM_STRIKE_ACTIONS
    assert spec.bot_levels is PALM_STRIKE_BOTS
    assert spec.ladder == ()
