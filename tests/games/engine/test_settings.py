"""Game settings declared on a frozen Config dataclass."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

import pytest

from games.engine.settings import (
    SettingError,
    config_from_values,
    config_settings,
    config_to_values,
    setting,
    validate_settings,
)
from tests.games.engine.configs import Demo, Loose

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
