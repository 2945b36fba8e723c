"""Whether a run is valid: one child's play of one game in one session, judged as a whole.

Pure Python: no Django, no I/O, no clock (trial times are arguments).

A trial can be plausible while the run is not: a child who tapped before half the cards could
be seen, tapped at random, or drifted off for a minute. Each check below gives a reason a
teacher reads, and a flagged run says the child may retake it. The thresholds are a project
convention; each is chosen so that a steady player is almost never flagged (the known-truth
tests check scripted steady players, anticipators and random tappers).
"""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass

from classroom.analytics.progress import gettext_noop
from classroom.analytics.speed import ANTICIPATION_FLOOR_MS

if typing.TYPE_CHECKING:
    from collections.abc import Sequence

ANTICIPATIONS = "anticipations"
AT_CHANCE = "at_chance"
TOO_FEW_RESPONSES = "too_few_responses"
LAPSE_BURST = "lapse_burst"
LONG_SILENCE = "long_silence"

REASONS = {
    ANTICIPATIONS: gettext_noop("many taps before the card could be seen"),
    AT_CHANCE: gettext_noop("right about as often as by guessing"),
    TOO_FEW_RESPONSES: gettext_noop("too few taps to judge"),
    LAPSE_BURST: gettext_noop("missed many in a row"),
    LONG_SILENCE: gettext_noop("a long time with no taps"),
}
MAY_RETAKE = gettext_noop("may retake")

# A run is flagged for anticipations when at least this share of its responses (and at least
# MIN_ANTICIPATIONS of them) came faster than ANTICIPATION_FLOOR_MS.
MAX_ANTICIPATION_SHARE = 0.2
MIN_ANTICIPATIONS = 3
# Accuracy is tested against chance only from this many judged trials (fewer cannot tell a
# good player from a guesser), one-sided at this level.
MIN_TRIALS_FOR_CHANCE = 20
CHANCE_ALPHA = 0.05
# Fewer responses than this cannot show how a child plays.
MIN_RESPONSES = 5
# A run of misses is a lapse burst when it is at least this long and so unlikely under the
# child's own miss rate that fewer than LAPSE_EXPECTED_MAX such runs would be expected.
MIN_LAPSE_RUN = 5
LAPSE_EXPECTED_MAX = 0.01
# A stretch this long with trials calling for a response but none answered.
SILENCE_MS = 60_000
MIN_SILENT_TARGETS = 3
LONGEST_GAP_MS = 15_000


@dataclass(frozen=True)
class RunTrial:
    """One trial of a run as validity needs it: when it closed (ms on any clock that only
    moves forward), whether it called for a response (``None``: the game does not say),
    whether there was one, whether it was right, and the response's RT (ms)."""

    at_ms: float
    target: bool | None
    responded: bool | None
    correct: bool | None
    rt_ms: float | None


@dataclass(frozen=True)
class Validity:
    """The flags a run raised (keys of ``REASONS``, in the order of the checks); a run with
    none is valid."""

    flags: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.flags

    def reasons(self) -> list[str]:
        """The teacher's words for each flag (translatable message ids)."""
        return [REASONS[flag] for flag in self.flags]


def binomial_upper_tail(successes: int, trials: int, p: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, p), summed exactly in log space."""
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, got {successes} of {trials}")
    if not 0 <= p <= 1:
        raise ValueError(f"p must be within [0, 1], got {p}")
    if successes == 0:
        return 1.0
    if p in {0.0, 1.0}:
        return 0.0 if p == 0 else 1.0
    log_p, log_q = math.log(p), math.log1p(-p)
    log_n = math.lgamma(trials + 1)
    total = 0.0
    for k in range(successes, trials + 1):
        log_term = log_n - math.lgamma(k + 1) - math.lgamma(trials - k + 1)
        total += math.exp(log_term + k * log_p + (trials - k) * log_q)
    return min(1.0, total)


def yes_no_chance(trials: Sequence[RunTrial]) -> float | None:
    """The accuracy a child would have if their slaps had nothing to do with the card: with r
    their share of trials responded to and s the share of trials that called for a response,
    chance = r s + (1 - r)(1 - s) (responding at their own rate, at random). ``None``
    without yes/no trials."""
    judged = [t for t in trials if t.target is not None and t.responded is not None]
    if not judged:
        return None
    r = sum(1 for t in judged if t.responded) / len(judged)
    s = sum(1 for t in judged if t.target) / len(judged)
    return r * s + (1 - r) * (1 - s)


def _longest_miss_run(trials: Sequence[RunTrial]) -> tuple[int, int, int]:
    """(the longest run of misses in a row among trials that called for a response, how many
    such trials, how many of them were missed)."""
    longest = current = targets = misses = 0
    for trial in trials:
        if not trial.target:
            continue
        targets += 1
        if trial.responded:
            current = 0
            continue
        misses += 1
        current += 1
        longest = max(longest, current)
    return longest, targets, misses


def _lapse_burst(trials: Sequence[RunTrial]) -> bool:
    """A run of L misses in a row, L >= ``MIN_LAPSE_RUN``, where with q the child's miss rate
    and m their targets the expected number of such runs, m (1 - q) q^L, is below
    ``LAPSE_EXPECTED_MAX`` (a run of misses begins after a response, with probability
    (1 - q), and lasts at least L with probability q^L; Feller, W. (1968), *An Introduction to
    Probability Theory*, vol. 1, 3rd ed., ch. XIII.7)."""
    longest, targets, misses = _longest_miss_run(trials)
    if longest < MIN_LAPSE_RUN or misses == targets:  # no burst, or never answered at all
        return False
    q = misses / targets
    return targets * (1 - q) * q**longest < LAPSE_EXPECTED_MAX


def _long_silence(trials: Sequence[RunTrial]) -> bool:
    """A stretch without a response lasting ``SILENCE_MS`` or more while at least
    ``MIN_SILENT_TARGETS`` of its trials called for one. The stretch's length adds the time
    between its trials, each gap counted up to ``LONGEST_GAP_MS`` only: a longer one is the
    game standing still (paused, or between two games), not the child."""
    ordered = sorted(trials, key=lambda t: t.at_ms)
    silent_ms = 0.0
    unanswered = 0
    for before, trial in zip([None, *ordered], ordered, strict=False):
        if trial.responded:
            silent_ms, unanswered = 0.0, 0
            continue
        if before is not None and not before.responded:
            silent_ms += min(LONGEST_GAP_MS, trial.at_ms - before.at_ms)
        unanswered += bool(trial.target)
        if silent_ms >= SILENCE_MS and unanswered >= MIN_SILENT_TARGETS:
            return True
    return False


def run_validity(trials: Sequence[RunTrial], *, chance: float | None = None) -> Validity:
    """The checks of one run, in this order:

    * ``ANTICIPATIONS``: at least ``MAX_ANTICIPATION_SHARE`` of the responses (and at least
      ``MIN_ANTICIPATIONS``) faster than ``ANTICIPATION_FLOOR_MS`` (no one reads a card that
      fast; Ratcliff 1993).
    * ``AT_CHANCE``: with at least ``MIN_TRIALS_FOR_CHANCE`` judged trials and a ``chance``
      accuracy given (see :func:`yes_no_chance`), a one-sided exact binomial test of the
      correct count against ``chance`` does not reach ``CHANCE_ALPHA``.
    * ``TOO_FEW_RESPONSES``: fewer than ``MIN_RESPONSES`` responses.
    * ``LAPSE_BURST``: see ``_lapse_burst``.
    * ``LONG_SILENCE``: see ``_long_silence``.
    """
    flags: list[str] = []
    responses = [t for t in trials if t.responded]
    fast = sum(1 for t in responses if t.rt_ms is not None and t.rt_ms < ANTICIPATION_FLOOR_MS)
    if fast >= MIN_ANTICIPATIONS and fast >= MAX_ANTICIPATION_SHARE * len(responses):
        flags.append(ANTICIPATIONS)
    judged = [t for t in trials if t.correct is not None]
    if chance is not None and len(judged) >= MIN_TRIALS_FOR_CHANCE:
        correct = sum(1 for t in judged if t.correct)
        if binomial_upper_tail(correct, len(judged), chance) >= CHANCE_ALPHA:
            flags.append(AT_CHANCE)
    if len(responses) < MIN_RESPONSES:
        flags.append(TOO_FEW_RESPONSES)
    if _lapse_burst(trials):
        flags.append(LAPSE_BURST)
    if _long_silence(trials):
        flags.append(LONG_SILENCE)
    return Validity(tuple(flags))
