"""Adaptive difficulty: a transformed up-down staircase over a game's ladder of levels.

After ``correct_to_harder`` correct answers in a row the child moves one rung up (harder); after
one error, one rung down. With three correct to move up, the level settles where the child is
right about 79 % of the time (0.5 ** (1/3) = 0.794, Levitt 1971): hard enough to learn from,
easy enough to enjoy. Pure: the staircase is a value; each answer gives the next one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

# Correct answers in a row before a step up; 3 targets 79.4 % correct, 2 would target 70.7 %.
CORRECT_TO_HARDER = 3


@dataclass(frozen=True)
class Staircase:
    """Where one child stands on a ladder of ``rungs`` levels (0 = easiest)."""

    rungs: int
    rung: int = 0
    streak: int = 0  # correct answers in a row since the last step
    reversals: int = 0  # direction changes so far: how settled the staircase is
    last_step: int = 0  # +1 up, -1 down, 0 none yet
    correct_to_harder: int = CORRECT_TO_HARDER

    def __post_init__(self) -> None:
        if self.rungs < 1:
            raise ValueError("a ladder needs at least one rung")
        if not 0 <= self.rung < self.rungs:
            raise ValueError(f"rung {self.rung} is not on a ladder of {self.rungs}")
        if self.correct_to_harder < 1:
            raise ValueError("correct_to_harder must be at least 1")

    def answered(self, *, correct: bool) -> Staircase:
        """The staircase after one more answer."""
        if not correct:
            return self._step(-1) if self.rung > 0 else replace(self, streak=0)
        streak = self.streak + 1
        if streak < self.correct_to_harder:
            return replace(self, streak=streak)
        return self._step(+1) if self.rung < self.rungs - 1 else replace(self, streak=0)

    def _step(self, direction: int) -> Staircase:
        reversal = self.last_step != 0 and direction != self.last_step
        return replace(
            self,
            rung=self.rung + direction,
            streak=0,
            reversals=self.reversals + int(reversal),
            last_step=direction,
        )
