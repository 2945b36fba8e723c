"""The console's trend arrow: is a child getting faster or slower during this game? (pure)

The arrow is the reliable-change rule of the progress pages (``reliable_change.py``, Jacobson
& Truax 1991) over a window of one game, plus a size a teacher would notice:

* The two occasions are a child's first and last third of correct, plausible reaction times
  (k = n // 3 each). Each third's mean carries the error of a mean of k times,
  SEM = cv * first / sqrt(k), with cv the spread of one child's times (their SD over their
  mean); the difference of the two means has S_diff = sqrt(2) SEM, and the reliable-change
  index is (last - first) / S_diff. cv comes from the data: the class's own times this game,
  pooled over the children who have at least two (each child's squared cv weighted by n - 1).
* An arrow needs |RCI| > 1.96 (reliable at two-sided 95 %) and a change of at least
  ``CHANGE`` (a fifth): with many answers a change of a few per cent is reliable but not worth
  a teacher's glance during class. No practice effect is taken off: within one game the
  whole class speeding up is what the teacher sees on every tile, and an arrow says "this
  child", against their own start.
* The window opens at the fewest answers at which a change of a fifth can be reliable:
  z * cv * sqrt(2 / k) <= ``CHANGE``, so k = ceil(2 * (z * cv / CHANGE) ** 2) per third and
  n = 3k, never fewer than ``FEWEST`` (the SE of a difference of two means: Howell, D. C.
  (2013), *Statistical Methods for Psychology*, 8th ed., ch. 7). A class whose times vary by
  30 % of their mean needs 54 answers from a child before that child's arrow shows.
* In the window: ▲ faster or ▼ slower when the change is reliable and a fifth or more, ▶
  steady otherwise. Before it: no arrow at all (``FEW``).
"""

from __future__ import annotations

import math
import statistics
import typing

from classroom.analytics.reliable_change import DECLINED, IMPROVED, reliable_change

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


def live_trend(
    times: Sequence[float], *, spread: float | None, change: float = CHANGE, z: float = Z
) -> str:
    """``FEW`` before the window opens (fewer than :func:`fewest_answers` times for the
    class's pooled ``spread``, or no spread yet), else ``IMPROVING``, ``STEADY`` or
    ``DECLINING`` by the reliable change between the outer thirds' means."""
    if spread is None or len(times) < fewest_answers(spread, change=change, z=z):
        return FEW
    k = len(times) // 3
    first = statistics.fmean(times[:k])
    if first <= 0:
        return STEADY
    last = statistics.fmean(times[-k:])
    judged = reliable_change(
        before=first,
        after=last,
        # The error of one third's mean is the whole SEM: reliability 0 leaves
        # S_diff = sqrt(2) * SEM, as for two occasions of any measure.
        spread=spread * first / math.sqrt(k),
        reliability=0.0,
        lower_is_better=True,
        critical=z,
    )
    if judged is None or abs(judged.change) < change * first:
        return STEADY
    return {IMPROVED: IMPROVING, DECLINED: DECLINING}.get(judged.verdict, STEADY)
