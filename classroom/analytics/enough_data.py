"""Enough data to show a figure: the fewest trials a measure needs, from its measured
reliability, and whether a child has played that many.

Pure Python: no Django, no I/O, no clock.

The Spearman-Brown prophecy (Spearman 1910; Brown 1910, *British Journal of Psychology* 3)
says how reliable a measure would be at another length: a measure of reliability r at n
trials has reliability k r / (1 + (k - 1) r) at k n trials. Solving it for the length that
reaches a target reliability gives the minimum. The target is .70, the usual floor for
comparing groups and a common one for research use (Nunnally, J. C. (1978), *Psychometric
Theory*, 2nd ed., McGraw-Hill, p. 245).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from classroom.analytics.progress import gettext_noop

TARGET_RELIABILITY = 0.70

# What a page shows instead of a figure from too few trials; %(n)d of %(needed)d trials.
NEEDS_MORE_PLAY = gettext_noop("needs more play (%(n)d of %(needed)d)")


def minimum_trials(
    reliability: float, trials: float, *, target: float = TARGET_RELIABILITY
) -> int | None:
    """The fewest trials at which a measure reaches ``target`` reliability, given its
    ``reliability`` measured at ``trials`` trials per child (the Spearman-Brown prophecy).

    k = target (1 - r) / (r (1 - target)) times the length: N = ceil(k * trials), at least 1.
    ``None`` when r is 0 or below (no length makes the measure reliable). Raises
    ``ValueError`` for a reliability above 1, trials not > 0 or a target outside (0, 1).
    """
    if not 0 < target < 1:
        raise ValueError(f"target must be between 0 and 1, got {target}")
    if not trials > 0:
        raise ValueError(f"trials must be > 0, got {trials}")
    if reliability > 1:
        raise ValueError(f"reliability must be at most 1, got {reliability}")
    if reliability <= 0:
        return None
    if reliability == 1:
        return 1
    factor = target * (1 - reliability) / (reliability * (1 - target))
    # Rounded before the ceiling so that an exact length is not pushed up by float noise.
    return max(1, math.ceil(round(factor * trials, 9)))


@dataclass(frozen=True)
class EnoughData:
    """A child's trial count against the measure's minimum (``None``: no minimum known, as
    when the class is too small to measure the reliability)."""

    n: int
    needed: int | None

    @property
    def enough(self) -> bool:
        """Whether the figure may be shown as a number: n reaches the minimum, or no minimum
        is known (the figure is then shown with its interval, which says how sure it is)."""
        return self.needed is None or self.n >= self.needed

    def message(self) -> tuple[str, dict[str, int]] | None:
        """``NEEDS_MORE_PLAY`` and its params when there is a minimum not reached yet."""
        if self.needed is None or self.n >= self.needed:
            return None
        return NEEDS_MORE_PLAY, {"n": self.n, "needed": self.needed}
