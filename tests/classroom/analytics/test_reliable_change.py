"""The reliable-change index (Jacobson & Truax 1991) with a practice effect."""

from __future__ import annotations

import math

import pytest

from classroom.analytics.reliable_change import (
    DECLINED,
    IMPROVED,
    NO_RELIABLE_CHANGE,
    practice_effect,
    reliable_change,
    standard_error_difference,
)


def test_worked_example() -> None:
    # s = 100 ms, r = .8: SEM = 100 * sqrt(.2) = 44.72; S_diff = sqrt(2) * 44.72 = 63.25.
    # 700 -> 560 ms: change -140, RCI = -2.21, beyond 1.96; lower RT is better: improved.
    change = reliable_change(
        before=700, after=560, spread=100, reliability=0.8, lower_is_better=True
    )
    assert change is not None
    assert change.standard_error_difference == pytest.approx(63.246, abs=1e-3)
    assert change.index == pytest.approx(-2.2136, abs=1e-4)
    assert change.verdict == IMPROVED


def test_direction_follows_which_way_is_better() -> None:
    up = reliable_change(before=0.5, after=0.8, spread=0.1, reliability=0.8, lower_is_better=False)
    slower = reliable_change(
        before=500, after=700, spread=100, reliability=0.8, lower_is_better=True
    )
    small = reliable_change(
        before=500, after=560, spread=100, reliability=0.8, lower_is_better=True
    )
    assert up is not None
    assert up.verdict == IMPROVED
    assert slower is not None
    assert slower.verdict == DECLINED
    assert small is not None
    assert small.verdict == NO_RELIABLE_CHANGE


def test_the_practice_effect_is_taken_off() -> None:
    # Everyone got 150 ms faster; so did this child: no change beyond practice.
    change = reliable_change(
        before=700, after=550, spread=100, reliability=0.8, lower_is_better=True, practice=-150
    )
    assert change is not None
    assert change.verdict == NO_RELIABLE_CHANGE
    assert change.index == 0
    assert practice_effect([-100, -200, -150, -150, -150]) == -150
    assert practice_effect([-100, -200]) is None


def test_no_error_no_verdict_and_bad_input() -> None:
    assert (
        reliable_change(before=1, after=2, spread=0, reliability=0.5, lower_is_better=True) is None
    )
    assert reliable_change(before=1, after=2, spread=1, reliability=1, lower_is_better=True) is None
    # A negative reliability is taken as 0: S_diff = sqrt(2) * s.
    assert standard_error_difference(spread=1, reliability=0) == pytest.approx(math.sqrt(2))
    negative = reliable_change(before=0, after=1, spread=1, reliability=-0.3, lower_is_better=False)
    assert negative is not None
    assert negative.standard_error_difference == pytest.approx(math.sqrt(2))
    with pytest.raises(ValueError, match="spread"):
        standard_error_difference(spread=-1, reliability=0.5)
