"""The engine contract shared by every game, game settings, and the game registry.

Pure Python: no Django, no asyncio, no clock, no I/O. Time enters engines only as a
``now_ms`` argument and randomness only from a seeded ``random.Random`` kept in the state.

Settings: every game declares a frozen ``Config`` dataclass whose fields are made with
:func:`setting`. That dataclass is the one source of truth for defaults, ranges, choices and
labels; the site builds its settings form from it and engines validate with it.
"""

from __future__ import annotations

import dataclasses
import importlib
import math
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Sequence


def gettext_noop(message: str) -> str:
    """Mark a label for translation without importing Django (xgettext finds the call)."""
    return message


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


def config_settings(config_cls: type[Any]) -> list[SettingInfo]:
    """The declared settings of a Config dataclass, in declaration order."""
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
    return infos


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
# The engine contract

StateT = TypeVar("StateT")


@dataclass(frozen=True)
class Event:
    """Something that happened, for animation and the teacher's feed."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Trial:
    """One scored response opportunity of one seat, for analytics.

    ``data`` is the game's own record of it. These keys, where a game has them, become
    columns the analytics aggregate: ``level``, ``target`` (a response was called for),
    ``responded``, ``rt_ms``, ``plausible``, ``correct`` and ``congruent`` (Stroop games).
    """

    seat: int
    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome(Generic[StateT]):
    """The result of one input or timer: the next state, or a readable rejection.

    A rejected outcome carries the *unchanged* state, so callers never need to special-case it.
    """

    state: StateT
    events: tuple[Event, ...] = ()
    trials: tuple[Trial, ...] = ()
    rejected: str | None = None
    # False for a timer that only moved things along a deterministic path (physics steps on a
    # fixed grid): the host streams it but does not log it, since replaying the next logged
    # entry recomputes it exactly.
    logged: bool = True
    # Engine data (JSON-ready) the host stores with a logged *tick*, as its payload
    # ``{"checkpoint": ...}``, so replay restores it instead of recomputing it (physics body
    # positions, so a restart never rests on float replay alone). Only ticks carry one: an
    # act's log entry is the player's input as sent.
    checkpoint: Mapping[str, Any] | None = None

    @property
    def accepted(self) -> bool:
        return self.rejected is None


# One log entry as engines replay it: ("act", seat, action, now_ms) or ("tick", None, payload,
# now_ms), the payload None or {"checkpoint": ...} (see ``Outcome.checkpoint``), or
# ("bot", seat, {"bot": level}, now_ms): from then on the computer plays that seat (its child
# was taken off the class list mid-game; see ``Engine.takeover``).
ReplayEntry = tuple[str, int | None, Mapping[str, Any] | None, int]


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


def log_replay(
    state: StateT,
    log: Sequence[ReplayEntry],
    *,
    act: Callable[[StateT, int, Mapping[str, Any], int], Outcome[StateT]],
    tick: Callable[[StateT, int], Outcome[StateT]],
    restore: Callable[[StateT, Mapping[str, Any]], StateT] | None = None,
    takeover: Callable[[StateT, int, str, int], Outcome[StateT]] | None = None,
) -> StateT:
    """Apply a table's log to ``state`` (just set up): every engine's ``replay``.

    Entries are ``("act", seat, action, now_ms)`` and ``("tick", None, payload, now_ms)``; a
    refused input in the log is refused again and changes nothing. A tick's stored
    ``{"checkpoint": ...}`` goes to ``restore`` with the state after that tick (engines
    without checkpoints pass no ``restore``, and their ticks have no payload). A ``("bot",
    seat, {"bot": level}, now_ms)`` entry goes to ``takeover``.
    """
    for kind, seat, action, now_ms in log:
        if kind == "tick":
            state = tick(state, now_ms).state
            checkpoint = action.get("checkpoint") if action is not None else None
            if checkpoint is not None and restore is not None:
                state = restore(state, checkpoint)
        elif kind == "act" and seat is not None and action is not None:
            state = act(state, seat, action, now_ms).state
        elif kind == "bot" and seat is not None and action is not None and takeover is not None:
            state = takeover(state, seat, str(action.get("bot", "")), now_ms).state
        else:
            raise ValueError(f"not a log entry: {(kind, seat, action, now_ms)!r}")
    return state


class Engine(Protocol[StateT]):
    """What every game module exposes (and what a table host drives)."""

    def setup(
        self, config: Any, seats: Sequence[int], seed: int, bots: Mapping[int, Any] | None = None
    ) -> StateT: ...

    def act(
        self, state: StateT, seat: int, action: Mapping[str, Any], now_ms: int
    ) -> Outcome[StateT]: ...

    def tick(self, state: StateT, now_ms: int) -> Outcome[StateT]: ...

    def next_deadline(self, state: StateT) -> int | None:
        """The earliest game time at which ``tick`` will have something to do."""
        ...

    def view(self, state: StateT, seat: int | None) -> dict[str, Any]: ...

    def takeover(self, state: StateT, seat: int, level: str, now_ms: int) -> Outcome[StateT]:
        """From ``now_ms`` on, a bot of ``level`` plays ``seat`` (its player left for good):
        timers due by then run first, then the seat plays as if it had been a bot all along
        from that moment. Taking a bot's seat over again changes nothing."""
        ...

    def replay(
        self,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[ReplayEntry],
    ) -> StateT:
        """The state after ``setup`` and every log entry, in order."""
        ...


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
    # Dotted path of the module with setup/act/tick/view/next_deadline/replay.
    engine_path: str
    # A bot of the named skill level ("steady" …), as the engine's ``bots`` argument wants it.
    make_bot: Callable[[str], Any]
    single_table: Callable[[Any], bool] = lambda _config: False
    # Bots take every empty seat of a table (up to the session's players per table), not
    # just enough to reach ``min_players``: a race needs rivals.
    bots_fill_table: bool = False
    seat_options: tuple[SeatOption, ...] = ()
    # The Config one table's engine gets: the session's, with its seats' options folded in.
    table_config: Callable[[Any, Sequence[Mapping[str, Any]]], Any] = _same_config
    # Adaptive difficulty (games.adaptive): setting overrides, easiest rung first.
    ladder: tuple[Mapping[str, Any], ...] = ()

    def seat_option(self, name: str) -> SeatOption | None:
        return next((option for option in self.seat_options if option.name == name), None)

    def config(self, values: Mapping[str, Any]) -> Any:
        return config_from_values(self.config_cls, values)

    def default_config(self) -> Any:
        return self.config_cls()

    def engine(self) -> Any:
        return importlib.import_module(self.engine_path)
