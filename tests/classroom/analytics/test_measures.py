"""Measures: counts of a session's kinds of trial pool into the whole session's."""

from __future__ import annotations

from classroom.analytics.measures import CorrectRts, Tally, measures_from, merged_rts
from classroom.analytics.signal import SignalCounts


def test_tallies_add_up_field_by_field() -> None:
    # Riff Raff: 4 catches (3 caught) beside 5 placements (3 stayed, no yes/no decision).
    catches = Tally(trials=4, correct=3, signal=SignalCounts(hits=3, misses=1))
    placements = Tally(trials=5, correct=3)
    assert catches + placements == Tally(trials=9, correct=6, signal=SignalCounts(hits=3, misses=1))
    stroop = Tally(
        trials=2,
        congruent_targets=1,
        congruent_errors=1,
        incongruent_targets=3,
        incongruent_errors=2,
    )
    assert (stroop + stroop).incongruent_errors == 4
    assert Tally() + stroop == stroop


def test_merged_rts_stay_sorted_and_keep_the_stroop_split() -> None:
    first = CorrectRts(all=[300, 500, 700], congruent=[300], incongruent=[500, 700])
    second = CorrectRts(all=[400, 600], congruent=[400, 600])
    merged = merged_rts([first, second])
    assert list(merged.all) == [300, 400, 500, 600, 700]
    assert list(merged.congruent) == [300, 400, 600]
    assert list(merged.incongruent) == [500, 700]
    assert merged_rts([]) == CorrectRts(all=[], congruent=[], incongruent=[])
    # The whole session's median over both groups: 500 ms.
    assert measures_from(Tally(trials=5, correct=5), merged).rt.median == 500
