"""Signal detection: outcomes, d' and c against hand-worked examples, and their properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.analytics.signal import (
    CORRECT_REJECTION,
    FALSE_ALARM,
    HIT,
    MISS,
    SignalCounts,
    corrected_rates,
    criterion,
    dprime,
    signal_of,
)

PROPERTIES = settings(derandomize=True, database=None, deadline=None)
counts = st.integers(min_value=0, max_value=2000)


@pytest.mark.parametrize(
    ("signal_present", "responded", "expected"),
    [
        (True, True, HIT),
        (True, False, MISS),
        (False, True, FALSE_ALARM),
        (False, False, CORRECT_REJECTION),
    ],
)
def test_signal_of_fills_the_two_by_two_table(
    signal_present: bool, responded: bool, expected: str
) -> None:
    assert signal_of(signal_present=signal_present, responded=responded) == expected


def test_outcome_names_are_the_stored_strings() -> None:
    assert (HIT, MISS, FALSE_ALARM, CORRECT_REJECTION) == (
        "hit",
        "miss",
        "false_alarm",
        "correct_rejection",
    )


def test_worked_example_unbiased_student() -> None:
    # 8 hits, 2 misses, 2 false alarms, 8 correct rejections.
    # H = (8 + 0.5) / (8 + 2 + 1) = 8.5 / 11 = 0.772727...
    # F = (2 + 0.5) / (2 + 8 + 1) = 2.5 / 11 = 0.227272...
    # z(0.772727) = 0.747859 and z(0.227272) = -0.747859 (F = 1 - H, so symmetric)
    # d' = 0.747859 - (-0.747859) = 1.495717 -> 1.496
    # c = -1/2 * (0.747859 + (-0.747859)) = 0
    assert corrected_rates(8, 2, 2, 8) == pytest.approx((8.5 / 11, 2.5 / 11))
    assert round(dprime(8, 2, 2, 8), 3) == 1.496
    assert dprime(8, 2, 2, 8) == pytest.approx(1.495717, abs=1e-6)
    assert criterion(8, 2, 2, 8) == pytest.approx(0.0, abs=1e-12)


def test_worked_example_liberal_student() -> None:
    # 9 hits, 1 miss, 4 false alarms, 6 correct rejections: slaps readily.
    # H = 9.5 / 11 = 0.863636, z(H) = 1.096804
    # F = 4.5 / 11 = 0.409091, z(F) = -0.229884
    # d' = 1.096804 + 0.229884 = 1.326688
    # c = -1/2 * (1.096804 - 0.229884) = -1/2 * 0.866920 = -0.433460 (negative: liberal)
    assert dprime(9, 1, 4, 6) == pytest.approx(1.326688, abs=1e-6)
    assert criterion(9, 1, 4, 6) == pytest.approx(-0.433460, abs=1e-6)


def test_perfect_rates_stay_finite() -> None:
    # 10 hits, 0 misses, 0 false alarms, 10 correct rejections.
    # H = 10.5 / 11 = 0.954545, z(H) = 1.690622; F = 0.5 / 11 = 0.045455, z(F) = -1.690622
    # d' = 2 * 1.690622 = 3.381243 instead of infinity.
    assert dprime(10, 0, 0, 10) == pytest.approx(3.381243, abs=1e-6)
    assert criterion(10, 0, 0, 10) == pytest.approx(0.0, abs=1e-12)


def test_no_trials_give_zero_sensitivity_and_no_bias() -> None:
    # H = F = 0.5 / 1 = 0.5 and z(0.5) = 0.
    assert dprime(0, 0, 0, 0) == 0.0
    assert criterion(0, 0, 0, 0) == 0.0


@pytest.mark.parametrize("bad", [(-1, 0, 0, 0), (0, 0, -2, 5)])
def test_negative_counts_are_refused(bad: tuple[int, int, int, int]) -> None:
    with pytest.raises(ValueError, match="zero or more"):
        dprime(*bad)
    with pytest.raises(ValueError, match="zero or more"):
        criterion(*bad)
    with pytest.raises(ValueError, match="zero or more"):
        SignalCounts(*bad)


def test_signal_counts_rates_and_measures() -> None:
    counts_ = SignalCounts(hits=8, misses=2, false_alarms=2, correct_rejections=8)
    assert counts_.trials == 20
    assert counts_.accuracy == pytest.approx(0.8)  # (8 + 8) / 20
    assert counts_.hit_rate == pytest.approx(0.8)  # 8 / (8 + 2)
    assert counts_.false_alarm_rate == pytest.approx(0.2)  # 2 / (2 + 8)
    assert counts_.dprime() == dprime(8, 2, 2, 8)
    assert counts_.criterion() == criterion(8, 2, 2, 8)


def test_signal_counts_undefined_rates_are_none() -> None:
    empty = SignalCounts()
    assert (empty.trials, empty.accuracy, empty.hit_rate, empty.false_alarm_rate) == (
        0,
        None,
        None,
        None,
    )
    only_noise = SignalCounts(false_alarms=1, correct_rejections=3)
    assert only_noise.hit_rate is None
    assert only_noise.false_alarm_rate == pytest.approx(0.25)
    assert only_noise.accuracy == pytest.approx(0.75)


def test_signal_counts_tally_and_add() -> None:
    outcomes = [
        signal_of(signal_present=present, responded=responded)
        for present, responded in [(True, True), (True, True), (True, False), (False, True)]
    ]
    tallied = SignalCounts.tally(outcomes)
    assert tallied == SignalCounts(hits=2, misses=1, false_alarms=1, correct_rejections=0)
    assert tallied + SignalCounts(correct_rejections=4) == SignalCounts(2, 1, 1, 4)
    with pytest.raises(ValueError, match="unknown outcomes"):
        SignalCounts.tally(["hit", "slap"])


@PROPERTIES
@given(counts, counts, counts, counts)
def test_dprime_and_criterion_are_finite_for_any_counts(h: int, m: int, f: int, c: int) -> None:
    assert math.isfinite(dprime(h, m, f, c))
    assert math.isfinite(criterion(h, m, f, c))


@PROPERTIES
@given(counts, counts, counts, counts)
def test_dprime_increases_with_hits(h: int, m: int, f: int, c: int) -> None:
    assert dprime(h + 1, m, f, c) > dprime(h, m, f, c)  # one more hit
    if m > 0:
        assert dprime(h + 1, m - 1, f, c) > dprime(h, m, f, c)  # a miss becomes a hit


@PROPERTIES
@given(counts, counts, counts, counts)
def test_dprime_decreases_with_false_alarms(h: int, m: int, f: int, c: int) -> None:
    assert dprime(h, m, f + 1, c) < dprime(h, m, f, c)  # one more false alarm
    if c > 0:
        assert dprime(h, m, f + 1, c - 1) < dprime(h, m, f, c)  # a rejection becomes an FA


@PROPERTIES
@given(counts, counts)
def test_criterion_is_zero_when_hit_rate_mirrors_false_alarm_rate(n: int, k: int) -> None:
    # hits = correct rejections and misses = false alarms make F = 1 - H exactly:
    # H = (n + 0.5) / (n + k + 1) and F = (k + 0.5) / (k + n + 1).
    assert criterion(n, k, k, n) == pytest.approx(0.0, abs=1e-9)
