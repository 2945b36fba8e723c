"""How sure a figure is: 95 % intervals for proportions and for reaction-time measures.

Pure Python: no Django, no I/O, no clock. Randomness comes only from a seeded
``random.Random``, so the same trials always give the same interval.

* A **proportion** (accuracy, a rate) gets the Wilson score interval: Wilson, E. B. (1927),
  "Probable inference, the law of succession, and statistical inference", *JASA* 22, 209-212.
  Its coverage stays close to the nominal level even for a handful of trials and rates near 0
  or 1, where the textbook (Wald) interval fails (Brown, L. D., Cai, T. T. & DasGupta, A.
  (2001), "Interval estimation for a binomial proportion", *Statistical Science* 16,
  101-133), and it is never wider than [0, 1].
* A **reaction-time measure** gets a percentile bootstrap over the child's trials: Efron, B.
  & Tibshirani, R. J. (1993), *An Introduction to the Bootstrap*, Chapman & Hall, ch. 13. The
  trials are resampled with replacement ``resamples`` times, the measure is recomputed on each
  resample, and the interval runs from the 2.5th to the 97.5th percentile of those values.
"""

from __future__ import annotations

import functools
import math
import random
import statistics
import typing
from dataclasses import dataclass
from statistics import NormalDist

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

LEVEL = 0.95
RESAMPLES = 2000
SEED = 0


@dataclass(frozen=True)
class Interval:
    """A two-sided interval of a measure, in the measure's own unit."""

    low: float
    high: float

    def __contains__(self, value: float) -> bool:
        return self.low <= value <= self.high

    @property
    def width(self) -> float:
        return self.high - self.low


def _check_level(level: float) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1, got {level}")


def wilson_interval(successes: int, trials: int, *, level: float = LEVEL) -> Interval | None:
    """The Wilson score interval of successes / trials (Wilson 1927).

    With p = successes / trials and z the standard normal quantile at 1 - (1 - level) / 2:
    centre = (p + z^2 / 2n) / (1 + z^2 / n) and half width =
    z / (1 + z^2 / n) * sqrt(p (1 - p) / n + z^2 / 4n^2). ``None`` with no trials. Raises
    ``ValueError`` when successes are negative or exceed trials, or the level is not in (0, 1).
    """
    _check_level(level)
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if trials == 0:
        return None
    z = NormalDist().inv_cdf(1 - (1 - level) / 2)
    p = successes / trials
    z2n = z * z / trials
    centre = (p + z2n / 2) / (1 + z2n)
    half = z / (1 + z2n) * math.sqrt(p * (1 - p) / trials + z2n / (4 * trials))
    # At 0 or all successes the bound is exactly 0 or 1 (the formula's rounding aside).
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return Interval(low, high)


def percentile_interval(values: Sequence[float], *, level: float = LEVEL) -> Interval | None:
    """The central ``level`` share of ``values``: from the (1 - level) / 2 quantile to the
    (1 + level) / 2 quantile, taken as order statistics (the lower one at floor(B (1 - level)
    / 2), the upper one at ceil(B (1 + level) / 2) - 1 of the B sorted values). ``None``
    when there are no values."""
    _check_level(level)
    if not values:
        return None
    ordered = sorted(values)
    count = len(ordered)
    low = math.floor(count * (1 - level) / 2)
    high = max(low, math.ceil(count * (1 + level) / 2) - 1)
    return Interval(float(ordered[low]), float(ordered[high]))


def bootstrap_interval(
    values: Sequence[float],
    statistic: Callable[[Sequence[float]], float | None],
    *,
    level: float = LEVEL,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> Interval | None:
    """Percentile bootstrap interval of ``statistic`` over ``values`` (Efron & Tibshirani
    1993, ch. 13): ``resamples`` resamples of the values with replacement, each of their
    size, from ``random.Random(seed)``. A resample where the statistic is ``None`` is left
    out. ``None`` with fewer than 2 values (one value has nothing to vary)."""
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, got {resamples}")
    if len(values) < 2:
        return None
    rng = random.Random(seed)
    count = len(values)
    draws = [statistic(rng.choices(values, k=count)) for _ in range(resamples)]
    return percentile_interval([d for d in draws if d is not None], level=level)


def _median_ranks(count: int, resamples: int, rng: random.Random) -> tuple[tuple[int, int], ...]:
    """The ranks (lower middle, upper middle; the same when ``count`` is odd) of the medians
    of ``resamples`` bootstrap resamples of ``count`` sorted values: they depend on the count
    and the draws alone, never on the values.

    A resample of n values draws n indices uniformly from 0…n-1; because the values are sorted,
    the resample's k-th smallest value is the value at the indices' k-th smallest, and that is
    floor(n U_(k)) with U_(k) the k-th smallest of n uniforms on (0, 1), which follows
    Beta(k, n - k + 1) (David, H. A. & Nagaraja, H. N. (2003), *Order Statistics*, 3rd ed.,
    Wiley, ch. 2). Given U_(k) = u, the next one is the least of n - k uniforms on (u, 1):
    1 - (1 - u) W^(1 / (n - k)) with W uniform. So a resample's median costs two draws rather
    than n draws and a sort; the resulting distribution is exactly the resampling one.
    """
    k = (count + 1) // 2  # the lower middle order statistic (the middle one when n is odd)
    ranks = []
    for _ in range(resamples):
        u = rng.betavariate(k, count - k + 1)
        lower = min(count - 1, int(count * u))
        if count % 2:
            ranks.append((lower, lower))
            continue
        upper_u = 1 - (1 - u) * rng.random() ** (1 / (count - k))
        ranks.append((lower, min(count - 1, int(count * upper_u))))
    return tuple(ranks)


@functools.lru_cache(maxsize=1024)
def _seeded_median_ranks(count: int, resamples: int, seed: int) -> tuple[tuple[int, int], ...]:
    """``_median_ranks`` from ``random.Random(seed)``, kept per count: a page of many
    children's intervals draws each count's ranks once."""
    return _median_ranks(count, resamples, random.Random(seed))


def _medians_at(ordered: Sequence[float], ranks: Sequence[tuple[int, int]]) -> list[float]:
    if len(ordered) % 2:
        return [float(ordered[lower]) for lower, _upper in ranks]
    return [(ordered[lower] + ordered[upper]) / 2 for lower, upper in ranks]


def median_interval(
    rts: Sequence[float], *, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = SEED
) -> Interval | None:
    """Percentile bootstrap interval of the median of ``rts`` (the values a median RT is
    computed from: plausible correct RTs, anticipations left out), from
    ``random.Random(seed)``. The same as :func:`bootstrap_interval` with the median, computed
    from order statistics (see ``_median_ranks``). ``None`` with fewer than 2 RTs."""
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, got {resamples}")
    if len(rts) < 2:
        return None
    medians = _medians_at(sorted(rts), _seeded_median_ranks(len(rts), resamples, seed))
    return percentile_interval(medians, level=level)


def median_difference_interval(
    first: Sequence[float],
    second: Sequence[float],
    *,
    level: float = LEVEL,
    resamples: int = RESAMPLES,
    seed: int = SEED,
) -> Interval | None:
    """Percentile bootstrap interval of median(first) - median(second) (the Stroop
    interference cost: incongruent minus congruent), each group resampled on its own (a
    stratified bootstrap; Efron & Tibshirani 1993, ch. 8). ``None`` unless each group has at
    least 2 values. The groups' draws come from two generators, ``seed`` and ``seed + 1``, each
    kept per count as ``median_interval``'s are: a page compares hundreds of pairs."""
    if resamples < 1:
        raise ValueError(f"resamples must be 1 or more, got {resamples}")
    if len(first) < 2 or len(second) < 2:
        return None
    a = _medians_at(sorted(first), _seeded_median_ranks(len(first), resamples, seed))
    b = _medians_at(sorted(second), _seeded_median_ranks(len(second), resamples, seed + 1))
    return percentile_interval([x - y for x, y in zip(a, b, strict=True)], level=level)


def mean_interval(
    values: Sequence[float], *, level: float = LEVEL, resamples: int = RESAMPLES, seed: int = SEED
) -> Interval | None:
    """Percentile bootstrap interval of the mean of ``values`` (see
    :func:`bootstrap_interval`)."""
    return bootstrap_interval(values, statistics.fmean, level=level, resamples=resamples, seed=seed)
