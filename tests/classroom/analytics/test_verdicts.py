"""A verdict per child per skill: the percentile with its interval, the bands, the child's own
change and the plain sentences."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom.analytics.intervals import Interval, median_interval, wilson_interval
from classroom.analytics.reliable_change import DECLINED, IMPROVED, NO_RELIABLE_CHANGE
from classroom.analytics.verdicts import (
    ACCOMMODATED,
    DECLINED_SENTENCE,
    FEW_CHILDREN,
    KEEP_AN_EYE,
    MAY_NEED_SUPPORT,
    MIN_REFERENCE,
    NEEDS_MORE_PLAY,
    NOT_SURE,
    ON_TRACK,
    ON_TRACK_SENTENCE,
    PART_LEVEL,
    SPANS_BANDS,
    SUPPORT_BELOW,
    SUPPORT_SENTENCE,
    WATCH_BELOW,
    WHY_TEXT,
    Score,
    band_of,
    percentile_of,
    proportion_difference_interval,
    rate_change,
    speed_change,
    verdict,
)

scores = st.floats(min_value=200, max_value=3000, allow_nan=False)
references = st.lists(scores, min_size=MIN_REFERENCE, max_size=80)


@st.composite
def child_scores(draw: st.DrawFn) -> Score:
    value = draw(scores)
    below = draw(st.floats(min_value=0, max_value=500))
    above = draw(st.floats(min_value=0, max_value=500))
    return Score(value, Interval(value - below, value + above), draw(st.integers(10, 200)))


@given(child_scores(), references, st.booleans())
def test_the_percentile_lies_in_its_interval_within_0_and_1(
    score: Score, reference: list[float], higher: bool
) -> None:
    found = percentile_of(score, reference, higher_is_better=higher)
    assert found is not None
    assert 0 <= found.interval.low <= found.point <= found.interval.high <= 1
    assert found.reference == len(reference)


@given(child_scores(), references, st.floats(min_value=1, max_value=500))
def test_a_faster_child_never_has_a_lower_percentile(
    score: Score, reference: list[float], faster_by: float
) -> None:
    quicker = Score(
        score.value - faster_by,
        Interval(score.interval.low - faster_by, score.interval.high - faster_by),
        score.count,
    )
    slow = percentile_of(score, reference, higher_is_better=False)
    fast = percentile_of(quicker, reference, higher_is_better=False)
    assert slow is not None
    assert fast is not None
    assert fast.point >= slow.point
    assert fast.interval.low >= slow.interval.low
    assert fast.interval.high >= slow.interval.high


@given(st.floats(min_value=0, max_value=1), st.floats(min_value=0, max_value=1), st.booleans())
def test_a_band_is_given_only_when_the_whole_interval_lies_in_it(
    a: float, b: float, own_declined: bool
) -> None:
    interval = Interval(min(a, b), max(a, b))
    band = band_of(interval)
    if band == MAY_NEED_SUPPORT:
        assert interval.high < SUPPORT_BELOW
    elif band == KEEP_AN_EYE:
        assert interval.low >= SUPPORT_BELOW
        assert interval.high < WATCH_BELOW
    elif band == ON_TRACK:
        assert interval.low >= WATCH_BELOW
    else:
        assert interval.low < WATCH_BELOW
        assert interval.high >= SUPPORT_BELOW
        assert (interval.low < SUPPORT_BELOW) or (interval.high >= WATCH_BELOW)


@given(child_scores(), references, st.booleans())
def test_a_verdict_has_a_band_only_when_its_interval_allows(
    score: Score, reference: list[float], higher: bool
) -> None:
    found = verdict(score, reference, higher_is_better=higher)
    if found.band == NOT_SURE:
        assert found.why == SPANS_BANDS
        assert found.percentile is not None
        assert band_of(found.percentile.interval) is None
    else:
        assert found.percentile is not None
        assert band_of(found.percentile.interval) == found.band
    assert found.sentence


def test_worked_percentile() -> None:
    # 40 others at 500 to 890 ms (10 ms apart); the child at 700 (600 to 800): 19 slower and
    # one tie, point (19 + 0.5) / 40. Low end: strictly slower than 800 = 9 of 40, high end:
    # slower than or tied with 600 = 30 of 40, each a 97.5 % Wilson bound.
    reference = [500 + 10 * i for i in range(40)]
    found = percentile_of(Score(700, Interval(600, 800), 30), reference, higher_is_better=False)
    assert found is not None
    assert found.point == pytest.approx(19.5 / 40)
    low = wilson_interval(9, 40, level=PART_LEVEL)
    high = wilson_interval(30, 40, level=PART_LEVEL)
    assert low is not None
    assert high is not None
    assert found.interval.low == pytest.approx(low.low)
    assert found.interval.high == pytest.approx(high.high)


def test_a_clearly_slow_child_may_need_support_and_a_quick_one_is_on_track() -> None:
    reference = [float(x) for x in range(500, 900, 10)]  # 40 children
    slow = verdict(Score(1200, Interval(1100, 1300), 40), reference, higher_is_better=False)
    quick = verdict(Score(450, Interval(420, 480), 40), reference, higher_is_better=False)
    assert (slow.band, quick.band) == (MAY_NEED_SUPPORT, ON_TRACK)
    assert slow.sentence == SUPPORT_SENTENCE
    assert quick.sentence == ON_TRACK_SENTENCE


def test_a_rate_in_the_middle_is_not_sure_yet() -> None:
    reference = [i / 40 for i in range(40)]
    middle = verdict(Score(0.5, Interval(0.4, 0.6), 50), reference, higher_is_better=True)
    assert middle.band == NOT_SURE
    assert middle.why == SPANS_BANDS
    assert middle.sentence == WHY_TEXT[SPANS_BANDS]


def test_thin_data_and_few_children_are_not_sure_yet() -> None:
    reference = [float(x) for x in range(500, 900, 10)]
    thin = verdict(Score(1200, Interval(900, 1500), 6), reference, higher_is_better=False)
    nobody = verdict(
        Score(1200, Interval(1100, 1300), 40),
        reference[: MIN_REFERENCE - 1],
        higher_is_better=False,
    )
    none = verdict(None, reference, higher_is_better=False)
    extra = verdict(
        Score(1200, Interval(1100, 1300), 40), reference, higher_is_better=False, accommodated=True
    )
    assert [v.why for v in (thin, nobody, none, extra)] == [
        NEEDS_MORE_PLAY,
        FEW_CHILDREN,
        NEEDS_MORE_PLAY,
        ACCOMMODATED,
    ]
    assert all(v.band == NOT_SURE and not v.sure for v in (thin, nobody, none, extra))


def test_a_decline_against_their_own_play_moves_on_track_to_keep_an_eye_on() -> None:
    reference = [float(x) for x in range(500, 900, 10)]
    quick = Score(450, Interval(420, 480), 40)
    found = verdict(quick, reference, higher_is_better=False, own=DECLINED)
    assert found.band == KEEP_AN_EYE
    assert found.sentence == DECLINED_SENTENCE
    slow = verdict(
        Score(1200, Interval(1100, 1300), 40), reference, higher_is_better=False, own=DECLINED
    )
    assert slow.band == MAY_NEED_SUPPORT
    improved = verdict(quick, reference, higher_is_better=False, own=IMPROVED)
    assert improved.band == ON_TRACK


def test_newcombe_worked_example() -> None:
    # Newcombe (1998), Table II, example (a): 56/70 against 48/80, method 10: 0.0524 to 0.3339.
    found = proportion_difference_interval(56, 70, 48, 80)
    assert found is not None
    assert found.low == pytest.approx(0.0524, abs=5e-4)
    assert found.high == pytest.approx(0.3339, abs=5e-4)


@given(st.integers(0, 60), st.integers(1, 60), st.integers(0, 60), st.integers(1, 60))
def test_the_difference_interval_holds_the_observed_difference(
    a: int, n: int, b: int, m: int
) -> None:
    a, b = min(a, n), min(b, m)
    found = proportion_difference_interval(a, n, b, m)
    assert found is not None
    assert -1 <= found.low <= a / n - b / m <= found.high <= 1


def test_own_changes() -> None:
    assert rate_change(45, 50, 25, 50) == IMPROVED
    assert rate_change(25, 50, 45, 50) == DECLINED
    assert rate_change(30, 50, 28, 50) == NO_RELIABLE_CHANGE
    assert rate_change(5, 5, 0, 50) is None
    rng = random.Random(1)
    earlier = [rng.gauss(600, 60) for _ in range(40)]
    slower = [rng.gauss(800, 60) for _ in range(40)]
    same = [rng.gauss(600, 60) for _ in range(40)]
    from classroom.analytics.intervals import median_difference_interval

    slowed = median_difference_interval(slower, earlier)
    steady = median_difference_interval(same, earlier)
    assert speed_change(slower, earlier, difference=slowed) == DECLINED
    assert speed_change(
        earlier, slower, difference=median_difference_interval(earlier, slower)
    ) == (IMPROVED)
    assert speed_change(same, earlier, difference=steady) == NO_RELIABLE_CHANGE
    assert speed_change(same[:5], earlier, difference=steady) is None


def test_the_child_score_interval_is_a_part_level_bootstrap() -> None:
    # The selector's scores use PART_LEVEL intervals; wider than the 95 % one.
    rts = [500 + 7 * i for i in range(30)]
    wide = median_interval(rts, level=PART_LEVEL, resamples=1000)
    narrow = median_interval(rts, level=0.95, resamples=1000)
    assert wide is not None
    assert narrow is not None
    assert wide.width >= narrow.width
    assert not math.isnan(wide.low)
