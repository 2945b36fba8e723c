"""Commotion's settings, per-seat refill sizes, and its registry spec."""

from __future__ import annotations

from typing import Any

import pytest

from games.commotion.config import COUNTDOWN_MS, ROUND_OVER_MS, Config
from games.commotion.spec import SPEC
from games.engine.settings import (
    SettingError,
    config_from_values,
    config_settings,
    config_to_values,
)

INFOS = config_settings(Config)


def test_declared_settings() -> None:
    assert [info.name for info in INFOS] == [
        "refill_size",
        "stock_turn",
        "target_score",
        "bot_speed",
    ]
    assert all(info.spec.label for info in INFOS)
    by_name = {info.name: info for info in INFOS}
    assert (by_name["refill_size"].spec.minimum, by_name["refill_size"].spec.maximum) == (5, 13)
    assert [choice for choice, _ in by_name["stock_turn"].spec.choices] == [3, 1]
    assert [choice for choice, _ in by_name["bot_speed"].spec.choices] == [
        "gentle",
        "steady",
        "quick",
    ]
    assert (COUNTDOWN_MS, ROUND_OVER_MS) == (3000, 8000)


def test_defaults() -> None:
    config = Config()
    assert config_to_values(config) == {
        "refill_size": 13,
        "stock_turn": 3,
        "target_score": 25,
        "bot_speed": "steady",
    }
    assert config_from_values(Config, {}) == config
    assert config.refill_by_seat == ()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("refill_size", 4),
        ("refill_size", 14),
        ("refill_size", "13"),
        ("stock_turn", 2),
        ("target_score", 4),
        ("target_score", 301),
        ("target_score", True),
        ("bot_speed", "fast"),
    ],
)
def test_bad_values_are_refused(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {name: value})
    assert caught.value.setting == name


def test_refill_by_seat_is_not_a_form_field() -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {"refill_by_seat": ((1, 5),)})
    assert caught.value.setting == "refill_by_seat"
    assert "refill_by_seat" not in config_to_values(Config(refill_by_seat=((1, 5),)))


def test_refill_for_a_seat() -> None:
    config = Config(refill_size=10, refill_by_seat=((2, 5), (4, 13)))
    assert [config.refill_for(seat) for seat in range(6)] == [10, 10, 5, 10, 13, 10]


@pytest.mark.parametrize(
    "pairs",
    [((1, 4),), ((1, 14),), ((1, 5), (1, 6)), ((1, "5"),), ((True, 5),), ((1, 5, 6),), [(1, 5)]],
)
def test_bad_refill_by_seat_is_refused(pairs: Any) -> None:
    with pytest.raises(SettingError) as caught:
        Config(refill_by_seat=pairs)
    assert caught.value.setting == "refill_by_seat"


def test_spec() -> None:
    assert SPEC.slug == "commotion"
    assert SPEC.name == "Commotion"
    assert SPEC.tagline == "Race solitaire: build the shared piles from START to STOP."
    assert SPEC.config_cls is Config
    assert (SPEC.min_players, SPEC.max_players, SPEC.default_players) == (2, 6, 4)
    engine = SPEC.engine()
    for name in ("setup", "act", "tick", "next_deadline", "view", "replay", "can_play"):
        assert callable(getattr(engine, name))
    assert SPEC.default_config() == Config()


def test_the_spec_lets_bots_fill_the_table() -> None:
    assert SPEC.bots_fill_table is True


def test_a_seat_option_gives_one_student_a_smaller_refill_pile() -> None:
    option = SPEC.seat_option("refill")
    assert option is not None
    assert option.label == "Refill pile"
    assert [value for value, _label in option.choices] == list(range(5, 14))
    assert option.accepts(5)
    assert not option.accepts("5")
    assert not option.accepts(4)
    roster: list[dict[str, Any]] = [
        {"seat_id": 11, "name": "Ava", "options": {"refill": 5}},
        {"seat_id": 12, "name": "Ben"},
        {"bot": "steady", "name": "Robo"},
        {"seat_id": 13, "name": "Cy", "options": {"refill": "9", "other": 1}},
        {"seat_id": 14, "name": "Di", "options": {"refill": 8}},
    ]
    config = SPEC.table_config(Config(refill_size=6), roster)
    assert config.refill_by_seat == ((0, 5), (4, 8))
    assert [config.refill_for(seat) for seat in range(5)] == [5, 6, 6, 6, 8]
    plain = Config()
    assert SPEC.table_config(plain, [{"seat_id": 1, "name": "A"}]) is plain
