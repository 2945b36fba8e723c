"""A settings form generated from a game's frozen Config dataclass.

The dataclass holds defaults, ranges, choices and labels; this module only maps them to form
fields, so a new setting needs no form code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.utils.translation import gettext as _

from games.engine.settings import SettingError, SettingInfo, config_settings

if TYPE_CHECKING:
    from games.engine.spec import GameSpec


def _field_for(info: SettingInfo) -> forms.Field:
    spec = info.spec
    common: dict[str, Any] = {
        "label": _(spec.label),
        "help_text": _(spec.help) if spec.help else "",
        "initial": info.default,
    }
    field = _input_field(info, common)
    if spec.shown_when is not None:
        # The page hides this field unless the other setting has that value (static/js/live.js).
        other, value = spec.shown_when
        field.widget.attrs["data-shown-when"] = other
        field.widget.attrs["data-shown-value"] = str(value).lower()
    return field


def _input_field(info: SettingInfo, common: dict[str, Any]) -> forms.Field:
    spec = info.spec
    if info.kind is bool:
        return forms.BooleanField(required=False, **common)
    if spec.choices:
        choices = [(value, _(label)) for value, label in spec.choices]
        kind = info.kind
        return forms.TypedChoiceField(choices=choices, coerce=lambda value: kind(value), **common)
    if info.kind is int:
        return forms.IntegerField(
            min_value=None if spec.minimum is None else int(spec.minimum),
            max_value=None if spec.maximum is None else int(spec.maximum),
            **common,
        )
    field = forms.FloatField(min_value=spec.minimum, max_value=spec.maximum, **common)
    if spec.step is not None:
        field.widget.attrs["step"] = str(spec.step)
    return field


class GameSettingsForm(forms.Form):
    spec: GameSpec

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        try:
            self.config = self.spec.config(cleaned)
        except SettingError as error:
            field = error.setting if error.setting in self.fields else None
            self.add_error(field, _(error.message) % error.params)
        return cleaned


def game_settings_form_class(spec: GameSpec) -> type[GameSettingsForm]:
    fields: dict[str, Any] = {
        info.name: _field_for(info) for info in config_settings(spec.config_cls)
    }
    fields["spec"] = spec
    return type(f"{spec.slug.title()}SettingsForm", (GameSettingsForm,), fields)
