"""Progress: learning curves, trends, running medians and the plain-language summary."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from classroom.analytics.progress import (
    ACCURACY_STEADY,
    DECLINING,
    FASTER_WEEKS,
    IMPROVING,
    LEVEL_FRAME,
    STEADY,
    LineFit,
    SessionPoint,
    learning_curve,
    progress_summary,
    rolling_median,
    summary_text,
    trend,
)

PROPERTIES = settings(derandomize=True, database=None, deadline=None)
TODAY = date(2025, 3, 24)


def test_learning_curve_worked_example() -> None:
    # x = 0, 1, 2, 3 (session index); y = 700, 650, 640, 590 (median RT).
    # mean x = 1.5, mean y = 2580 / 4 = 645
    # x - mean x = -1.5, -0.5, 0.5, 1.5; y - mean y = 55, 5, -5, -55
    # Sxy = -82.5 - 2.5 - 2.5 - 82.5 = -170; Sxx = 2.25 + 0.25 + 0.25 + 2.25 = 5
    # slope = -170 / 5 = -34 ms per session; intercept = 645 + 34 * 1.5 = 696
    fit = learning_curve([(0, 700), (1, 650), (2, 640), (3, 590)])
    assert fit is not None
    assert fit.slope == pytest.approx(-34)
    assert fit.intercept == pytest.approx(696)
    assert fit.n == 4
    assert fit.predict(4) == pytest.approx(560)  # 696 - 34 * 4


def test_learning_curve_needs_two_distinct_x() -> None:
    assert learning_curve([]) is None
    assert learning_curve([(3, 600)]) is None
    assert learning_curve([(3, 600), (3, 640)]) is None
    assert learning_curve([(0, 1), (2, 5)]) == LineFit(slope=2.0, intercept=1.0, n=2)


def test_trend_compares_the_last_third_with_the_first() -> None:
    rts = [700, 690, 680, 640, 630, 600]
    # k = 6 // 3 = 2: first mean (700 + 690) / 2 = 695, last mean (630 + 600) / 2 = 615.
    # change = 615 - 695 = -80; lower is better, so +80 > 20: improving.
    assert trend(rts, lower_is_better=True, tolerance=20) == IMPROVING
    assert trend(rts, lower_is_better=False, tolerance=20) == DECLINING
    assert trend(rts, lower_is_better=True, tolerance=80) == STEADY  # not more than 80
    # Two values: k = max(1, 0) = 1, so the ends themselves: 0.9 - 0.8 = 0.1 > 0.05.
    assert trend([0.8, 0.9], lower_is_better=False, tolerance=0.05) == IMPROVING
    assert trend([0.8], lower_is_better=False, tolerance=0) == STEADY
    assert trend([], lower_is_better=False, tolerance=0) == STEADY
    with pytest.raises(ValueError, match="tolerance"):
        trend(rts, lower_is_better=True, tolerance=-1)


def test_rolling_median_uses_a_trailing_window() -> None:
    # window 3: [5] -> 5; [5, 1] -> 3; [5, 1, 9] -> 5; [1, 9, 3] -> 3; [9, 3, 7] -> 7
    assert rolling_median([5, 1, 9, 3, 7], 3) == [5, 3, 5, 3, 7]
    assert rolling_median([5, 1, 9], 1) == [5, 1, 9]
    assert rolling_median([], 3) == []
    with pytest.raises(ValueError, match="window"):
        rolling_median([1, 2], 0)


def _advanced_sessions() -> list[SessionPoint]:
    return [
        SessionPoint(date(2025, 2, 1), 1200.0, 0.95, "beginner"),  # another level: ignored
        SessionPoint(date(2025, 3, 3), 800.0, 0.80, "advanced"),
        SessionPoint(date(2025, 3, 10), 780.0, 0.82, "advanced"),
        SessionPoint(date(2025, 3, 21), 700.0, 0.83, "advanced"),
        SessionPoint(date(2025, 4, 1), 400.0, 1.0, "advanced"),  # after today: ignored
    ]


def test_progress_summary_worked_example() -> None:
    # Advanced sessions up to today: 3 March (800 ms, 80 %) ... 21 March (700 ms, 83 %).
    # RT change = (700 - 800) / 800 = -12.5 %, at most -5 %: faster.
    # Weeks = (24 March - 3 March) = 21 days // 7 = 3.
    # Accuracy change = 83 - 80 = 3 points, under 5: steady.
    parts = progress_summary(_advanced_sessions(), TODAY)
    assert parts == [
        (FASTER_WEEKS, {"weeks": 3}),
        (ACCURACY_STEADY, {}),
        (LEVEL_FRAME, {"level": "advanced"}),
    ]
    assert summary_text(parts) == "Faster than 3 weeks ago; accuracy steady at the advanced level."


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        # 760 / 800 - 1 = -5 % exactly: faster; 0.85 - 0.80 = 5 points exactly: up.
        ((800.0, 0.80), (760.0, 0.85), "Faster than a week ago; accuracy up"),
        # 781 / 800 - 1 = -2.4 %: as fast; 0.76 - 0.80 = -4 points: steady.
        ((800.0, 0.80), (781.0, 0.76), "As fast as a week ago; accuracy steady"),
        # 840 / 800 - 1 = +5 %: slower; 0.70 - 0.80 = -10 points: down.
        ((800.0, 0.80), (840.0, 0.70), "Slower than a week ago; accuracy down"),
        # No RT on the first session: only accuracy can be compared.
        ((None, 0.80), (700.0, 0.90), "Accuracy up"),
    ],
)
def test_progress_summary_thresholds(
    before: tuple[float | None, float], after: tuple[float, float], expected: str
) -> None:
    # 3 March to 10 March is 7 days (enough); to today (12 March) 9 days // 7 = 1 week.
    sessions = [
        SessionPoint(date(2025, 3, 3), before[0], before[1], "intermediate"),
        SessionPoint(date(2025, 3, 10), after[0], after[1], "intermediate"),
    ]
    text = summary_text(progress_summary(sessions, date(2025, 3, 12)))
    assert text == f"{expected} at the intermediate level."


def test_progress_summary_needs_sessions_a_week_apart() -> None:
    # 3 March to 9 March is 6 days: too close to call a change.
    sessions = [
        SessionPoint(date(2025, 3, 3), 800.0, 0.8, "beginner"),
        SessionPoint(date(2025, 3, 9), 600.0, 0.9, "beginner"),
    ]
    assert summary_text(progress_summary(sessions, TODAY)) == (
        "Not enough sessions a week apart yet to show a change at the beginner level."
    )
    assert progress_summary([], TODAY) == []
    assert summary_text([]) == ""
    # An unknown level is not named.
    odd = [SessionPoint(date(2025, 3, 3), 800.0, None, "expert")]
    assert summary_text(progress_summary(odd, TODAY)) == (
        "Not enough sessions a week apart yet to show a change."
    )


def test_summary_text_translates_templates_and_level_names() -> None:
    catalog = {
        "faster than %(weeks)d weeks ago": "比 %(weeks)d 週前快",
        "accuracy steady": "正確率持平",
        "%(summary)s at the %(level)s level": "%(level)s：%(summary)s",
        "advanced": "高階",
        "; ": "；",
        ".": "。",
    }
    parts = progress_summary(_advanced_sessions(), TODAY)
    assert summary_text(parts, lambda s: catalog.get(s, s)) == "高階：比 3 週前快；正確率持平。"


@PROPERTIES
@given(
    st.floats(-50, 50),
    st.floats(-1000, 1000),
    st.lists(st.integers(0, 60), min_size=2, max_size=20, unique=True),
)
def test_learning_curve_recovers_an_exact_line(
    slope: float, intercept: float, xs: list[int]
) -> None:
    fit = learning_curve([(x, intercept + slope * x) for x in xs])
    assert fit is not None
    assert fit.slope == pytest.approx(slope, abs=1e-6)
    assert fit.intercept == pytest.approx(intercept, abs=1e-6)


@PROPERTIES
@given(st.lists(st.floats(0, 5000), max_size=40), st.integers(1, 10))
def test_rolling_median_stays_within_its_window(values: list[float], window: int) -> None:
    smoothed = rolling_median(values, window)
    assert len(smoothed) == len(values)
    for i, median in enumerate(smoothed):
        span = values[max(0, i - window + 1) : i + 1]
        assert min(span) <= median <= max(span)


def test_honest_trend_calls_a_change_only_beyond_its_uncertainty() -> None:
    from classroom.analytics.progress import DECLINING, IMPROVING, STEADY, honest_trend

    # 6 values, k = 2: change = mean(600, 400) - mean(700, 500) = -100 ms (faster), but the
    # sessions vary: s = 216.0, SE = s * sqrt(2 / 2) = s, and 100 < 2 SE = 432: steady.
    values = [700, 500, 900, 300, 600, 400]
    assert honest_trend(values, lower_is_better=True, tolerance=30) == STEADY
    # Steady sessions: change = 500 - 700 = -200 ms, s = 89.4, 200 > 2 SE = 178.9: improving.
    assert honest_trend([700, 700, 600, 600, 500, 500], lower_is_better=True, tolerance=30) == (
        IMPROVING
    )
    assert honest_trend([0.5, 0.5, 0.6, 0.6, 0.9, 0.9], lower_is_better=False, tolerance=0.05) == (
        IMPROVING
    )
    assert honest_trend([500, 500, 600, 600, 700, 700], lower_is_better=True, tolerance=30) == (
        DECLINING
    )
    # Two sessions: nothing to judge a change by.
    assert honest_trend([900, 400], lower_is_better=True, tolerance=30) == STEADY


def test_distinct_weeks_counts_calendar_weeks() -> None:
    from datetime import date

    from classroom.analytics.progress import distinct_weeks

    assert distinct_weeks([date(2026, 3, 2)] * 10) == 1
    # Sunday 8 March and Monday 9 March are in different ISO weeks.
    assert distinct_weeks([date(2026, 3, 2), date(2026, 3, 8), date(2026, 3, 9)]) == 2


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [(0.60, 0.80, "Spotting rate up"), (0.80, 0.60, "Spotting rate down"),
     (0.80, 0.82, "Spotting rate steady")],
)  # fmt: skip
def test_a_game_with_a_rate_of_its_own_names_it_in_the_summary(
    before: float, after: float, expected: str
) -> None:
    sessions = [
        SessionPoint(date(2025, 3, 3), None, before, "intermediate"),
        SessionPoint(date(2025, 3, 10), None, after, "intermediate"),
    ]
    parts = progress_summary(sessions, date(2025, 3, 12), rate="spotting rate")
    assert summary_text(parts) == f"{expected} at the intermediate level."
    # Without a name it is accuracy, as before.
    plain = summary_text(progress_summary(sessions, date(2025, 3, 12)))
    assert plain == f"{expected.replace('Spotting rate', 'Accuracy')} at the intermediate level."
