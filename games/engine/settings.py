"""Game settings: every game declares a frozen ``Config`` dataclass whose fields are made
with :func:`setting`.

That dataclass is the one source of truth for defaults, ranges, choices and labels; the site
builds its settings form from it and engines validate with it. Pure Python like the engines.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

from games.engine.translation import gettext_noop

if typing.TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


class SettingError(ValueError):
    """A game setting is missing, of the wrong type, or out of its range.

    ``message`` is an English template (marked for translation) filled from ``params``, so the
    site can show it in the teacher's language.
    """

    def __init__(self, setting: str, message: str, params: Mapping[str, Any] | None = None) -> None:
        self.setting = setting
        self.message = message
        self.params = dict(params or {})
        super().__init__(f"{setting}: {message % self.params}")


@dataclass(frozen=True)
class SettingSpec:
    """How one Config field is presented and bounded."""

    label: str
    help: str = ""
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    # (other setting, value): this setting only matters when that one has that value.
    shown_when: tuple[str, Any] | None = None


@dataclass(frozen=True)
class SettingInfo:
    """A Config field as the settings form needs it."""

    name: str
    kind: type
    default: Any
    spec: SettingSpec


def setting(
    default: Any,
    *,
    label: str,
    help: str = "",
    choices: Sequence[tuple[Any, str]] = (),
    minimum: float | None = None,
    maximum: float | None = None,
    step: float | None = None,
    shown_when: tuple[str, Any] | None = None,
) -> Any:
    """Declare a Config field with its default, label and bounds."""
    spec = SettingSpec(
        label=label,
        help=help,
        choices=tuple(choices),
        minimum=minimum,
        maximum=maximum,
        step=step,
        shown_when=shown_when,
    )
    return field(default=default, metadata={"setting": spec})


def response_window(*, label: str, help: str) -> Any:
    """A Config field for how long a stimulus stays open for a response, in seconds: the same
    bounds in every game (1 to 5 in half seconds, 2.5 by default), so a teacher's sense of
    "a short window" carries from one game to the next."""
    return setting(2.5, label=label, help=help, minimum=1.0, maximum=5.0, step=0.5)


# A bot-level setting's choices: the skill names every game's ``BOT_LEVELS`` has.
BOT_LEVEL_CHOICES: tuple[tuple[str, str], ...] = (
    ("gentle", gettext_noop("Gentle")),
    ("steady", gettext_noop("Steady")),
    ("quick", gettext_noop("Quick")),
)


def config_settings(config_cls: type[Any]) -> list[SettingInfo]:
    """The declared settings of a Config dataclass, in declaration order."""
    cls: type = config_cls
    return list(_config_settings(cls))


@functools.cache
def _config_settings(config_cls: type) -> tuple[SettingInfo, ...]:
    # Read once per class: resolving the type hints costs milliseconds, and every Config
    # built (a join's table size, each table host) asks.
    hints = typing.get_type_hints(config_cls)
    infos = []
    for config_field in dataclasses.fields(config_cls):
        spec = config_field.metadata.get("setting")
        if spec is None:
            continue
        kind = hints[config_field.name]
        if typing.get_origin(kind) is typing.Literal:
            kind = type(typing.get_args(kind)[0])
        infos.append(SettingInfo(config_field.name, kind, config_field.default, spec))
    return tuple(infos)


def _check_value(info: SettingInfo, value: Any) -> Any:
    """Coerce and bound one value, or raise SettingError naming the setting."""
    spec = info.spec
    if info.kind is bool:
        if not isinstance(value, bool):
            raise SettingError(info.name, gettext_noop("Must be true or false."))
        return value
    if info.kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingError(info.name, gettext_noop("Must be a whole number."))
    elif info.kind is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise SettingError(info.name, gettext_noop("Must be a number."))
        value = float(value)
        if not math.isfinite(value):
            raise SettingError(info.name, gettext_noop("Must be a number."))
    elif info.kind is str and not isinstance(value, str):
        raise SettingError(info.name, gettext_noop("Must be text."))
    if spec.choices and value not in {choice for choice, _label in spec.choices}:
        allowed = ", ".join(str(choice) for choice, _label in spec.choices)
        raise SettingError(
            info.name, gettext_noop("Must be one of %(allowed)s."), {"allowed": allowed}
        )
    if spec.minimum is not None and value < spec.minimum:
        raise SettingError(
            info.name, gettext_noop("Must be at least %(minimum)g."), {"minimum": spec.minimum}
        )
    if spec.maximum is not None and value > spec.maximum:
        raise SettingError(
            info.name, gettext_noop("Must be at most %(maximum)g."), {"maximum": spec.maximum}
        )
    return value


def range_check(name: str, value: float, low: float, high: float, *, unit: str = "") -> None:
    """Raise SettingError for ``name`` unless ``low <= value <= high``.

    For values a program sets (a bot's skill), never shown to players: the message is not
    marked for translation.
    """
    if not low <= value <= high:
        raise SettingError(name, f"Must be between {low:g} and {high:g}{unit}.")


def validate_settings(config: Any) -> None:
    """Check and coerce every declared field of a Config instance; call from ``__post_init__``."""
    for info in config_settings(type(config)):
        value = _check_value(info, getattr(config, info.name))
        # Frozen dataclass: store the coerced value (an int given for a float setting).
        object.__setattr__(config, info.name, value)


ConfigT = TypeVar("ConfigT")


def config_from_values(config_cls: type[ConfigT], values: Mapping[str, Any]) -> ConfigT:
    """Build a Config from plain values (a form, stored JSON); unknown names are an error."""
    known = {info.name for info in config_settings(config_cls)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise SettingError(unknown[0], gettext_noop("Is not a setting of this game."))
    return config_cls(**values)


def config_to_values(config: Any) -> dict[str, Any]:
    """The plain, JSON-ready values of a Config."""
    return {info.name: getattr(config, info.name) for info in config_settings(type(config))}
