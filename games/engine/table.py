"""The part of every game's State that is the same: settings, seats, bots and the seeded
generator, and the checks ``setup`` makes of a table before dealing.

Pure Python like the engines.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from games.engine.fingerprint import state_fingerprint
from games.engine.rng import rng_copy
from games.engine.settings import SettingError

if TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence

ConfigT = TypeVar("ConfigT")
BotT = TypeVar("BotT")
TableT = TypeVar("TableT", bound="TableState[Any, Any]")


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
