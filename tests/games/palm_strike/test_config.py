"""Palm Strike's settings: declared bounds and choices, the auto-flip rule, team mode."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.settings import (
    SettingError,
    SettingInfo,
    config_from_values,
    config_settings,
    config_to_values,
)
from games.palm_strike.config import Config
from games.palm_strike.spec import SPEC

if TYPE_CHECKING:
    from collections.abc import Iterator

INFOS = config_settings(Config)
BY_NAME = {info.name: info for info in INFOS}
CHOICES = [
    pytest.param(info.name, choice, id=f"{info.name}={choice}")
    for info in INFOS
    for choice, _label in info.spec.choices
]
BOUNDED = [info for info in INFOS if info.spec.minimum is not None or info.spec.maximum is not None]


def _below_and_above(info: SettingInfo) -> Iterator[Any]:
    delta = info.spec.step or 1
    if info.spec.minimum is not None:
        yield info.kind(info.spec.minimum - delta)
    if info.spec.maximum is not None:
        yield info.kind(info.spec.maximum + delta)


OUT_OF_BOUNDS = [
    pytest.param(info.name, value, id=f"{info.name}={value}")
    for info in BOUNDED
    for value in _below_and_above(info)
]
ON_BOUNDS = [
    pytest.param(info.name, info.kind(bound), id=f"{info.name}={bound}")
    for info in BOUNDED
    for bound in (info.spec.minimum, info.spec.maximum)
    if bound is not None
]


# --------------------------------------------------------------------------------------------
# Declarations


def test_declared_settings() -> None:
    assert [info.name for info in INFOS] == [
        "level",
        "cards_per_player",
        "response_window_s",
        "flip_pacing",
        "auto_flip_s",
        "slap_scope",
        "deck_swap",
        "points_target",
        "team_mode",
        "team_end",
        "centre_cards",
        "grace_ms",
    ]
    kinds = {info.name: info.kind for info in INFOS}
    assert kinds["level"] is str  # a Literal of strings
    assert kinds["cards_per_player"] is int
    assert kinds["response_window_s"] is float
    assert kinds["deck_swap"] is bool


def test_every_setting_has_a_label() -> None:
    assert all(info.spec.label for info in INFOS)


@pytest.mark.parametrize("info", INFOS, ids=lambda info: info.name)
def test_declared_default_is_a_valid_value(info: SettingInfo) -> None:
    default: Any = info.default
    assert isinstance(info.default, info.kind)
    spec = info.spec
    if spec.choices:
        assert default in [choice for choice, _label in spec.choices]
    if spec.minimum is not None:
        assert default >= spec.minimum
    if spec.maximum is not None:
        assert default <= spec.maximum
    if spec.step is not None and spec.minimum is not None:
        steps = (default - spec.minimum) / spec.step
        assert math.isclose(steps, round(steps))


@pytest.mark.parametrize("info", [i for i in INFOS if i.spec.choices], ids=lambda i: i.name)
def test_choice_values_have_the_setting_kind(info: SettingInfo) -> None:
    values = [choice for choice, _label in info.spec.choices]
    assert all(type(value) is info.kind for value in values)
    assert len(set(values)) == len(values)


# --------------------------------------------------------------------------------------------
# Building


def test_defaults_are_valid() -> None:
    config = Config()
    assert config_to_values(config) == {info.name: info.default for info in INFOS}
    assert config_from_values(Config, {}) == config
    assert config.flip_pacing == "tap"
    assert config.team_mode is False


@pytest.mark.parametrize(("name", "choice"), CHOICES)
def test_every_choice_is_accepted(name: str, choice: Any) -> None:
    config = config_from_values(Config, {name: choice})
    assert getattr(config, name) == choice


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("level", "expert"),
        ("level", "Beginner"),
        ("cards_per_player", 4),
        ("cards_per_player", 1),
        ("flip_pacing", "timer"),
        ("slap_scope", "all"),
        ("team_end", "never"),
    ],
)
def test_unknown_choice_is_rejected(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {name: value})
    assert caught.value.setting == name


@pytest.mark.parametrize(("name", "value"), ON_BOUNDS)
def test_bounds_are_inclusive(name: str, value: Any) -> None:
    assert getattr(config_from_values(Config, {name: value}), name) == value


@pytest.mark.parametrize(("name", "value"), OUT_OF_BOUNDS)
def test_out_of_bounds_is_rejected(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {name: value})
    assert caught.value.setting == name


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("deck_swap", 1),
        ("team_mode", "yes"),
        ("points_target", True),
        ("centre_cards", 8.0),
        ("grace_ms", "150"),
        ("response_window_s", False),
        ("cards_per_player", "2"),
        ("level", None),
    ],
)
def test_wrong_type_is_rejected(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Config, {name: value})
    assert caught.value.setting == name


def test_int_seconds_become_floats() -> None:
    config = config_from_values(Config, {"response_window_s": 3, "auto_flip_s": 10})
    assert type(config.response_window_s) is float
    assert type(config.auto_flip_s) is float


# --------------------------------------------------------------------------------------------
# The cross-field rule: auto-flip must leave the response window time to close


@pytest.mark.parametrize(
    ("auto_flip_s", "response_window_s"),
    [(2.5, 2.5), (2.0, 2.5), (3.0, 5.0), (5.0, 5.0)],
)
def test_auto_flip_not_longer_than_the_window_is_rejected(
    auto_flip_s: float, response_window_s: float
) -> None:
    with pytest.raises(SettingError) as caught:
        Config(flip_pacing="auto", auto_flip_s=auto_flip_s, response_window_s=response_window_s)
    assert caught.value.setting == "auto_flip_s"
    assert "response window" in caught.value.message


def test_auto_flip_longer_than_the_window_is_accepted() -> None:
    config = Config(flip_pacing="auto", auto_flip_s=3.0, response_window_s=2.5)
    assert (config.flip_pacing, config.auto_flip_s) == ("auto", 3.0)


def test_the_rule_only_applies_to_auto_flip() -> None:
    config = Config(flip_pacing="tap", auto_flip_s=2.0, response_window_s=5.0)
    assert config.auto_flip_s < config.response_window_s


def test_range_errors_win_over_the_cross_field_rule() -> None:
    with pytest.raises(SettingError) as caught:
        Config(flip_pacing="auto", auto_flip_s=2.0, response_window_s=9.0)
    assert caught.value.setting == "response_window_s"


# --------------------------------------------------------------------------------------------
# Property: anything inside the declared bounds builds and round-trips, or breaks the rule


def _strategy_for(info: SettingInfo) -> st.SearchStrategy[Any]:
    spec = info.spec
    if spec.choices:
        return st.sampled_from([choice for choice, _label in spec.choices])
    if info.kind is bool:
        return st.booleans()
    assert spec.minimum is not None
    assert spec.maximum is not None
    if info.kind is int:
        return st.integers(int(spec.minimum), int(spec.maximum))
    assert info.kind is float
    minimum, maximum, step = spec.minimum, spec.maximum, spec.step
    on_the_grid: st.SearchStrategy[float] = st.just(minimum)
    if step is not None:
        count = round((maximum - minimum) / step)
        on_the_grid = st.integers(0, count).map(lambda k: minimum + k * step)
    anywhere = st.floats(minimum, maximum, allow_nan=False, allow_infinity=False)
    return on_the_grid | anywhere


_values = st.fixed_dictionaries({info.name: _strategy_for(info) for info in INFOS})


def _breaks_auto_flip_rule(values: dict[str, Any]) -> bool:
    return bool(
        values["flip_pacing"] == "auto" and values["auto_flip_s"] <= values["response_window_s"]
    )


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(values=_values)
def test_values_inside_declared_bounds_build_or_break_only_the_auto_flip_rule(
    values: dict[str, Any],
) -> None:
    if _breaks_auto_flip_rule(values):
        with pytest.raises(SettingError) as caught:
            config_from_values(Config, values)
        assert caught.value.setting == "auto_flip_s"
        return
    # Every other combination inside the declared bounds must build.
    config = config_from_values(Config, values)
    stored = config_to_values(config)
    assert stored == values
    assert config_from_values(Config, stored) == config
    # Sessions keep settings as JSON; they must come back identical.
    assert config_from_values(Config, json.loads(json.dumps(stored))) == config


# --------------------------------------------------------------------------------------------
# The registry entry


@pytest.mark.parametrize(
    ("values", "single"),
    [
        ({}, False),
        ({"team_mode": True}, True),
        ({"team_mode": True, "team_end": "first_to_five", "centre_cards": 10}, True),
        ({"team_mode": False, "team_end": "all_claimed"}, False),
        ({"deck_swap": True, "points_target": 20}, False),
    ],
)
def test_single_table_only_in_team_mode(values: dict[str, Any], single: bool) -> None:
    assert SPEC.single_table(SPEC.config(values)) is single


def test_spec_uses_this_config() -> None:
    assert SPEC.config_cls is Config
    assert SPEC.slug == "palm_strike"
    assert SPEC.min_players <= SPEC.default_players <= SPEC.max_players
