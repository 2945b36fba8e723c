"""What every engine does the same way, written once: the table state's common part,
reading a player's input, the act preamble, refusals, the changes accumulator, replay and
retune.

Pure Python like the engines. A refusal is *returned* (a :class:`Refusal` value, like
boardgame.io's ``INVALID_MOVE``), never raised: a rule function answers ``Changes`` or a
``Refusal``, and :func:`refused` turns one into an outcome carrying the unchanged state.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, Generic, Protocol, TypeVar

import msgspec

from games.contract import Event, GameAction, Outcome, Trial
from games.fingerprint import state_fingerprint
from games.rng import rng_copy

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    from games.contract import ActionInput, LogEntry

ConfigT = TypeVar("ConfigT")
BotT = TypeVar("BotT")
StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)
TableT = TypeVar("TableT", bound="TableState[Any, Any]")
ActionT = TypeVar("ActionT", bound=GameAction)


def gettext_noop(message: str) -> str:
    """Mark a label for translation without importing Django (xgettext finds the call)."""
    return message


# --------------------------------------------------------------------------------------------
# The table state


@dataclass(eq=False)
class TableState(Generic[ConfigT, BotT]):
    """The part of every game's State: its settings, seats, bots and seeded generator.

    Plain data; rule functions work on :meth:`clone` and return the copy, so a host may keep
    old states. Two states are equal when their fingerprints are (``random.Random``
    compares by identity, so a field-by-field ``==`` would never hold).
    """

    config: ConfigT
    seats: tuple[int, ...]
    bots: dict[int, BotT]
    rng: random.Random

    def clone(self: TableT) -> TableT:
        """A deep, independent copy (the generator copied by hand: deepcopy would seed a
        new one from the OS). Games on a hot path override this with a hand-written copy,
        made with :meth:`copied`."""
        return copy.deepcopy(self, {id(self.rng): rng_copy(self.rng)})

    def copied(self: TableT, **fields: Any) -> TableT:
        """A copy with its own bots and generator, and ``fields`` (a hand-written clone
        passes a copy of every other mutable field here; immutable values are shared)."""
        return dataclasses.replace(self, bots=dict(self.bots), rng=rng_copy(self.rng), **fields)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TableState):
            return NotImplemented
        return state_fingerprint(self) == state_fingerprint(other)

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable


# --------------------------------------------------------------------------------------------
# Refusals and changes


@dataclass(frozen=True)
class Refusal:
    """An input that is not allowed now: the sentence shown to the player, and the trial it
    still is (a real card played where it does not fit is a false alarm)."""

    message: str
    trial: Trial | None = None


def refused(state: StateT, refusal: Refusal) -> Outcome[StateT]:
    """The outcome of a refused input: ``state`` itself, unchanged."""
    found = (refusal.trial,) if refusal.trial is not None else ()
    return Outcome(state=state, rejected=refusal.message, trials=found)


@dataclass
class Changes:
    """The events and trials one input or timer produces, gathered as the rules run."""

    events: list[Event] = field(default_factory=list)
    trials: list[Trial] = field(default_factory=list)

    def event(self, kind: str, **data: Any) -> None:
        self.events.append(Event(kind, data))

    def add(self, events: Sequence[Event] = (), trials: Sequence[Trial] = ()) -> None:
        self.events.extend(events)
        self.trials.extend(trials)

    def outcome(self, state: StateT, **extra: Any) -> Outcome[StateT]:
        return Outcome(state=state, events=tuple(self.events), trials=tuple(self.trials), **extra)


GAME_OVER = gettext_noop("The game is over.")


def act_preamble(
    state: TableState[Any, Any],
    seat: int,
    action: object,
    *,
    actions: ActionSchema[ActionT],
    over: bool,
) -> ActionT | Refusal:
    """The checks every engine's ``act`` makes first, in this order: the game is not
    ``over``, the input is one of the game's ``actions``, the seat is at the table and
    played by a child."""
    if over:
        return Refusal(GAME_OVER)
    parsed = actions.read(action)
    if isinstance(parsed, str):
        return Refusal(parsed)
    if seat not in state.seats:
        return Refusal(gettext_noop("You do not have a seat at this table."))
    if seat in state.bots:
        return Refusal(gettext_noop("That seat is played by the computer."))
    return parsed


# --------------------------------------------------------------------------------------------
# Player inputs

# Timings a tablet measures, as any game's actions bound them (ms).
ReactionMs = Annotated[int, msgspec.Meta(ge=0, le=60_000)]
RoundTripMs = Annotated[int, msgspec.Meta(ge=0, le=10_000)]

UNREADABLE = gettext_noop("That move could not be read.")
NOT_THIS_GAME = gettext_noop("That move is not part of this game.")


@dataclass(frozen=True)
class FieldRefusals:
    """What to tell a player whose input has this field missing, of the wrong type (a text
    for a number, 1.5 for a whole number, true for a number), or out of its range.

    Whole constant sentences, not templates, so each is found and translated as it stands.
    """

    missing: str
    wrong: str
    out_of_range: str

    @classmethod
    def one(cls, message: str) -> FieldRefusals:
        """The same sentence whatever is wrong with the field."""
        return cls(missing=message, wrong=message, out_of_range=message)


# The timings every game's actions carry (``ReactionMs``, ``RoundTripMs``).
TIMING_REFUSALS: Mapping[str, FieldRefusals] = {
    "rt_ms": FieldRefusals(
        missing=gettext_noop("The reaction time is missing."),
        wrong=gettext_noop("The reaction time must be a whole number."),
        out_of_range=gettext_noop("The reaction time is out of range."),
    ),
    "rtt_ms": FieldRefusals(
        missing=gettext_noop("The round-trip time is missing."),
        wrong=gettext_noop("The round-trip time must be a whole number."),
        out_of_range=gettext_noop("The round-trip time is out of range."),
    ),
}

# How msgspec says what is wrong (msgspec.ValidationError's text).
_MISSING_FIELD = re.compile(r"Object missing required field `(?P<name>[^`]+)`")
_AT_FIELD = re.compile(r" - at `\$\.(?P<name>\w+)")
_OUT_OF_RANGE = re.compile(r"Expected `[^`]+` (?:>=|<=|>|<|of length)")


@dataclass(frozen=True)
class ActionSchema(Generic[ActionT]):
    """One game's actions (msgspec Structs, see ``games.contract.GameAction``) and the
    sentences that tell a player why an input cannot be read.

    :meth:`read` is the one way an input becomes an action: a decoded action of this game is
    taken as it is; a plain dict (the action log, a test) is converted with msgspec against
    the same Structs. Whether the move is allowed *now* is the rules' business.
    """

    kinds: tuple[type[ActionT], ...]
    # Per field name, what to say when msgspec refuses it.
    refusals: Mapping[str, FieldRefusals]
    # The checks a Struct cannot state (a list naming a seat twice, a bound narrower than the
    # wire's), and normalising (a field that is ignored in some case): the action to play, or
    # the sentence refusing it.
    finish: Callable[[ActionT], ActionT | str] | None = None

    @cached_property
    def _by_kind(self) -> dict[str, type[ActionT]]:
        return {str(kind.__struct_config__.tag): kind for kind in self.kinds}

    def tags(self) -> tuple[str, ...]:
        """The ``kind`` of every action of the game."""
        return tuple(self._by_kind)

    def read(self, raw: object) -> ActionT | str:
        """The action ``raw`` is, or a short sentence saying why it cannot be read.

        A plain dict is read as the engine always has: keys that are not a field of its
        action are ignored, and a null counts as left out (the wire is stricter: it refuses
        both before the engine sees anything).
        """
        if isinstance(raw, GameAction):
            if not isinstance(raw, self.kinds):
                return NOT_THIS_GAME
            action: ActionT = raw
        else:
            if not isinstance(raw, Mapping):
                return UNREADABLE
            kind = raw.get("kind")
            cls = self._by_kind.get(kind) if isinstance(kind, str) else None
            if cls is None:
                return NOT_THIS_GAME
            given = {
                name: value
                for name in cls.__struct_fields__
                if (value := raw.get(name)) is not None
            }
            try:
                action = msgspec.convert({**cls.plain_defaults, **given, "kind": kind}, cls)
            except msgspec.ValidationError as error:
                return self._refusal(str(error))
        return self.finish(action) if self.finish is not None else action

    def _refusal(self, error: str) -> str:
        """The game's sentence for msgspec's ``error``."""
        missing = _MISSING_FIELD.match(error)
        if missing is not None:
            said = self.refusals.get(missing["name"])
            return said.missing if said is not None else UNREADABLE
        at = _AT_FIELD.search(error)
        said = self.refusals.get(at["name"]) if at is not None else None
        if said is None:
            return UNREADABLE
        return said.out_of_range if _OUT_OF_RANGE.match(error) else said.wrong


def action_plain(action: ActionInput) -> dict[str, Any]:
    """The JSON form of an input, as the action log stores it (``kind`` and every field)."""
    if isinstance(action, GameAction):
        plain: dict[str, Any] = msgspec.to_builtins(action)
        return plain
    return dict(action)


# --------------------------------------------------------------------------------------------
# Replay and retune


def log_replay(
    state: StateT,
    log: Sequence[LogEntry],
    *,
    act: Callable[[StateT, int, ActionInput, int], Outcome[StateT]],
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


class Replay(Protocol[StateT_co]):
    """A game's ``replay``: the state after ``setup`` and every log entry, in order."""

    def __call__(
        self,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any] | None,
        log: Sequence[LogEntry],
    ) -> StateT_co: ...


def replayer(
    *,
    setup: Callable[[Any, Sequence[int], int, Mapping[int, Any] | None], StateT],
    act: Callable[[StateT, int, ActionInput, int], Outcome[StateT]],
    tick: Callable[[StateT, int], Outcome[StateT]],
    takeover: Callable[[StateT, int, str, int], Outcome[StateT]],
    restore: Callable[[StateT, Mapping[str, Any]], StateT] | None = None,
) -> Replay[StateT]:
    """Every game's ``replay``, made from its rules: rebuild a table from its seed and its
    log (see :func:`log_replay`); a tick's logged checkpoint goes to ``restore``."""

    def replay(
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any] | None,
        log: Sequence[LogEntry],
    ) -> StateT:
        return log_replay(
            setup(config, seats, seed, bots),
            log,
            act=act,
            tick=tick,
            restore=restore,
            takeover=takeover,
        )

    return replay


def retune(state: TableT, step: Mapping[str, Any]) -> TableT:
    """A copy of ``state`` with one ladder rung's settings; SettingError if invalid. Each
    game decides *when* (its own ``retune`` may answer None) and which settings it keeps."""
    twin = state.clone()
    twin.config = dataclasses.replace(state.config, **step)
    return twin
