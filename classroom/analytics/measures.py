"""One student's (or one group's) measures, put together from what the database counted.

Pure: the selectors count trials in the database and fetch the sorted correct RTs; this
module turns those into the measures the pages show, so every page computes them the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import chain
from typing import TYPE_CHECKING, TypeVar

from classroom.analytics.counts import counts_sum
from classroom.analytics.signal import SignalCounts
from classroom.analytics.speed import (
    RtSummary,
    balanced_integration_scores,
    error_interference,
    interference_cost,
    inverse_efficiency,
    rt_summary,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

K = TypeVar("K")


@dataclass(frozen=True)
class Tally:
    """Counts of one group of trials, as the database aggregates them."""

    trials: int = 0
    correct: int = 0
    signal: SignalCounts = field(default_factory=SignalCounts)
    # Match trials only (a response was called for), split by whether word = ink.
    congruent_targets: int = 0
    congruent_errors: int = 0
    incongruent_targets: int = 0
    incongruent_errors: int = 0

    def __add__(self, other: Tally) -> Tally:
        """The counts of both groups together (a session from its kinds of trial)."""
        return counts_sum(self, other)


@dataclass(frozen=True)
class CorrectRts:
    """Plausible reaction times of correct responses, in ms, with the Stroop split."""

    all: Sequence[int] = ()
    congruent: Sequence[int] = ()
    incongruent: Sequence[int] = ()


def merged_rts(parts: Iterable[CorrectRts]) -> CorrectRts:
    """The RTs of several groups as one group, sorted like each part."""
    parts = list(parts)
    if len(parts) == 1:  # a session with one kind of trial: nothing to merge
        return parts[0]
    # Sorting the joined runs is linear in practice (Timsort finds the sorted runs).
    return CorrectRts(
        all=sorted(chain.from_iterable(part.all for part in parts)),
        congruent=sorted(chain.from_iterable(part.congruent for part in parts)),
        incongruent=sorted(chain.from_iterable(part.incongruent for part in parts)),
    )


@dataclass(frozen=True)
class Measures:
    trials: int
    correct: int
    signal: SignalCounts
    accuracy: float | None
    dprime: float | None
    criterion: float | None
    rt: RtSummary
    inverse_efficiency_ms: float | None
    interference_ms: float | None
    error_interference: float | None
    # Needs the rest of the group; see ``with_balanced_integration``.
    balanced_integration: float | None = None
    # The sorted plausible correct RTs the RT measures are of (for their intervals). Not part
    # of what the measures are: two reads of the same trials (a whole one, an incremental one)
    # give equal measures whatever container holds their RTs.
    correct_rts: Sequence[int] = field(default=(), compare=False, repr=False)

    @property
    def accuracy_percent(self) -> float | None:
        return None if self.accuracy is None else 100 * self.accuracy


def measures_from(tally: Tally, rts: CorrectRts) -> Measures:
    """Accuracy = correct / trials; d' and c when the trials were yes/no decisions; RT
    measures of plausible correct responses (see ``speed.rt_summary``); IES = mean correct RT
    / proportion correct; Stroop interference on match trials (incongruent minus congruent).
    """
    accuracy = tally.correct / tally.trials if tally.trials else None
    summary = rt_summary(rts.all)
    has_signal = tally.signal.trials > 0
    ies = (
        inverse_efficiency(summary.mean, accuracy)
        if summary.mean is not None and accuracy
        else None
    )
    return Measures(
        trials=tally.trials,
        correct=tally.correct,
        signal=tally.signal,
        accuracy=accuracy,
        dprime=tally.signal.dprime() if has_signal else None,
        criterion=tally.signal.criterion() if has_signal else None,
        rt=summary,
        inverse_efficiency_ms=ies,
        interference_ms=interference_cost(
            incongruent_rts=rts.incongruent, congruent_rts=rts.congruent
        ),
        error_interference=error_interference(
            incongruent_errors=tally.incongruent_errors,
            incongruent_trials=tally.incongruent_targets,
            congruent_errors=tally.congruent_errors,
            congruent_trials=tally.congruent_targets,
        ),
        correct_rts=rts.all,
    )


def with_balanced_integration(group: Mapping[K, Measures]) -> dict[K, Measures]:
    """The same measures with BIS filled in, standardised within this group (a class)."""
    inputs = {key: (m.accuracy, m.rt.mean) for key, m in group.items() if m.accuracy is not None}
    scores = balanced_integration_scores(inputs)
    return {key: replace(m, balanced_integration=scores.get(key)) for key, m in group.items()}
