"""Reliability from a class's own data: permutation split-half with the Spearman-Brown
correction.

No Django, no I/O, no clock; randomness only from a seeded NumPy generator, whose shuffles
(in C) are most of what a live console's estimate would otherwise cost.

A measure is reliable when it ranks the children the same way each time it is taken. Split
each child's trials at random into two halves, score each half, and correlate the halves'
scores across the children (Pearson); each half has half the trials, so the correlation is
stepped up to the full length with the Spearman-Brown formula. One split is luck, so this is
done for many random splits and the corrected values are averaged; the central 95 % of them is
the interval. This is the method of the R package ``splithalf``: Parsons, S. (2021),
"splithalf: robust estimates of split half reliability", *Journal of Open Source Software*
6(60), 3041; Parsons, S., Kruijt, A.-W. & Fox, E. (2019), "Psychological science needs a
standard practice of reporting the reliability of cognitive-behavioral measurements",
*Advances in Methods and Practices in Psychological Science* 2, 378-395. Spearman, C. (1910)
and Brown, W. (1910), *British Journal of Psychology* 3, 271-295 and 296-322.
"""

from __future__ import annotations

import math
import statistics
import typing
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy

from classroom.analytics.intervals import LEVEL, Interval, percentile_interval

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Mapping, Sequence

K = TypeVar("K")
T = TypeVar("T")

PERMUTATIONS = 500
SEED = 0
# Fewer children than this give a correlation too rough to report (its 95 % interval spans
# most of -1…1).
MIN_CHILDREN = 5
# An estimate over trials still coming in is measured again each time they grow by about 4 %
# (a sixteenth of a doubling): one more answer among hundreds barely moves it, and a page
# opened during play would otherwise pay the whole estimate at every visit.
STEPS_PER_DOUBLING = 16


def estimate_key(trials: int, *, in_play: bool) -> str:
    """What a kept estimate over ``trials`` trials is filed under: the count itself once no
    more can come (the estimate of every trial), else the count's step
    (``STEPS_PER_DOUBLING``)."""
    if not in_play or trials < 1:
        return str(trials)
    return f"step-{math.floor(math.log2(trials) * STEPS_PER_DOUBLING)}"


def spearman_brown(reliability: float, factor: float = 2.0) -> float:
    """The reliability of a measure ``factor`` times as long: k r / (1 + (k - 1) r)
    (Spearman 1910; Brown 1910). With ``factor`` 2 it steps a split-half correlation up to
    the whole length. A result below -1 (a strongly negative r) is reported as -1. Raises
    ``ValueError`` for a factor that is not > 0 or an r outside [-1, 1]."""
    if not factor > 0:
        raise ValueError(f"factor must be > 0, got {factor}")
    if not -1 <= reliability <= 1:
        raise ValueError(f"reliability must be within [-1, 1], got {reliability}")
    denominator = 1 + (factor - 1) * reliability
    if denominator <= 0:
        return -1.0
    return max(-1.0, factor * reliability / denominator)


@dataclass(frozen=True)
class SplitHalf:
    """What :func:`split_half_reliability` measured.

    ``estimate`` is the mean Spearman-Brown corrected correlation over the random splits and
    ``interval`` the central ``level`` share of them; ``uncorrected`` the mean raw half-half
    correlation; ``children`` how many children entered, with ``mean_trials`` trials each on
    average (the length the estimate is for); ``permutations`` the splits that gave a
    correlation.
    """

    estimate: float
    interval: Interval
    uncorrected: float
    children: int
    mean_trials: float
    permutations: int


def _groups(trials: Sequence[T], stratum: Callable[[T], Hashable] | None) -> list[list[T]]:
    if stratum is None:
        return [list(trials)]
    grouped: dict[Hashable, list[T]] = {}
    for trial in trials:
        grouped.setdefault(stratum(trial), []).append(trial)
    return list(grouped.values())


def _as_array(group: Sequence[T]) -> numpy.ndarray:
    # One dimension of objects, whatever the trials are (a list of tuples given to
    # ``numpy.array`` would become a table of their fields).
    return numpy.fromiter(group, dtype=object, count=len(group))


def _split(groups: list[numpy.ndarray], rng: numpy.random.Generator) -> tuple[list[Any], list[Any]]:
    """Two random halves of a child's trials, each group (stratum) split as evenly as it
    allows; an odd trial out goes to either half at random."""
    first: list[Any] = []
    second: list[Any] = []
    for group in groups:
        shuffled = group[rng.permutation(len(group))].tolist()
        half = len(shuffled) // 2
        if len(shuffled) % 2 and rng.random() < 0.5:
            half += 1
        first += shuffled[:half]
        second += shuffled[half:]
    return first, second


def split_half_reliability(
    trials_by_child: Mapping[K, Sequence[T]],
    score: Callable[[Sequence[T]], float | None],
    *,
    stratum: Callable[[T], Hashable] | None = None,
    permutations: int = PERMUTATIONS,
    seed: int = SEED,
    level: float = LEVEL,
    min_trials: int = 2,
    min_children: int = MIN_CHILDREN,
) -> SplitHalf | None:
    """Permutation split-half reliability of ``score`` over the children's trials.

    For each of ``permutations`` random splits (``numpy.random.default_rng(seed)``): each
    child with at least ``min_trials`` trials has their trials split into two random halves
    of equal size (within each ``stratum``, such as congruent and incongruent cards, so both
    halves keep the same mix; ``splithalf`` does the same within conditions); ``score`` gives
    each half's value (``None``: that child sits this split out); r is the Pearson
    correlation of the first halves' values with the second halves' over the children, and
    :func:`spearman_brown` steps it up to the whole length. A split with fewer than
    ``min_children`` children scored, or where one half's values do not vary, is left out.

    ``None`` when no split gave a correlation (too few children, or nothing varies).
    """
    if permutations < 1:
        raise ValueError(f"permutations must be 1 or more, got {permutations}")
    children = {
        child: [_as_array(group) for group in _groups(trials, stratum)]
        for child, trials in trials_by_child.items()
        if len(trials) >= max(2, min_trials)
    }
    if len(children) < min_children:
        return None
    rng = numpy.random.default_rng(seed)
    raw: list[float] = []
    for _ in range(permutations):
        firsts: list[float] = []
        seconds: list[float] = []
        for groups in children.values():
            first, second = _split(groups, rng)
            a, b = score(first), score(second)
            if a is not None and b is not None:
                firsts.append(a)
                seconds.append(b)
        if len(firsts) < min_children:
            continue
        try:
            raw.append(statistics.correlation(firsts, seconds))
        except statistics.StatisticsError:  # a half whose values are all equal
            continue
    corrected = [spearman_brown(max(-1.0, min(1.0, r))) for r in raw]
    interval = percentile_interval(corrected, level=level)
    if interval is None:
        return None
    return SplitHalf(
        estimate=statistics.fmean(corrected),
        interval=interval,
        uncorrected=statistics.fmean(raw),
        children=len(children),
        mean_trials=statistics.fmean(
            sum(len(group) for group in groups) for groups in children.values()
        ),
        permutations=len(raw),
    )
