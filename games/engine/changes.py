"""The events and trials one input or timer produces, gathered as a game's rules run."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from games.engine.contract import Event, Outcome, Trial

if TYPE_CHECKING:
    from collections.abc import Sequence

StateT = TypeVar("StateT")


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
