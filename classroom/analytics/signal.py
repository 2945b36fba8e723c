"""Signal detection: hits, misses, false alarms and correct rejections, d' and the criterion c.

Pure Python: no Django, no I/O, no clock.

A flip of the public cards is a *signal trial* for a student when a match exists in that student's
slap scope, a *noise trial* otherwise. Slapping is the "yes" response. Sensitivity d' says how
well a student tells the two apart; the criterion c says how readily they slap at all.

Reference: Macmillan, N. A. & Creelman, C. D. (2005). *Detection Theory: A User's Guide*
(2nd ed.), Erlbaum — ch. 1-2 for d' and c. Rates of 0 or 1 make z infinite, so both measures
use the log-linear correction of Hautus, M. J. (1995), "Corrections for extreme proportions
and their biasing effects on estimated values of d'", *Behavior Research Methods,
Instruments, & Computers* 27, 46-51: add 0.5 to each count and 1 to each total.
"""

from __future__ import annotations

import typing
from collections import Counter
from dataclasses import dataclass
from statistics import NormalDist

from classroom.analytics.counts import counts_sum

if typing.TYPE_CHECKING:
    from collections.abc import Iterable

HIT = "hit"
MISS = "miss"
FALSE_ALARM = "false_alarm"
CORRECT_REJECTION = "correct_rejection"
OUTCOMES = (HIT, MISS, FALSE_ALARM, CORRECT_REJECTION)

_z = NormalDist().inv_cdf


def signal_of(*, signal_present: bool, responded: bool) -> str:
    """Classify one trial (the 2 x 2 table of Macmillan & Creelman 2005, ch. 1).

    ============== ========== =====================
    signal present responded  outcome
    ============== ========== =====================
    yes            yes        ``HIT``
    yes            no         ``MISS``
    no             yes        ``FALSE_ALARM``
    no             no         ``CORRECT_REJECTION``
    ============== ========== =====================
    """
    if signal_present:
        return HIT if responded else MISS
    return FALSE_ALARM if responded else CORRECT_REJECTION


def _check_counts(*counts: int) -> None:
    if any(count < 0 for count in counts):
        raise ValueError(f"counts must be zero or more, got {counts}")


def corrected_rates(
    hits: int, misses: int, false_alarms: int, correct_rejections: int
) -> tuple[float, float]:
    """Hit and false-alarm rates with the log-linear correction (Hautus 1995).

    H = (hits + 0.5) / (hits + misses + 1) and F = (fa + 0.5) / (fa + cr + 1), so both lie
    strictly between 0 and 1 (and are 0.5 when there were no trials of that kind).
    Raises ``ValueError`` for a negative count.
    """
    _check_counts(hits, misses, false_alarms, correct_rejections)
    hit_rate = (hits + 0.5) / (hits + misses + 1)
    false_alarm_rate = (false_alarms + 0.5) / (false_alarms + correct_rejections + 1)
    return hit_rate, false_alarm_rate


def dprime(hits: int, misses: int, false_alarms: int, correct_rejections: int) -> float:
    """Sensitivity d' = z(H) - z(F) (Macmillan & Creelman 2005, ch. 1).

    z is the inverse of the standard normal CDF; H and F are the log-linear corrected rates
    of :func:`corrected_rates` (Hautus 1995), so d' is finite for any counts, 0 when there
    are no trials at all, and positive when the student slaps matches more often than
    non-matches. Raises ``ValueError`` for a negative count.
    """
    hit_rate, false_alarm_rate = corrected_rates(hits, misses, false_alarms, correct_rejections)
    return _z(hit_rate) - _z(false_alarm_rate)


def criterion(hits: int, misses: int, false_alarms: int, correct_rejections: int) -> float:
    """Response criterion c = -1/2 * [z(H) + z(F)] (Macmillan & Creelman 2005, ch. 2).

    Same corrected rates as :func:`dprime`. c = 0 is unbiased (exactly when H = 1 - F);
    c < 0 is a liberal student who slaps readily (more hits and more false alarms); c > 0 a
    conservative one who holds back. Raises ``ValueError`` for a negative count.
    """
    hit_rate, false_alarm_rate = corrected_rates(hits, misses, false_alarms, correct_rejections)
    return -0.5 * (_z(hit_rate) + _z(false_alarm_rate))


@dataclass(frozen=True)
class SignalCounts:
    """The four outcome counts of a set of trials (one student, one level, one session…).

    Counts add up with ``+`` so per-session counts can be pooled. Raw rates here are
    uncorrected (``None`` when undefined); :meth:`dprime` and :meth:`criterion` use the
    log-linear corrected ones.
    """

    hits: int = 0
    misses: int = 0
    false_alarms: int = 0
    correct_rejections: int = 0

    def __post_init__(self) -> None:
        _check_counts(self.hits, self.misses, self.false_alarms, self.correct_rejections)

    @classmethod
    def tally(cls, outcomes: Iterable[str]) -> SignalCounts:
        """Count outcomes made by :func:`signal_of`; an unknown outcome raises ``ValueError``."""
        counted = Counter(outcomes)
        unknown = set(counted) - set(OUTCOMES)
        if unknown:
            raise ValueError(f"unknown outcomes: {sorted(unknown)}")
        return cls(
            hits=counted[HIT],
            misses=counted[MISS],
            false_alarms=counted[FALSE_ALARM],
            correct_rejections=counted[CORRECT_REJECTION],
        )

    def __add__(self, other: SignalCounts) -> SignalCounts:
        return counts_sum(self, other)

    @property
    def trials(self) -> int:
        """All trials: hits + misses + false alarms + correct rejections."""
        return self.hits + self.misses + self.false_alarms + self.correct_rejections

    @property
    def accuracy(self) -> float | None:
        """Proportion correct = (hits + correct rejections) / trials; ``None`` with no trials."""
        if self.trials == 0:
            return None
        return (self.hits + self.correct_rejections) / self.trials

    @property
    def hit_rate(self) -> float | None:
        """Raw hit rate = hits / (hits + misses); ``None`` with no signal trials."""
        signal_trials = self.hits + self.misses
        return self.hits / signal_trials if signal_trials else None

    @property
    def false_alarm_rate(self) -> float | None:
        """Raw false-alarm rate = fa / (fa + cr); ``None`` with no noise trials."""
        noise_trials = self.false_alarms + self.correct_rejections
        return self.false_alarms / noise_trials if noise_trials else None

    def dprime(self) -> float:
        """d' of these counts; see :func:`dprime`."""
        return dprime(self.hits, self.misses, self.false_alarms, self.correct_rejections)

    def criterion(self) -> float:
        """c of these counts; see :func:`criterion`."""
        return criterion(self.hits, self.misses, self.false_alarms, self.correct_rejections)
