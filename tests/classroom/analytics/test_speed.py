"""Speed measures: RT summaries, inverse efficiency, BIS and Stroop interference."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from classroom.analytics.speed import (
    RtSummary,
    balanced_integration_scores,
    error_interference,
    interference_cost,
    inverse_efficiency,
    rolling_medians,
    rt_summary,
)

PROPERTIES = settings(derandomize=True, database=None, deadline=None)
rts = st.lists(st.integers(min_value=0, max_value=5000) | st.floats(0, 5000), max_size=60)


def test_rt_summary_worked_example() -> None:
    # 120 and 199 are below the 200 ms floor: 2 anticipations, dropped everywhere.
    # Kept: nine 500s and one 1000 (n = 10). Median = 500.
    # Mean m = (9 * 500 + 1000) / 10 = 550.
    # Sample SD s = sqrt((9 * 50^2 + 450^2) / 9) = sqrt(225000 / 9) = sqrt(25000) = 158.11
    # 1000: |1000 - 550| / 158.11 = 2.85 SD > 2.5 -> flagged; 500: 0.32 SD -> not flagged.
    # Trimmed mean = mean of the nine 500s = 500.
    summary = rt_summary([120, 199, *[500] * 9, 1000])
    assert summary == RtSummary(
        n=10,
        median=500.0,
        mean=550.0,
        trimmed_mean=500.0,
        anticipations=2,
        flagged_slow_or_fast=(1000.0,),
    )


def test_rt_summary_keeps_the_floor_itself_and_flags_nothing_in_small_samples() -> None:
    # Kept 200, 500, 500, 5000 (n = 4): with the sample SD no value can be more than
    # (n - 1) / sqrt(n) = 1.5 SD away, so nothing is flagged. Median = (500 + 500) / 2 = 500.
    # Mean = (200 + 500 + 500 + 5000) / 4 = 6200 / 4 = 1550 = trimmed mean.
    summary = rt_summary([200, 500, 500, 5000])
    assert (summary.n, summary.median, summary.mean, summary.trimmed_mean) == (4, 500, 1550, 1550)
    assert (summary.anticipations, summary.flagged_slow_or_fast) == (0, ())


def test_rt_summary_of_nothing_kept_is_all_none() -> None:
    assert rt_summary([]) == RtSummary(0, None, None, None, 0, ())
    assert rt_summary([90, 150]) == RtSummary(0, None, None, None, 2, ())
    assert rt_summary([90, 150], floor_ms=0).median == 120  # (90 + 150) / 2


def test_rt_summary_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="finite"):
        rt_summary([500, math.nan])
    with pytest.raises(ValueError, match="sd_cutoff"):
        rt_summary([500], sd_cutoff=0)
    with pytest.raises(ValueError, match="floor_ms"):
        rt_summary([500], floor_ms=-1)


def test_rolling_medians_worked_example() -> None:
    # Window 3 over 400, 100 (an anticipation), 600, 800, 150, 120:
    # [400] 400; [400, -] 400; [400, -, 600] 500; [-, 600, 800] 700; [600, 800, -] 700;
    # [800, -, -] 800.
    assert rolling_medians([400, 100, 600, 800, 150, 120], window=3) == [
        400,
        400,
        500,
        700,
        700,
        800,
    ]
    # A slice of anticipations only has no median: it is left out.
    assert rolling_medians([100, 150, 300], window=2) == [300]
    assert rolling_medians([], window=10) == []


def test_rolling_medians_refuses_bad_input() -> None:
    with pytest.raises(ValueError, match="window"):
        rolling_medians([500], window=0)
    with pytest.raises(ValueError, match="finite"):
        rolling_medians([500, math.nan], window=3)
    with pytest.raises(ValueError, match="since"):
        rolling_medians([500], window=3, since=-1)


@given(rts, st.integers(min_value=1, max_value=15))
@PROPERTIES
def test_rolling_medians_are_rt_summarys_median_of_each_slice(
    values: list[float], window: int
) -> None:
    # The console's rolling RT: the same numbers rt_summary gave, slice by slice.
    expected = [
        summary.median
        for end in range(1, len(values) + 1)
        if (summary := rt_summary(values[max(0, end - window) : end])).median is not None
    ]
    assert rolling_medians(values, window=window) == expected


@given(rts, st.integers(min_value=1, max_value=15), st.integers(min_value=0, max_value=40))
@PROPERTIES
def test_rolling_medians_since_k_are_what_the_responses_after_k_add(
    values: list[float], window: int, k: int
) -> None:
    # A console keeps the medians it drew and adds those of the responses since.
    before = rolling_medians(values[:k], window=window)
    after = rolling_medians(values, window=window, since=k)
    assert before + after == rolling_medians(values, window=window)


def test_inverse_efficiency_worked_examples() -> None:
    # IES = 600 ms / 0.9 = 666.67 ms; all correct: IES = mean RT.
    assert inverse_efficiency(600, 0.9) == pytest.approx(666.7, abs=0.05)
    assert inverse_efficiency(500, 1.0) == 500
    # Nothing correct: no correct RT, no finite score.
    assert inverse_efficiency(600, 0.0) is None
    with pytest.raises(ValueError, match="proportion_correct"):
        inverse_efficiency(600, 1.2)


def test_balanced_integration_scores_worked_example() -> None:
    # PC: A 0.9, B 0.8, C 0.7 -> mean 0.8, population SD sqrt((0.01 + 0 + 0.01) / 3) = 0.08165
    #     z(PC) = +1.224745, 0, -1.224745  (0.1 / 0.08165 = sqrt(3/2))
    # RT: A 600, B 500, C 700 -> mean 600, population SD sqrt((0 + 100^2 + 100^2) / 3) = 81.65
    #     z(RT) = 0, -1.224745, +1.224745
    # BIS = z(PC) - z(RT): A 1.224745, B 1.224745, C -2.449490 (= -sqrt(6)).
    # D has no correct response (no mean correct RT): None, and left out of the group stats.
    scores = balanced_integration_scores(
        {"A": (0.9, 600.0), "B": (0.8, 500.0), "C": (0.7, 700.0), "D": (0.0, None)}
    )
    assert scores["A"] == pytest.approx(math.sqrt(1.5))
    assert scores["B"] == pytest.approx(math.sqrt(1.5))
    assert scores["C"] == pytest.approx(-math.sqrt(6))
    assert scores["D"] is None


def test_balanced_integration_scores_zero_spread_and_small_groups() -> None:
    # Same accuracy for all: that term is 0, BIS = -z(RT) = -(-1.224745, 0, 1.224745).
    same_pc = balanced_integration_scores({1: (0.8, 500.0), 2: (0.8, 600.0), 3: (0.8, 700.0)})
    assert list(same_pc.values()) == pytest.approx([math.sqrt(1.5), 0.0, -math.sqrt(1.5)])
    # Nobody to compare with: no score (a 0.00 would read as "exactly average").
    assert balanced_integration_scores({"solo": (0.9, 640.0)}) == {"solo": None}
    assert balanced_integration_scores({"solo": (0.9, 640.0), "x": (0.0, None)}) == {
        "solo": None,
        "x": None,
    }
    assert balanced_integration_scores({}) == {}


def test_interference_cost_is_a_difference_of_medians() -> None:
    # Incongruent median = (650 + 700) / 2 = 675; congruent median = 550; cost = 125 ms.
    assert interference_cost(
        incongruent_rts=[600, 650, 700, 900], congruent_rts=[500, 550, 600]
    ) == pytest.approx(125.0)
    # One very slow incongruent trial moves the median, not by its size: (650 + 700) / 2 still.
    assert interference_cost(
        incongruent_rts=[600, 650, 700, 9000], congruent_rts=[500, 550, 600]
    ) == pytest.approx(125.0)
    assert interference_cost(incongruent_rts=[], congruent_rts=[500]) is None
    assert interference_cost(incongruent_rts=[500], congruent_rts=[]) is None


def test_error_interference_is_a_difference_of_error_rates() -> None:
    # 3 / 10 - 1 / 10 = 0.3 - 0.1 = 0.2
    assert error_interference(
        incongruent_errors=3, incongruent_trials=10, congruent_errors=1, congruent_trials=10
    ) == pytest.approx(0.2)
    assert (
        error_interference(
            incongruent_errors=0, incongruent_trials=0, congruent_errors=1, congruent_trials=4
        )
        is None
    )
    with pytest.raises(ValueError, match="errors <= trials"):
        error_interference(
            incongruent_errors=5, incongruent_trials=4, congruent_errors=0, congruent_trials=4
        )


@PROPERTIES
@given(
    st.floats(min_value=0, max_value=10_000),
    st.floats(min_value=0, max_value=1, exclude_min=True),
)
def test_inverse_efficiency_is_never_below_the_mean_rt(rt: float, pc: float) -> None:
    ies = inverse_efficiency(rt, pc)
    assert ies is not None
    assert ies >= rt


@PROPERTIES
@given(rts)
def test_rt_summary_centres_lie_within_the_kept_values(values: list[float]) -> None:
    summary = rt_summary(values)
    kept = [v for v in values if v >= 200]
    assert summary.n == len(kept)
    assert summary.n + summary.anticipations == len(values)
    if not kept:
        assert summary.median is summary.mean is summary.trimmed_mean is None
        return
    assert summary.median is not None
    assert min(kept) <= summary.median <= max(kept)
    assert summary.trimmed_mean is not None
    assert min(kept) - 1e-9 <= summary.trimmed_mean <= max(kept) + 1e-9
    assert set(summary.flagged_slow_or_fast) <= set(kept)


@PROPERTIES
@given(
    st.lists(
        st.tuples(st.floats(0, 1), st.floats(min_value=200, max_value=3000)),
        min_size=2,
        max_size=30,
    )
)
def test_balanced_integration_scores_sum_to_zero(rows: list[tuple[float, float]]) -> None:
    assume(len({pc for pc, _rt in rows}) > 1 and len({rt for _pc, rt in rows}) > 1)
    scores = balanced_integration_scores(dict(enumerate(rows)))
    values = [score for score in scores.values() if score is not None]
    assert len(values) == len(rows)
    assert math.fsum(values) == pytest.approx(0.0, abs=1e-6)
