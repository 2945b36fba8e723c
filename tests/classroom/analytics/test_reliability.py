"""Permutation split-half reliability with the Spearman-Brown correction."""

from __future__ import annotations

import random
import statistics
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom.analytics.reliability import (
    STEPS_PER_DOUBLING,
    estimate_key,
    spearman_brown,
    split_half_reliability,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


def test_spearman_brown_worked_examples() -> None:
    # 2 * 0.5 / 1.5 = 0.6667; a third as long: (1/3 * 0.9) / (1 - 2/3 * 0.9) = 0.3 / 0.4.
    assert spearman_brown(0.5) == pytest.approx(2 / 3)
    assert spearman_brown(0.9, 1 / 3) == pytest.approx(0.75)
    assert spearman_brown(0.0) == 0.0
    assert spearman_brown(-0.8) == -1.0  # -1.6 / 0.2 = -8, reported as -1
    with pytest.raises(ValueError, match="reliability"):
        spearman_brown(1.5)
    with pytest.raises(ValueError, match="factor"):
        spearman_brown(0.5, 0)


def _class(
    children: int, trials: int, true_sd: float, noise_sd: float, seed: int
) -> dict[int, list[float]]:
    rng = random.Random(seed)
    out = {}
    for child in range(children):
        level = rng.gauss(600, true_sd)
        out[child] = [rng.gauss(level, noise_sd) for _ in range(trials)]
    return out


def test_split_half_is_seeded_and_near_the_truth() -> None:
    # Reliability of a mean of 20 trials: 50^2 / (50^2 + 100^2 / 20) = 2500 / 3000 = 0.833.
    data = _class(120, 20, 50, 100, seed=3)
    result = split_half_reliability(data, statistics.fmean, permutations=100)
    assert result == split_half_reliability(data, statistics.fmean, permutations=100)
    assert result is not None
    assert result.estimate == pytest.approx(2500 / 3000, abs=0.07)
    assert result.estimate in result.interval
    assert result.uncorrected < result.estimate
    assert result.children == 120
    assert result.mean_trials == 20
    assert result.permutations == 100


def test_split_half_of_pure_noise_is_near_zero() -> None:
    data = _class(120, 20, 0, 100, seed=4)
    result = split_half_reliability(data, statistics.fmean, permutations=100)
    assert result is not None
    assert abs(result.estimate) < 0.2


def test_split_half_keeps_each_stratum_in_both_halves() -> None:
    halves: list[tuple[int, int]] = []

    def score(trials: Sequence[tuple[str, float]]) -> float:
        halves.append((len(trials), sum(1 for kind, _ in trials if kind == "a")))
        return statistics.fmean(value for _, value in trials)

    rng = random.Random(1)
    data = {
        child: [("a", rng.random()) for _ in range(4)] + [("b", rng.random()) for _ in range(6)]
        for child in range(6)
    }
    split_half_reliability(data, score, stratum=lambda trial: trial[0], permutations=5)
    assert set(halves) == {(5, 2)}


def test_split_half_needs_enough_children() -> None:
    data = _class(4, 20, 50, 100, seed=5)
    assert split_half_reliability(data, statistics.fmean) is None
    # A child whose halves cannot be scored sits the split out.
    many = _class(8, 20, 50, 100, seed=6)
    result = split_half_reliability(
        many,
        lambda trials: None if trials[0] > 10_000 else statistics.fmean(trials),
        permutations=10,
    )
    assert result is not None
    assert result.children == 8
    with pytest.raises(ValueError, match="permutations"):
        split_half_reliability(many, statistics.fmean, permutations=0)


@given(st.integers(min_value=0, max_value=10**7))
def test_an_estimate_no_more_trials_can_join_is_filed_under_its_count(trials: int) -> None:
    assert estimate_key(trials, in_play=False) == str(trials)


@given(st.integers(min_value=1, max_value=10**7), st.integers(min_value=1, max_value=10**7))
def test_trials_in_play_share_an_estimate_within_a_step_and_never_across_one(
    trials: int, more: int
) -> None:
    grown = trials + more
    step = 2 ** (1 / STEPS_PER_DOUBLING)  # about 4 %
    same = estimate_key(trials, in_play=True) == estimate_key(grown, in_play=True)
    if grown >= trials * step:
        assert not same
    assert estimate_key(trials, in_play=True) != str(trials)


def test_one_more_answer_among_hundreds_keeps_the_estimate_in_play() -> None:
    assert estimate_key(300, in_play=True) == estimate_key(301, in_play=True)
    assert estimate_key(300, in_play=True) != estimate_key(316, in_play=True)
