"""Intervals: Wilson for proportions, the percentile bootstrap for RT measures."""

from __future__ import annotations

import itertools
import random
import statistics

import pytest

from classroom.analytics.intervals import (
    Interval,
    bootstrap_interval,
    mean_interval,
    median_difference_interval,
    median_interval,
    percentile_interval,
    wilson_interval,
)


def test_wilson_worked_example() -> None:
    # 8 of 10, z = 1.95996: centre = (0.8 + 0.19208) / 1.38415 = 0.71683; half width =
    # 1.95996 / 1.38415 * sqrt(0.016 + 0.0096040) = 1.41600 * 0.16001 = 0.22658.
    interval = wilson_interval(8, 10)
    assert interval is not None
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_stays_within_0_and_1_and_has_none_without_trials() -> None:
    assert wilson_interval(0, 0) is None
    none_right = wilson_interval(0, 12)
    all_right = wilson_interval(12, 12)
    assert none_right is not None
    assert none_right.low == 0.0
    assert none_right.high < 0.3
    assert all_right is not None
    assert all_right.high == 1.0
    assert all_right.low > 0.7


@pytest.mark.parametrize(
    ("successes", "trials", "level"), [(-1, 5, 0.95), (6, 5, 0.95), (1, 5, 1.0)]
)
def test_wilson_refuses_bad_input(successes: int, trials: int, level: float) -> None:
    with pytest.raises(ValueError, match=r"need 0 <= successes|level"):
        wilson_interval(successes, trials, level=level)


def test_percentile_interval_takes_the_central_order_statistics() -> None:
    # 200 values 0…199: the lower end is value 5 (floor(200 * 0.025)), the upper value 194
    # (ceil(200 * 0.975) - 1).
    assert percentile_interval(list(range(200))) == Interval(5.0, 194.0)
    assert percentile_interval([]) is None


def test_median_interval_is_seeded_and_brackets_the_median() -> None:
    rng = random.Random(4)
    rts = [rng.gauss(650, 90) for _ in range(41)]
    first = median_interval(rts, seed=7)
    assert first == median_interval(rts, seed=7)
    assert first is not None
    assert statistics.median(rts) in first
    assert median_interval(rts[:1]) is None


@pytest.mark.parametrize("count", [6, 7, 30, 31])
def test_median_interval_matches_resampling_the_trials(count: int) -> None:
    """The order-statistic shortcut gives the interval resampling the trials gives."""
    rng = random.Random(count)
    rts = [rng.lognormvariate(6.4, 0.3) for _ in range(count)]
    fast = median_interval(rts, resamples=20_000, seed=1)
    slow = bootstrap_interval(rts, statistics.median, resamples=20_000, seed=2)
    assert fast is not None
    assert slow is not None
    ordered = sorted(rts)
    spacing = max(b - a for a, b in itertools.pairwise(ordered))
    assert fast.low == pytest.approx(slow.low, abs=spacing)
    assert fast.high == pytest.approx(slow.high, abs=spacing)


def test_median_difference_interval_is_around_the_difference() -> None:
    rng = random.Random(9)
    slow = [rng.gauss(800, 60) for _ in range(40)]
    quick = [rng.gauss(700, 60) for _ in range(40)]
    interval = median_difference_interval(slow, quick)
    assert interval is not None
    assert statistics.median(slow) - statistics.median(quick) in interval
    assert 0 not in interval
    assert median_difference_interval(slow, quick[:1]) is None


def test_mean_interval_and_bad_resamples() -> None:
    interval = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert interval is not None
    assert 1.0 <= interval.low < 2.5 < interval.high <= 4.0
    with pytest.raises(ValueError, match="resamples"):
        median_interval([1.0, 2.0], resamples=0)
