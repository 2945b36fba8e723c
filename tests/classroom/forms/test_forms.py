"""The settings form generated from Palm Strike's Config, and the session form."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, cast

import pytest
from django import forms
from django.utils import translation

from classroom.forms.classes import ClassForm
from classroom.forms.game_settings import GameSettingsForm, game_settings_form_class
from classroom.forms.join import JoinCodeForm
from classroom.forms.sessions import SessionForm
from classroom.services.classes import class_create
from games.palm_strike.config import Config
from games.palm_strike.spec import SPEC

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass
    from games.engine.settings import SettingSpec


SETTINGS: dict[str, tuple[SettingSpec, Any]] = {
    config_field.name: (config_field.metadata["setting"], config_field.default)
    for config_field in dataclasses.fields(Config)
    if "setting" in config_field.metadata
}


def _form_class() -> type[GameSettingsForm]:
    return game_settings_form_class(SPEC)


def _data(**overrides: Any) -> dict[str, str]:
    """POST data for the defaults, with some values replaced (booleans as checkboxes)."""
    values = {name: default for name, (_spec, default) in SETTINGS.items()}
    values.update(overrides)
    data: dict[str, str] = {}
    for name, value in values.items():
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    return data


def _bound(**overrides: Any) -> GameSettingsForm:
    form = _form_class()(_data(**overrides))
    form.is_valid()
    return form


# --------------------------------------------------------------------------------------------
# Generated settings form


def test_every_config_setting_has_a_field_and_nothing_else() -> None:
    form = _form_class()()
    assert list(form.fields) == list(SETTINGS)
    assert {
        "level",
        "cards_per_player",
        "response_window_s",
        "flip_pacing",
        "auto_flip_s",
        "team_mode",
        "grace_ms",
    } <= set(form.fields)


@pytest.mark.parametrize("name", list(SETTINGS))
def test_field_carries_label_help_and_default(name: str) -> None:
    spec, default = SETTINGS[name]
    field = _form_class()().fields[name]
    assert field.label == spec.label
    assert field.help_text == spec.help
    assert field.initial == default


@pytest.mark.parametrize("name", [name for name, (spec, _d) in SETTINGS.items() if spec.choices])
def test_choice_fields_offer_exactly_the_declared_choices(name: str) -> None:
    spec, _default = SETTINGS[name]
    field = _form_class()().fields[name]
    assert isinstance(field, forms.TypedChoiceField)
    offered = cast("list[tuple[Any, str]]", list(field.choices))  # type: ignore[arg-type]
    assert [value for value, _label in offered] == [value for value, _l in spec.choices]
    assert [label for _value, label in offered] == [label for _v, label in spec.choices]


@pytest.mark.parametrize(
    "name", [name for name, (spec, _d) in SETTINGS.items() if spec.minimum is not None]
)
def test_number_fields_have_the_declared_bounds(name: str) -> None:
    spec, default = SETTINGS[name]
    field = _form_class()().fields[name]
    assert isinstance(field, forms.IntegerField | forms.FloatField)
    assert field.min_value == spec.minimum
    assert field.max_value == spec.maximum
    assert isinstance(field, forms.FloatField) == isinstance(default, float)
    if spec.step is not None:
        assert field.widget.attrs["step"] == str(spec.step)


def test_some_fields_concretely() -> None:
    fields = _form_class()().fields
    window = fields["response_window_s"]
    assert isinstance(window, forms.FloatField)
    assert window.label == "Response window (seconds)"
    assert (window.min_value, window.max_value) == (1.0, 5.0)
    assert window.widget.attrs["step"] == "0.5"
    grace = fields["grace_ms"]
    assert isinstance(grace, forms.IntegerField)
    assert not isinstance(grace, forms.FloatField)
    assert (grace.min_value, grace.max_value) == (0, 500)
    team = fields["team_mode"]
    assert isinstance(team, forms.BooleanField)
    assert not team.required
    assert fields["level"].initial == "beginner"


def test_unbound_form_shows_the_defaults() -> None:
    form = _form_class()()
    for name, (_spec, default) in SETTINGS.items():
        assert form[name].value() == default, name


def test_labels_follow_the_active_language() -> None:
    with translation.override("zh-hant"):
        label = _form_class()().fields["response_window_s"].label
    assert label == "反應時間\uff08秒\uff09"
    assert _form_class()().fields["response_window_s"].label == "Response window (seconds)"


def test_defaults_are_valid_and_build_the_default_config() -> None:
    form = _bound()
    assert form.is_valid(), form.errors
    assert form.config == Config()


def test_valid_values_are_coerced_to_their_types() -> None:
    form = _bound(
        level="advanced",
        cards_per_player=3,
        response_window_s=3.5,
        team_mode=True,
        points_target=10,
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["cards_per_player"] == 3
    assert isinstance(form.cleaned_data["cards_per_player"], int)
    assert form.cleaned_data["response_window_s"] == 3.5
    assert form.cleaned_data["team_mode"] is True
    assert form.config == Config(
        level="advanced",
        cards_per_player=3,
        response_window_s=3.5,
        team_mode=True,
        points_target=10,
    )


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("response_window_s", "9"),
        ("response_window_s", "0.5"),
        ("auto_flip_s", "16"),
        ("grace_ms", "-1"),
        ("grace_ms", "501"),
        ("points_target", "101"),
        ("centre_cards", "5"),
        ("centre_cards", "11"),
    ],
)
def test_out_of_range_values_are_field_errors(name: str, value: str) -> None:
    form = _bound(**{name: value})
    assert not form.is_valid()
    assert list(form.errors) == [name]
    assert "than or equal to" in form.errors[name][0]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("level", "expert"),
        ("level", ""),
        ("cards_per_player", "4"),
        ("flip_pacing", "manual"),
        ("slap_scope", "everyone"),
        ("team_end", "never"),
    ],
)
def test_invalid_choices_are_field_errors(name: str, value: str) -> None:
    form = _bound(**{name: value})
    assert not form.is_valid()
    assert list(form.errors) == [name]


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("response_window_s", "fast"),
        ("response_window_s", "nan"),
        ("response_window_s", "inf"),
        ("grace_ms", "1.5"),
        ("points_target", ""),
    ],
)
def test_non_numbers_are_field_errors(name: str, value: str) -> None:
    form = _bound(**{name: value})
    assert not form.is_valid()
    assert list(form.errors) == [name]


@pytest.mark.parametrize(("window", "flip"), [("2.5", "2.5"), ("4", "3"), ("5", "2")])
def test_auto_flip_must_be_longer_than_the_response_window(window: str, flip: str) -> None:
    form = _bound(flip_pacing="auto", response_window_s=window, auto_flip_s=flip)
    assert not form.is_valid()
    assert list(form.errors) == ["auto_flip_s"]
    assert "longer than the response window" in form.errors["auto_flip_s"][0]
    assert not form.non_field_errors()


def test_auto_flip_rule_passes_when_longer_or_when_tapping() -> None:
    assert _bound(flip_pacing="auto", response_window_s="2.5", auto_flip_s="3").is_valid()
    assert _bound(flip_pacing="tap", response_window_s="4", auto_flip_s="2").is_valid()


def test_prefixed_form_reads_prefixed_data() -> None:
    data = {f"settings-{name}": value for name, value in _data(grace_ms=300).items()}
    form = _form_class()(data, prefix="settings")
    assert form.is_valid(), form.errors
    assert form.config.grace_ms == 300


# --------------------------------------------------------------------------------------------
# SessionForm and friends


def test_session_form_offers_only_the_teachers_own_classes(
    school_class: SchoolClass, teacher: User, other_teacher: User
) -> None:
    mine_too = class_create(teacher=teacher, name="Year 4 Owls", student_names=[])
    theirs = class_create(teacher=other_teacher, name="Year 6 Bears", student_names=[])
    field = SessionForm(teacher=teacher).fields["school_class"]
    assert isinstance(field, forms.ModelChoiceField)
    assert field.queryset is not None
    assert set(field.queryset) == {school_class, mine_too}
    assert set(SessionForm(teacher=other_teacher).fields["school_class"].queryset) == {theirs}  # type: ignore[attr-defined]


def test_session_form_refuses_another_teachers_class(
    school_class: SchoolClass, other_teacher: User
) -> None:
    form = SessionForm(
        {"game": "palm_strike", "school_class": str(school_class.pk), "players_per_table": "4"},
        teacher=other_teacher,
    )
    assert not form.is_valid()
    assert list(form.errors) == ["school_class"]


def test_session_form_accepts_own_class_or_guests(school_class: SchoolClass, teacher: User) -> None:
    own = SessionForm(
        {"game": "palm_strike", "school_class": str(school_class.pk), "players_per_table": "3"},
        teacher=teacher,
    )
    assert own.is_valid(), own.errors
    assert own.cleaned_data["school_class"] == school_class
    guests = SessionForm(
        {"game": "palm_strike", "school_class": "", "players_per_table": "3"}, teacher=teacher
    )
    assert guests.is_valid(), guests.errors
    assert guests.cleaned_data["school_class"] is None


def test_session_form_games_and_table_sizes(teacher: User) -> None:
    form = SessionForm(teacher=teacher)
    games = [slug for slug, _name in form.fields["game"].choices]  # type: ignore[attr-defined]
    assert games == ["palm_strike", "commotion", "riff_raff"]
    assert form.fields["players_per_table"].initial == SPEC.default_players
    for bad in ["1", "9", "many"]:
        bound = SessionForm(
            {"game": "palm_strike", "players_per_table": bad, "school_class": ""},
            teacher=teacher,
        )
        assert not bound.is_valid()
        assert list(bound.errors) == ["players_per_table"]
    unknown = SessionForm(
        {"game": "chess", "players_per_table": "2", "school_class": ""}, teacher=teacher
    )
    assert list(unknown.errors) == ["game"]


def test_class_form_reports_name_list_problems_on_the_names_field() -> None:
    form = ClassForm({"name": "Year 3", "student_names": "Ava\nava\nMi\x07a"})
    assert not form.is_valid()
    assert list(form.errors) == ["student_names"]
    assert len(form.errors["student_names"]) == 2
    ok = ClassForm({"name": "Year 3", "student_names": "Ava\n\nBen"})
    assert ok.is_valid()
    assert ok.cleaned_data["student_names"] == ["Ava", "Ben"]


def test_join_code_form_normalizes() -> None:
    form = JoinCodeForm({"code": " abc-234 "})
    assert form.is_valid()
    assert form.cleaned_data["code"] == "ABC234"
