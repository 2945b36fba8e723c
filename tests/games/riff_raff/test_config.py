"""Riff Raff's settings and its registry spec."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine.settings import (
    SettingError,
    config_from_values,
    config_settings,
    config_to_values,
)
from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.cargo import SHAPES
from games.riff_raff.config import SHAPE_SETS, Config
from games.riff_raff.spec import SPEC

INFOS = config_settings(Config)


def test_declared_settings() -> None:
    assert [info.name for info in INFOS] == [
        "wave_strength",
        "catch_window_s",
        "pieces_per_player",
        "piece_shapes",
        "bot_skill",
        "first_captain",
    ]
    assert all(info.spec.label for info in INFOS)
    by_name = {info.name: info for info in INFOS}
    assert by_name["wave_strength"].spec.label == "Wave strength"
    assert by_name["catch_window_s"].spec.label == "Catch window (seconds)"
    assert by_name["pieces_per_player"].spec.label == "Cargo pieces per player"
    assert (by_name["wave_strength"].kind, by_name["catch_window_s"].kind) == (float, float)
    bounds = {
        name: (by_name[name].spec.minimum, by_name[name].spec.maximum)
        for name in ("wave_strength", "catch_window_s", "pieces_per_player")
    }
    assert bounds == {
        "wave_strength": (0.0, 1.0),
        "catch_window_s": (1.0, 5.0),
        "pieces_per_player": (4, 16),
    }
    assert [c for c, _ in by_name["piece_shapes"].spec.choices] == ["mixed", "boxes"]
    assert [c for c, _ in by_name["bot_skill"].spec.choices] == list(BOT_LEVELS)


def test_defaults() -> None:
    config = Config()
    assert config_to_values(config) == {
        "wave_strength": 0.4,
        "catch_window_s": 2.5,
        "pieces_per_player": 8,
        "piece_shapes": "mixed",
        "bot_skill": "steady",
        "first_captain": 1,
    }
    assert config_from_values(Config, {}) == config
    assert config.catch_window_ms == 2500
    assert config.shapes == SHAPES
    assert set(SHAPE_SETS["boxes"]) == {"crate", "sack"}
    assert Config(piece_shapes="boxes").shapes == ("crate", "sack")


def test_whole_numbers_are_accepted_for_decimal_settings() -> None:
    config = config_from_values(Config, {"wave_strength": 1, "catch_window_s": 3})
    assert config.wave_strength == 1.0
    assert isinstance(config.wave_strength, float)
    assert config.catch_window_ms == 3000


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("wave_strength", -0.1),
        ("wave_strength", 1.01),
        ("wave_strength", "0.4"),
        ("wave_strength", float("nan")),
        ("catch_window_s", 0.9),
        ("catch_window_s", 5.5),
        ("pieces_per_player", 3),
        ("pieces_per_player", 17),
        ("pieces_per_player", 8.0),
        ("pieces_per_player", True),
        ("piece_shapes", "round"),
        ("bot_skill", "expert"),
        ("colour", "red"),
    ],
)
def test_bad_values_are_refused(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {name: value})
    assert caught.value.setting == name


def test_cargo_and_rounds_per_table_size() -> None:
    assert [Config().pieces_for(n) for n in (2, 3, 4)] == [16, 8, 8]
    assert [Config.rounds_for(n) for n in (2, 3, 4)] == [20, 10, 10]
    assert Config(pieces_per_player=5).pieces_for(2) == 10


def test_spec() -> None:
    assert SPEC.slug == "riff_raff"
    assert SPEC.name == "Riff Raff"
    assert SPEC.tagline == "Load the rocking ship; catch what falls."
    assert SPEC.config_cls is Config
    assert (SPEC.min_players, SPEC.max_players, SPEC.default_players) == (2, 4, 3)
    assert SPEC.bots_fill_table is True  # bots take every empty seat (RULES.md: 2-4 players)
    assert SPEC.engine_path == "games.riff_raff.rules"
    engine = SPEC.engine()
    for name in ("setup", "act", "tick", "next_deadline", "view", "replay", "frame"):
        assert callable(getattr(engine, name))
    assert SPEC.default_config() == Config()
    assert SPEC.make_bot("quick") is BOT_LEVELS["quick"]
    assert SPEC.make_bot("no such level") is BOT_LEVELS["steady"]
