"""Game settings declared on a frozen Config dataclass, the Outcome contract, the registry."""

from __future__ import annotations

import json
import random
from dataclasses import FrozenInstanceError, dataclass
from typing import TYPE_CHECKING, Any, Literal

import pytest

from games.engine.contract import Event, Outcome
from games.engine.fingerprint import state_fingerprint
from games.engine.replay import log_replay
from games.engine.settings import (
    SettingError,
    config_from_values,
    config_settings,
    config_to_values,
    setting,
    validate_settings,
)
from games.engine.spec import GameSpec
from games.palm_strike import rules as palm_strike_rules
from games.palm_strike.actions import ACTIONS as PALM_STRIKE_ACTIONS
from games.palm_strike.config import Config as PalmStrikeConfig
from games.registry import game_get, game_registry

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Demo:
    loud: bool = setting(False, label="Loud")
    rounds: int = setting(3, label="Rounds", help="How many rounds.", minimum=1, maximum=9)
    speed: float = setting(1.5, label="Speed", minimum=0.5, maximum=3.0, step=0.5)
    colour: str = setting("red", label="Colour", choices=(("red", "Red"), ("blue", "Blue")))
    # A plain field is not a setting: it is not listed, stored or accepted from values.
    internal: str = "not-a-setting"

    def __post_init__(self) -> None:
        validate_settings(self)


@dataclass(frozen=True)
class Loose:
    """Same kind of fields, but nothing validates on construction."""

    size: float = setting(1.0, label="Size", minimum=0.0, maximum=10.0)
    mode: Literal["a", "b"] = setting("a", label="Mode", choices=(("a", "A"), ("b", "B")))


DEFAULTS = {"loud": False, "rounds": 3, "speed": 1.5, "colour": "red"}


# --------------------------------------------------------------------------------------------
# Declaring settings


def test_config_settings_lists_declared_settings_in_order() -> None:
    infos = config_settings(Demo)
    assert [info.name for info in infos] == ["loud", "rounds", "speed", "colour"]
    assert [info.kind for info in infos] == [bool, int, float, str]
    assert {info.name: info.default for info in infos} == DEFAULTS


def test_config_settings_carries_the_spec() -> None:
    by_name = {info.name: info for info in config_settings(Demo)}
    assert by_name["rounds"].spec.label == "Rounds"
    assert by_name["rounds"].spec.help == "How many rounds."
    assert (by_name["rounds"].spec.minimum, by_name["rounds"].spec.maximum) == (1, 9)
    assert by_name["speed"].spec.step == 0.5
    assert by_name["colour"].spec.choices == (("red", "Red"), ("blue", "Blue"))
    assert by_name["loud"].spec.choices == ()
    assert by_name["loud"].spec.minimum is None


def test_literal_setting_reports_the_kind_of_its_values() -> None:
    kinds = {info.name: info.kind for info in config_settings(Loose)}
    assert kinds == {"size": float, "mode": str}


def test_setting_choices_are_stored_as_a_tuple() -> None:
    @dataclass(frozen=True)
    class Listed:
        pick: int = setting(1, label="Pick", choices=[(1, "One"), (2, "Two")])

    (info,) = config_settings(Listed)
    assert info.spec.choices == ((1, "One"), (2, "Two"))


# --------------------------------------------------------------------------------------------
# Building configs


def test_defaults() -> None:
    config = Demo()
    assert config_to_values(config) == DEFAULTS
    assert config_from_values(Demo, {}) == config


def test_config_is_frozen() -> None:
    config = Demo()
    with pytest.raises(FrozenInstanceError):
        config.rounds = 4  # type: ignore[misc]


def test_int_given_for_a_float_setting_becomes_a_float() -> None:
    config = config_from_values(Demo, {"speed": 2})
    assert config.speed == 2.0
    assert type(config.speed) is float
    assert type(config_to_values(config)["speed"]) is float


def test_validate_settings_coerces_in_place() -> None:
    loose = Loose(size=3)
    assert type(loose.size) is int
    validate_settings(loose)
    assert loose.size == 3.0
    assert type(loose.size) is float


def test_validate_settings_rejects_a_bad_instance() -> None:
    with pytest.raises(SettingError) as caught:
        validate_settings(Loose(mode="c"))  # type: ignore[arg-type]
    assert caught.value.setting == "mode"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        pytest.param("loud", 1, id="int-for-bool"),
        pytest.param("loud", "yes", id="str-for-bool"),
        pytest.param("loud", None, id="none-for-bool"),
        pytest.param("rounds", True, id="bool-for-int"),
        pytest.param("rounds", False, id="false-for-int"),
        pytest.param("rounds", 2.0, id="float-for-int"),
        pytest.param("rounds", "3", id="str-for-int"),
        pytest.param("speed", True, id="bool-for-float"),
        pytest.param("speed", "1.5", id="str-for-float"),
        pytest.param("speed", None, id="none-for-float"),
        pytest.param("colour", 3, id="int-for-str"),
        pytest.param("colour", None, id="none-for-str"),
    ],
)
def test_wrong_type_names_the_setting(name: str, value: Any) -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Demo, {name: value})
    error = caught.value
    assert error.setting == name
    assert error.message
    assert str(error) == f"{name}: {error.message % error.params}"
    assert isinstance(error, ValueError)


@pytest.mark.parametrize(
    ("name", "value", "params", "words"),
    [
        pytest.param("rounds", 0, {"minimum": 1}, "at least 1.", id="int-below"),
        pytest.param("rounds", 10, {"maximum": 9}, "at most 9.", id="int-above"),
        pytest.param("rounds", -5, {"minimum": 1}, "at least 1.", id="int-negative"),
        pytest.param("speed", 0.49, {"minimum": 0.5}, "at least 0.5.", id="float-below"),
        pytest.param("speed", 3.01, {"maximum": 3.0}, "at most 3.", id="float-above"),
        pytest.param("speed", 4, {"maximum": 3.0}, "at most 3.", id="int-for-float-above"),
        pytest.param(
            "colour", "green", {"allowed": "red, blue"}, "one of red, blue.", id="not-a-choice"
        ),
        pytest.param(
            "colour", "RED", {"allowed": "red, blue"}, "one of red, blue.", id="case-sensitive"
        ),
    ],
)
def test_out_of_range_names_the_setting(
    name: str, value: Any, params: dict[str, Any], words: str
) -> None:
    with pytest.raises(SettingError) as caught:
        Demo(**{name: value})
    error = caught.value
    assert error.setting == name
    assert error.params == params
    assert (error.message % error.params).endswith(words)
    assert str(error).startswith(f"{name}: ")


def test_setting_error_message_is_an_untranslated_template() -> None:
    # The site translates ``message`` and then fills it, so the template must stay intact.
    with pytest.raises(SettingError) as caught:
        Demo(rounds=0)
    assert caught.value.message == "Must be at least %(minimum)g."
    assert str(caught.value) == "rounds: Must be at least 1."


def test_setting_error_without_params() -> None:
    error = SettingError("rounds", "Must be a whole number.")
    assert error.params == {}
    assert str(error) == "rounds: Must be a whole number."


@pytest.mark.parametrize(
    "values",
    [
        {"rounds": 1},
        {"rounds": 9},
        {"speed": 0.5},
        {"speed": 3.0},
        {"speed": 1},
        {"colour": "blue"},
        {"loud": True},
    ],
)
def test_bounds_and_choices_are_inclusive(values: dict[str, Any]) -> None:
    config = config_from_values(Demo, values)
    for name, value in values.items():
        assert getattr(config, name) == value


def test_unknown_name_is_an_error() -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Demo, {"volume": 11})
    assert caught.value.setting == "volume"


def test_first_unknown_name_alphabetically_is_reported() -> None:
    with pytest.raises(SettingError) as caught:
        config_from_values(Demo, {"zeta": 1, "rounds": 2, "alpha": 1})
    assert caught.value.setting == "alpha"


def test_plain_field_is_not_a_setting() -> None:
    assert "internal" not in config_to_values(Demo())
    with pytest.raises(SettingError) as caught:
        config_from_values(Demo, {"internal": "x"})
    assert caught.value.setting == "internal"


def test_round_trip_through_values_and_json() -> None:
    config = Demo(loud=True, rounds=7, speed=2.5, colour="blue")
    values = config_to_values(config)
    assert values == {"loud": True, "rounds": 7, "speed": 2.5, "colour": "blue"}
    assert config_from_values(Demo, values) == config
    assert config_from_values(Demo, json.loads(json.dumps(values))) == config


def test_to_values_returns_a_fresh_dict() -> None:
    config = Demo()
    values = config_to_values(config)
    values["rounds"] = 99
    assert config.rounds == 3
    assert config_to_values(config)["rounds"] == 3


# --------------------------------------------------------------------------------------------
# Outcome


def test_outcome_without_rejection_is_accepted() -> None:
    outcome = Outcome(state={"turn": 1}, events=(Event("flip"),))
    assert outcome.accepted is True
    assert outcome.rejected is None
    assert outcome.trials == ()


@pytest.mark.parametrize("reason", ["Not your turn.", ""])
def test_outcome_with_rejection_is_not_accepted(reason: str) -> None:
    state = {"turn": 1}
    outcome = Outcome(state=state, rejected=reason)
    assert outcome.accepted is False
    assert outcome.state is state


def test_event_data_defaults_to_an_empty_mapping() -> None:
    assert Event("flip").data == {}
    assert Event("flip").data is not Event("flip").data


# --------------------------------------------------------------------------------------------
# Registry


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


def test_log_replay_applies_entries_in_order_and_refuses_a_malformed_one() -> None:
    def act(state: list[str], seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        return Outcome(state=[*state, f"{seat}:{action['kind']}@{now_ms}"])

    def tick(state: list[str], now_ms: int) -> Outcome[Any]:
        return Outcome(state=[*state, f"tick@{now_ms}"])

    log = [("act", 1, {"kind": "flip"}, 10), ("tick", None, None, 20)]
    assert log_replay([], log, act=act, tick=tick) == ["1:flip@10", "tick@20"]
    with pytest.raises(ValueError, match="not a log entry"):
        log_replay([], [("act", None, {"kind": "flip"}, 5)], act=act, tick=tick)


def test_equal_fingerprints_mean_equal_states_generator_included() -> None:
    one, two = random.Random(3), random.Random(3)
    assert state_fingerprint({"rng": one, "cards": [1, 2]}) == state_fingerprint(
        {"rng": two, "cards": [1, 2]}
    )
    two.random()
    assert state_fingerprint({"rng": one, "cards": [1, 2]}) != state_fingerprint(
        {"rng": two, "cards": [1, 2]}
    )
