"""The console's trend arrow: the fewest answers come from the class's spread of times."""

from __future__ import annotations

import math
import random

import pytest

from classroom.analytics.live_trend import (
    CHANGE,
    DECLINING,
    FEW,
    FEWEST,
    IMPROVING,
    STEADY,
    Z,
    fewest_answers,
    live_trend,
    pooled_spread,
)


def test_the_fewest_answers_by_hand() -> None:
    # cv 0.3: k = ceil(2 * (1.96 * 0.3 / 0.2) ** 2) = ceil(17.29) = 18 per third, n = 54.
    assert fewest_answers(0.3) == 54
    # cv 0.15: ceil(4.32) = 5 per third; cv 0.05: ceil(0.48) = 1, held up to FEWEST.
    assert fewest_answers(0.15) == 15
    assert fewest_answers(0.05) == FEWEST
    # More spread, more answers; a bigger change or a looser level, fewer.
    assert fewest_answers(0.4) > fewest_answers(0.3)
    assert fewest_answers(0.3, change=0.3) < fewest_answers(0.3)
    assert fewest_answers(0.3, z=1.0) < fewest_answers(0.3)


def test_at_the_fewest_answers_the_change_is_beyond_chance_and_not_one_third_sooner() -> None:
    for spread in (0.1, 0.2, 0.3, 0.45):
        n = fewest_answers(spread)
        k = n // 3
        assert Z * spread * math.sqrt(2 / k) <= CHANGE
        if n > FEWEST:
            assert Z * spread * math.sqrt(2 / (k - 1)) > CHANGE


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="change"):
        fewest_answers(0.3, change=0)
    with pytest.raises(ValueError, match="spread"):
        fewest_answers(-0.1)


def test_the_pooled_spread_weights_each_child_by_their_answers() -> None:
    ava = [400.0, 600.0]  # mean 500, SD 141.4: cv 0.2828
    ben = [900.0, 1000.0, 1100.0]  # mean 1000, SD 100: cv 0.1
    expected = math.sqrt((1 * (math.sqrt(20000) / 500) ** 2 + 2 * 0.1**2) / 3)
    assert pooled_spread([ava, ben, [700.0], []]) == pytest.approx(expected)
    assert pooled_spread([[700.0], []]) is None


def test_four_or_five_answers_never_get_an_arrow() -> None:
    # The finding: ▼ after 4-5 answers. Halved times are no arrow until there are enough.
    fewest = fewest_answers(0.3)
    assert live_trend([900, 800, 500, 450, 400], fewest=fewest) == FEW
    assert live_trend([400, 450, 900, 950], fewest=fewest) == FEW
    assert live_trend([400, 450, 900, 950], fewest=None) == FEW
    # Not even with a tiny spread: one answer per third is no mean.
    assert live_trend([900, 800, 400, 350, 300], fewest=3) == FEW


def test_with_enough_answers_a_fifth_faster_or_slower_is_an_arrow() -> None:
    fewest = fewest_answers(0.15)  # 15
    steady = [600.0] * 15
    faster = [600.0] * 5 + [550.0] * 5 + [480.0] * 5  # last third 20 % faster
    slower = [600.0] * 5 + [650.0] * 5 + [720.0] * 5
    almost = [600.0] * 5 + [550.0] * 5 + [481.0] * 5
    assert live_trend(steady, fewest=fewest) == STEADY
    assert live_trend(faster, fewest=fewest) == IMPROVING
    assert live_trend(slower, fewest=fewest) == DECLINING
    assert live_trend(almost, fewest=fewest) == STEADY
    assert live_trend(faster[:-1], fewest=fewest) == FEW


def test_a_child_who_does_not_change_rarely_gets_an_arrow() -> None:
    """The stated level, checked by simulation: times with no trend, spread 30 %, at the
    fewest answers, get an arrow about 5 % of the time (or less: the SE is an upper bound
    of what a fixed change needs)."""
    rng = random.Random(45)
    spread = 0.3
    fewest = fewest_answers(spread)
    arrows = 0
    runs = 2000
    for _ in range(runs):
        times = [rng.gauss(700, 700 * spread) for _ in range(fewest)]
        arrows += live_trend(times, fewest=fewest) != STEADY
    assert arrows / runs <= 0.06
