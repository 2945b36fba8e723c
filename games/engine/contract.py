"""The engine contract: what every game's ``rules`` module is, and what a table host drives.

Pure types, no game and no runtime. A game's ``spec.py`` holds its rules module as
``GameSpec.rules``, typed :class:`Engine`, so mypy checks each game against this contract.
The extras only some engines have are small protocols of their own, asked for with
``isinstance`` (they are ``runtime_checkable``) instead of ``getattr``. A player's input is a
``games.engine.actions.GameAction``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.engine.actions import ActionInput

StateT = TypeVar("StateT")
StateT_contra = TypeVar("StateT_contra", contravariant=True)
SkillT = TypeVar("SkillT")

# ``setup``'s ``bots``: the seats the computer plays, each with its bot's skill (a game's own
# ``BotSkill``); None when every seat is a person's.
Bots: TypeAlias = Mapping[int, SkillT] | None


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
# was taken off the class list mid-game; see ``TakesOver.takeover``).
LogEntry = tuple[str, int | None, Mapping[str, Any] | None, int]


class TakesOver(Protocol[StateT]):
    """An engine whose seats a bot can take over mid-game (every game: the host needs it)."""

    def takeover(self, state: StateT, seat: int, level: str, now_ms: int) -> Outcome[StateT]:
        """From ``now_ms`` on, a bot of ``level`` plays ``seat`` (its player left for good):
        timers due by then run first, then the seat plays as if it had been a bot all along
        from that moment. Taking a bot's seat over again changes nothing."""
        ...


class Engine(TakesOver[StateT], Protocol[StateT]):
    """What every game's rules module exposes (and what a table host drives)."""

    def setup(
        self, config: Any, seats: Sequence[int], seed: int, bots: Bots[Any] = None
    ) -> StateT: ...

    def act(self, state: StateT, seat: int, action: ActionInput, now_ms: int) -> Outcome[StateT]:
        """One player input; anything that is not one of the game's actions is refused."""
        ...

    def tick(self, state: StateT, now_ms: int) -> Outcome[StateT]: ...

    def next_deadline(self, state: StateT) -> int | None:
        """The earliest game time at which ``tick`` will have something to do."""
        ...

    def view(self, state: StateT, seat: int | None) -> dict[str, Any]: ...

    def replay(
        self,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[LogEntry],
    ) -> StateT:
        """The state after ``setup`` and every log entry, in order."""
        ...


@runtime_checkable
class Retunable(Protocol[StateT]):
    """An engine an adaptive ladder can move (games.engine.adaptive)."""

    def retune(self, state: StateT, step: Mapping[str, Any]) -> StateT | None:
        """The state with one ladder rung's settings, or None if not at this moment.
        Raises SettingError if the settings are invalid together."""
        ...


@runtime_checkable
class Framed(Protocol[StateT_contra]):
    """An engine with moving parts: the host streams its ``frame`` between states."""

    def frame(self, state: StateT_contra) -> dict[str, Any]: ...


@runtime_checkable
class Restorable(Protocol[StateT]):
    """An engine whose logged ticks carry a checkpoint that replay restores."""

    def restore(self, state: StateT, checkpoint: Mapping[str, Any]) -> StateT: ...


class GameEngine(Engine[StateT], Retunable[StateT], Protocol[StateT]):
    """A game in the registry: an engine with an adaptive ladder."""
