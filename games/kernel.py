"""What every engine does the same way, written once: the table state's common part, the
act preamble, refusals, the changes accumulator, replay and retune.

Pure Python like the engines. A refusal is *returned* (a :class:`Refusal` value, like
boardgame.io's ``INVALID_MOVE``), never raised: a rule function answers ``Changes`` or a
``Refusal``, and :func:`refused` turns one into an outcome carrying the unchanged state.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from games.contract import Event, Outcome, Trial
from games.fingerprint import state_fingerprint
from games.rng import rng_copy

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Mapping, Sequence

    from games.contract import LogEntry

ConfigT = TypeVar("ConfigT")
BotT = TypeVar("BotT")
StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)
TableT = TypeVar("TableT", bound="TableState[Any, Any]")
ParsedT = TypeVar("ParsedT")


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
        new one from the OS). Games on a hot path override this with a hand-written copy."""
        return copy.deepcopy(self, {id(self.rng): rng_copy(self.rng)})

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
    action: Mapping[str, Any],
    *,
    parse: Callable[[Mapping[str, Any]], ParsedT | str],
    over: bool,
) -> ParsedT | Refusal:
    """The checks every engine's ``act`` makes first, in this order: the game is not
    ``over``, the action parses, the seat is at the table and played by a child."""
    if over:
        return Refusal(GAME_OVER)
    parsed = parse(action)
    if isinstance(parsed, str):
        return Refusal(parsed)
    if seat not in state.seats:
        return Refusal(gettext_noop("You do not have a seat at this table."))
    if seat in state.bots:
        return Refusal(gettext_noop("That seat is played by the computer."))
    return parsed


# --------------------------------------------------------------------------------------------
# Replay and retune


def log_replay(
    state: StateT,
    log: Sequence[LogEntry],
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
    act: Callable[[StateT, int, Mapping[str, Any], int], Outcome[StateT]],
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
