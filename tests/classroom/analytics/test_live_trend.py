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
    assert live_trend([900, 800, 500, 450, 400], spread=0.3) == FEW
    assert live_trend([400, 450, 900, 950], spread=0.3) == FEW
    assert live_trend([400, 450, 900, 950], spread=None) == FEW
    # Not even with a tiny spread: one answer per third is no mean.
    assert live_trend([900, 800, 400, 350, 300], spread=0.01) == FEW


def test_with_enough_answers_a_fifth_faster_or_slower_is_an_arrow() -> None:
    assert fewest_answers(0.15) == 15
    steady = [600.0] * 15
    faster = [600.0] * 5 + [550.0] * 5 + [480.0] * 5  # last third 20 % faster
    slower = [600.0] * 5 + [650.0] * 5 + [720.0] * 5
    almost = [600.0] * 5 + [550.0] * 5 + [481.0] * 5
    assert live_trend(steady, spread=0.15) == STEADY
    assert live_trend(faster, spread=0.15) == IMPROVING
    assert live_trend(slower, spread=0.15) == DECLINING
    assert live_trend(almost, spread=0.15) == STEADY
    assert live_trend(faster[:-1], spread=0.15) == FEW


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
        arrows += live_trend(times, spread=spread) != STEADY
    assert arrows / runs <= 0.06


def test_the_arrow_is_the_reliable_change_rule_of_the_progress_pages() -> None:
    """A reliable change gets an arrow only when it is also a fifth: with a hundred answers a
    third, a few per cent faster is reliable but stays steady unless the size asked for is
    smaller."""
    faster = [600.0] * 10 + [480.0] * 10 + [400.0] * 10  # a third faster
    # SEM = 0.15 * 600 / sqrt(10) = 28.5 ms, S_diff = 40.2 ms: RCI = -200 / 40.2 = -4.97.
    assert live_trend(faster, spread=0.15) == IMPROVING
    many = [600.0] * 100 + [570.0] * 100 + [560.0] * 100
    # 40 ms of 600 with k = 100: S_diff = 8.5 ms, RCI -4.7, reliable but not a fifth.
    assert live_trend(many, spread=0.1) == STEADY
    assert live_trend(many, spread=0.1, change=0.05) == IMPROVING
    assert live_trend(list(reversed(many)), spread=0.1, change=0.05) == DECLINING
