"""The engine contract shared by every game, game settings, and the game registry.

Pure Python: no Django, no asyncio, no clock, no I/O. Time enters engines only as a
``now_ms`` argument and randomness only from a seeded ``random.Random`` kept in the state.

Settings: every game declares a frozen ``Config`` dataclass whose fields are made with
:func:`setting`. That dataclass is the one source of truth for defaults, ranges, choices and
labels; the site builds its settings form from it and engines validate with it.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import typing
from dataclasses import dataclass, field
from typing import Any, TypeVar

# The engine contract and kernel, re-exported for the callers that import them from here.
from games.contract import (
    Engine,
    Event,
    Framed,
    GameEngine,
    LogEntry,
    Outcome,
    ReplayEntry,
    Restorable,
    Retunable,
    TakesOver,
    Trial,
)
from games.kernel import ActionSchema, gettext_noop, log_replay

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "BOT_LEVEL_CHOICES",
    "ConfigT",
    "Engine",
    "Event",
    "Framed",
    "GameEngine",
    "GameSpec",
    "LogEntry",
    "Outcome",
    "ReplayEntry",
    "Restorable",
    "Retunable",
    "SeatOption",
    "SettingError",
    "SettingInfo",
    "SettingSpec",
    "TakesOver",
    "Trial",
    "config_from_values",
    "config_settings",
    "config_to_values",
    "gettext_noop",
    "log_replay",
    "seats_check",
    "setting",
    "validate_settings",
]


# --------------------------------------------------------------------------------------------
# Settings


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


# --------------------------------------------------------------------------------------------
# Setup checks


def seats_check(
    seats: Sequence[int], bots: Mapping[int, Any], *, low: int, high: int, skill_type: type
) -> None:
    """Refuse a bad table at ``setup``: seats whole, distinct and ``low..high`` of them;
    every bot seated and given a ``skill_type``.

    A bad table is a programming error of the caller, never shown to players, so these
    messages are not marked for translation.
    """
    if any(isinstance(seat, bool) or not isinstance(seat, int) for seat in seats):
        raise SettingError("seats", "Seats must be whole numbers.")
    if len(set(seats)) != len(seats):
        raise SettingError("seats", "A seat is listed twice.")
    if not low <= len(seats) <= high:
        raise SettingError(
            "seats", "This game needs %(low)d to %(high)d players.", {"low": low, "high": high}
        )
    if set(bots) - set(seats):
        raise SettingError("bots", "Every bot must have a seat.")
    if not all(isinstance(skill, skill_type) for skill in bots.values()):
        raise SettingError("bots", "Every bot needs a skill.")


# --------------------------------------------------------------------------------------------
# The registry


@dataclass(frozen=True)
class SeatOption:
    """A setting the teacher may give one student (a smaller refill pile …).

    The chosen value travels in the seat's roster entry under ``options``; the game's
    ``table_config`` folds the table's entries into the Config its engine gets.
    """

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    help: str = ""

    def accepts(self, value: Any) -> bool:
        return any(value == choice and type(value) is type(choice) for choice, _ in self.choices)


def _same_config(config: Any, roster: Sequence[Mapping[str, Any]]) -> Any:
    return config


@dataclass(frozen=True)
class GameSpec:
    """A game as the site knows it: its name, settings and table sizes."""

    slug: str
    name: str
    tagline: str
    config_cls: type[Any]
    min_players: int
    max_players: int
    default_players: int
    # The game's rules module (setup/act/tick/view/next_deadline/replay/takeover/retune),
    # typed so that mypy checks every game against the contract.
    rules: GameEngine[Any]
    # The game's player inputs (its actions.py); the wire (games.live.protocol) unions them.
    actions: ActionSchema[Any]
    # The bots the site offers, by skill level ("steady" fills empty seats), as the engine's
    # ``bots`` argument wants them.
    bot_levels: Mapping[str, Any]
    single_table: Callable[[Any], bool] = lambda _config: False
    # Bots take every empty seat of a table (up to the session's players per table), not
    # just enough to reach ``min_players``: a race needs rivals.
    bots_fill_table: bool = False
    seat_options: tuple[SeatOption, ...] = ()
    # The Config one table's engine gets: the session's, with its seats' options folded in.
    table_config: Callable[[Any, Sequence[Mapping[str, Any]]], Any] = _same_config
    # Adaptive difficulty (games.adaptive): setting overrides, easiest rung first.
    ladder: tuple[Mapping[str, Any], ...] = ()

    def make_bot(self, level: str) -> Any:
        """A bot of the named skill level (an unknown name: a steady one)."""
        return self.bot_levels.get(level, self.bot_levels["steady"])

    def seat_option(self, name: str) -> SeatOption | None:
        return next((option for option in self.seat_options if option.name == name), None)

    def config(self, values: Mapping[str, Any]) -> Any:
        return config_from_values(self.config_cls, values)

    def default_config(self) -> Any:
        return self.config_cls()

    def engine(self) -> GameEngine[Any]:
        return self.rules

    @property
    def engine_path(self) -> str:
        """The dotted name of the rules module."""
        name: str = getattr(self.rules, "__name__", type(self.rules).__name__)
        return name
