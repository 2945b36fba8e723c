"""The console's trend arrow: is a child getting faster or slower during this game? (pure)

The rule, in one place so that a better one (reliable-change indices) can replace it:

* The arrow compares the mean of a child's last third of correct, plausible reaction times
  with the mean of their first third (k = n // 3 each). The relative change is
  (first - last) / first: positive is faster.
* It is an arrow only when a change of ``CHANGE`` (a fifth) would be more than chance at the
  stated level (two-sided 95 %, z = ``Z``). The standard error of that relative change is
  about cv * sqrt(2 / k), with cv the spread of one child's times (their SD over their mean;
  the SE of a difference of two means of k, in the means' unit: Howell, D. C. (2013),
  *Statistical Methods for Psychology*, 8th ed., ch. 7). So the fewest answers are the
  smallest n = 3k with z * cv * sqrt(2 / k) <= ``CHANGE``, that is
  k = ceil(2 * (z * cv / CHANGE) ** 2), and never fewer than ``FEWEST``.
* cv comes from the data: the class's own times this game, pooled over the children who have
  at least two (each child's squared cv weighted by n - 1). A class whose times vary by 30 %
  of their mean needs 54 answers from a child before that child's arrow shows.
* With at least that many answers: ▲ faster when the change is ``CHANGE`` or more, ▼ slower
  at ``-CHANGE`` or less, ▶ steady between. With fewer: no arrow at all (``FEW``).
"""

from __future__ import annotations

import math
import statistics
import typing

if typing.TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

FEW = "few"
IMPROVING = "improving"
STEADY = "steady"
DECLINING = "declining"

# The change an arrow stands for: a fifth faster or slower.
CHANGE = 0.20
# Two-sided 95 %.
Z = 1.96
# Two answers in each third at the very least: one is no mean to compare.
FEWEST = 6


def pooled_spread(series: Iterable[Sequence[float]]) -> float | None:
    """The children's typical coefficient of variation: sqrt(sum((n - 1) cv^2) / sum(n - 1))
    over every series with at least two times and a positive mean; ``None`` without one."""
    weighted = 0.0
    weights = 0
    for times in series:
        if len(times) < 2:
            continue
        mean = statistics.fmean(times)
        if mean <= 0:
            continue
        weighted += (len(times) - 1) * (statistics.stdev(times) / mean) ** 2
        weights += len(times) - 1
    return math.sqrt(weighted / weights) if weights else None


def fewest_answers(spread: float, *, change: float = CHANGE, z: float = Z) -> int:
    """The smallest n (a multiple of three, at least ``FEWEST``) at which a relative change of
    ``change`` between the outer thirds is beyond ``z`` standard errors, for times whose
    coefficient of variation is ``spread``. Raises ``ValueError`` unless ``change`` > 0 and
    ``spread`` >= 0."""
    if change <= 0:
        raise ValueError(f"change must be more than zero, got {change}")
    if spread < 0:
        raise ValueError(f"spread must be zero or more, got {spread}")
    k = math.ceil(2 * (z * spread / change) ** 2)
    return max(FEWEST, 3 * k)


def live_trend(times: Sequence[float], *, fewest: int | None, change: float = CHANGE) -> str:
    """``FEW`` with fewer than ``fewest`` times (or no ``fewest`` yet), else ``IMPROVING``,
    ``STEADY`` or ``DECLINING`` by the relative change of the outer thirds' means."""
    if fewest is None or len(times) < max(fewest, FEWEST):
        return FEW
    k = len(times) // 3
    first = statistics.fmean(times[:k])
    if first <= 0:
        return STEADY
    faster = (first - statistics.fmean(times[-k:])) / first
    if faster >= change:
        return IMPROVING
    if faster <= -change:
        return DECLINING
    return STEADY
