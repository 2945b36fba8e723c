"""Measures of any subset of trial rows, counted in Python the way the database counts them.

Pure: the pages count in the database (``classroom.selectors.analytics``); split-half
reliability and the bootstrap need the same measures of halves and resamples of a child's
trials, which no query can give, so this module counts them from the rows themselves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from classroom.analytics.measures import CorrectRts, Measures, Tally, measures_from
from classroom.analytics.signal import SignalCounts

if TYPE_CHECKING:
    from collections.abc import Iterable


class TrialFacts(NamedTuple):
    """The columns of a trial that its measures read."""

    target: bool | None
    responded: bool | None
    congruent: bool | None
    rt_ms: int | None
    correct: bool | None
    plausible: bool


def tally_of(rows: Iterable[TrialFacts]) -> Tally:
    """The counts of ``classroom.selectors.analytics`` (``_COUNTS``) over these rows."""
    trials = correct = hits = misses = false_alarms = correct_rejections = 0
    congruent_targets = congruent_errors = incongruent_targets = incongruent_errors = 0
    for row in rows:
        trials += 1
        correct += row.correct is True
        if row.target is True:
            hits += row.responded is True
            misses += row.responded is False
            if row.congruent is True:
                congruent_targets += 1
                congruent_errors += row.correct is False
            elif row.congruent is False:
                incongruent_targets += 1
                incongruent_errors += row.correct is False
        elif row.target is False:
            false_alarms += row.responded is True
            correct_rejections += row.responded is False
    return Tally(
        trials=trials,
        correct=correct,
        signal=SignalCounts(hits, misses, false_alarms, correct_rejections),
        congruent_targets=congruent_targets,
        congruent_errors=congruent_errors,
        incongruent_targets=incongruent_targets,
        incongruent_errors=incongruent_errors,
    )


def correct_rts_of(rows: Iterable[TrialFacts]) -> CorrectRts:
    """The sorted plausible correct RTs of these rows, split by congruence (as
    ``scored_responses`` chooses them)."""
    scored = sorted(
        (row.rt_ms, row.congruent)
        for row in rows
        if row.correct is True and row.responded is True and row.plausible and row.rt_ms is not None
    )
    return CorrectRts(
        all=[rt for rt, _ in scored],
        congruent=[rt for rt, congruent in scored if congruent is True],
        incongruent=[rt for rt, congruent in scored if congruent is False],
    )


def measures_of_rows(rows: Iterable[TrialFacts]) -> Measures:
    """Every measure of these rows, equal to what the pages compute for the same trials."""
    rows = list(rows)
    return measures_from(tally_of(rows), correct_rts_of(rows))
