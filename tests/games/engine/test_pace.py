"""How long a game lasts at a typical pace (issue 45): each game's defaults give a lesson's
activity of 2 to 4 minutes, played by steady bots through the engine."""

from __future__ import annotations

import dataclasses

import pytest

from games.engine.pace import game_ms, typical_game_ms
from games.registry import game_registry

SPECS = game_registry()


@pytest.mark.parametrize("slug", sorted(SPECS))
def test_a_default_game_lasts_two_to_four_minutes(slug: str) -> None:
    spec = SPECS[slug]
    minutes = typical_game_ms(spec, spec.default_config(), spec.default_players) / 60_000
    print(f"{slug}: a default game of {spec.default_players} lasts {minutes:.1f} min")
    assert 2 <= minutes <= 4, (slug, minutes)


def test_the_figure_is_the_median_of_fixed_games() -> None:
    spec = SPECS["palm_strike"]
    config = spec.default_config()
    games = sorted(game_ms(spec, config, 4, seed) for seed in range(3))
    assert typical_game_ms(spec, config, 4) == games[1]
    assert typical_game_ms(spec, config, 4) == typical_game_ms(spec, config, 4)


def test_a_single_round_is_shorter_than_a_points_game() -> None:
    spec = SPECS["palm_strike"]
    config = spec.default_config()
    one_round = dataclasses.replace(config, points_target=0)
    assert typical_game_ms(spec, one_round, 4) < typical_game_ms(spec, config, 4) / 3
