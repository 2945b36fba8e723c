"""The fewest trials a measure needs, by the Spearman-Brown prophecy."""

from __future__ import annotations

import pytest

from classroom.analytics.enough_data import NEEDS_MORE_PLAY, EnoughData, minimum_trials
from classroom.analytics.reliability import spearman_brown


def test_minimum_trials_worked_examples() -> None:
    # r = .5 at 20 trials: k = .7 * .5 / (.5 * .3) = 2.333 -> 46.7 -> 47 trials.
    assert minimum_trials(0.5, 20) == 47
    # Already at .7: the same length.
    assert minimum_trials(0.7, 20) == 20
    # r = .9 at 20: k = .7 * .1 / (.9 * .3) = 0.259 -> 5.2 -> 6.
    assert minimum_trials(0.9, 20) == 6
    assert minimum_trials(1.0, 20) == 1
    assert minimum_trials(0.0, 20) is None
    assert minimum_trials(-0.2, 20) is None


@pytest.mark.parametrize("r", [0.1, 0.3, 0.55, 0.8])
def test_minimum_trials_reaches_the_target(r: float) -> None:
    needed = minimum_trials(r, 12)
    assert needed is not None
    assert spearman_brown(r, needed / 12) >= 0.7 - 1e-12
    assert needed == 1 or spearman_brown(r, (needed - 1) / 12) < 0.7


@pytest.mark.parametrize(("r", "trials", "target"), [(1.2, 10, 0.7), (0.5, 0, 0.7), (0.5, 10, 1.0)])
def test_minimum_trials_refuses_bad_input(r: float, trials: float, target: float) -> None:
    with pytest.raises(ValueError, match="must be"):
        minimum_trials(r, trials, target=target)


def test_enough_data_says_how_many_more() -> None:
    assert EnoughData(n=6, needed=47).enough is False
    assert EnoughData(n=6, needed=47).message() == (NEEDS_MORE_PLAY, {"n": 6, "needed": 47})
    assert NEEDS_MORE_PLAY % {"n": 6, "needed": 47} == "needs more play (6 of 47)"
    assert EnoughData(n=47, needed=47).enough is True
    assert EnoughData(n=47, needed=47).message() is None
    assert EnoughData(n=3, needed=None).enough is True
