"""Counts that add up field by field, and their flat rows (``classroom.analytics.counts``)."""

from __future__ import annotations

from hypothesis import given

from classroom.analytics.counts import counts_of_row, counts_row, counts_sum
from classroom.analytics.measures import Tally
from classroom.analytics.row_measures import TrialFacts, tally_of
from classroom.analytics.signal import SignalCounts
from tests.classroom.trial_facts import trial_facts

_trials = trial_facts()


def test_a_tallys_row_has_its_nested_signal_in_place() -> None:
    tally = Tally(
        trials=9,
        correct=7,
        signal=SignalCounts(hits=4, misses=1, false_alarms=2, correct_rejections=2),
        congruent_targets=3,
        congruent_errors=1,
        incongruent_targets=2,
        incongruent_errors=0,
    )
    assert counts_row(tally) == [9, 7, 4, 1, 2, 2, 3, 1, 2, 0]
    assert counts_of_row(Tally, counts_row(tally)) == tally


@given(_trials)
def test_the_rows_of_single_trials_add_up_to_the_tally_of_all(trials: list[TrialFacts]) -> None:
    summed = [
        sum(column) for column in zip(*(counts_row(tally_of([t])) for t in trials), strict=True)
    ]
    assert counts_of_row(Tally, summed or counts_row(Tally())) == tally_of(trials)


@given(_trials, _trials)
def test_a_sum_of_rows_is_the_row_of_the_sum(
    first: list[TrialFacts], second: list[TrialFacts]
) -> None:
    a, b = tally_of(first), tally_of(second)
    assert counts_row(counts_sum(a, b)) == [
        x + y for x, y in zip(counts_row(a), counts_row(b), strict=True)
    ]
