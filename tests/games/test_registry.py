"""The registry of playable games."""

from __future__ import annotations

import pytest

from games.engine.settings import SettingError
from games.engine.spec import GameSpec
from games.palm_strike.config import Config as PalmStrikeConfig
from games.registry import game_get, game_registry


def test_registry_contains_palm_strike() -> None:
    registry = game_registry()
    assert "palm_strike" in registry
    spec = registry["palm_strike"]
    assert isinstance(spec, GameSpec)
    assert spec.slug == "palm_strike"
    assert spec.config_cls is PalmStrikeConfig
    assert spec.min_players <= spec.default_players <= spec.max_players


def test_registry_keys_match_slugs() -> None:
    assert all(slug == spec.slug for slug, spec in game_registry().items())


def test_game_get() -> None:
    assert game_get("palm_strike") is game_registry()["palm_strike"]
    assert game_get("nope") is None
    assert game_get("") is None


def test_spec_builds_configs() -> None:
    spec = game_get("palm_strike")
    assert spec is not None
    assert spec.default_config() == PalmStrikeConfig()
    assert spec.config({}) == PalmStrikeConfig()
    assert spec.config({"points_target": 10}).points_target == 10
    with pytest.raises(SettingError) as caught:
        spec.config({"nope": 1})
    assert caught.value.setting == "nope"
