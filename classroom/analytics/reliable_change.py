"""Whether a change is real: the reliable-change index (Jacobson & Truax), with an optional
practice effect.

Pure Python: no Django, no I/O, no clock.

Jacobson, N. S. & Truax, P. (1991), "Clinical significance: a statistical approach to defining
meaningful change in psychotherapy research", *Journal of Consulting and Clinical Psychology*
59, 12-19. A measure of reliability r, whose spread across children is s, carries a
measurement error SEM = s sqrt(1 - r) on each occasion; the difference of two occasions has
the error S_diff = sqrt(2) SEM. A change larger than 1.96 S_diff happens by measurement error
alone less than 5 % of the time, so it is called reliable.

Children get better at a game just by playing it again. The practice effect is the class's
mean change between the two occasions, and it is taken off every child's change before the
index (Chelune, G. J., Naugle, R. I., Lüders, H., Sedlak, J. & Awad, I. A. (1993),
"Individual change after epilepsy surgery: practice effects and base-rate information",
*Neuropsychology* 7, 41-52), so "improved" means better than playing again would make them.
"""

from __future__ import annotations

import math
import statistics
import typing
from dataclasses import dataclass

from classroom.analytics.progress import gettext_noop

if typing.TYPE_CHECKING:
    from collections.abc import Sequence

IMPROVED = "improved"
DECLINED = "declined"
NO_RELIABLE_CHANGE = "no reliable change"
VERDICT_TEXT = {
    IMPROVED: gettext_noop("improved"),
    DECLINED: gettext_noop("declined"),
    NO_RELIABLE_CHANGE: gettext_noop("no reliable change"),
}
# Two-sided 95 %: |RCI| beyond this is reliable (Jacobson & Truax 1991).
CRITICAL_RCI = 1.96
# A class practice effect needs this many children measured twice.
MIN_CHILDREN_FOR_PRACTICE = 5


@dataclass(frozen=True)
class ReliableChange:
    """One child's change between two occasions of a measure.

    ``change`` is later minus earlier in the measure's unit; ``practice`` the class's mean
    change taken off it (0 without one); ``index`` the RCI; ``verdict`` one of
    ``IMPROVED``, ``DECLINED``, ``NO_RELIABLE_CHANGE``.
    """

    change: float
    practice: float
    standard_error_difference: float
    index: float
    verdict: str


def standard_error_difference(*, spread: float, reliability: float) -> float:
    """S_diff = sqrt(2) * s * sqrt(1 - r) (Jacobson & Truax 1991). Raises ``ValueError`` for a
    negative spread or a reliability outside [0, 1]."""
    if spread < 0:
        raise ValueError(f"spread must be zero or more, got {spread}")
    if not 0 <= reliability <= 1:
        raise ValueError(f"reliability must be within [0, 1], got {reliability}")
    return math.sqrt(2) * spread * math.sqrt(1 - reliability)


def practice_effect(changes: Sequence[float]) -> float | None:
    """The class's practice effect: the mean of its children's changes (later minus earlier)
    between two occasions (Chelune et al. 1993). ``None`` with fewer than
    ``MIN_CHILDREN_FOR_PRACTICE`` children."""
    if len(changes) < MIN_CHILDREN_FOR_PRACTICE:
        return None
    return statistics.fmean(changes)


def reliable_change(
    *,
    before: float,
    after: float,
    spread: float,
    reliability: float,
    lower_is_better: bool,
    practice: float | None = None,
    critical: float = CRITICAL_RCI,
) -> ReliableChange | None:
    """The reliable-change index of one child from ``before`` to ``after``.

    RCI = (after - before - practice) / S_diff, with S_diff from :func:`standard_error_difference`
    (``spread`` the SD of the measure across the class on the first occasion, ``reliability``
    the measure's reliability, e.g. the split-half estimate). |RCI| > ``critical`` is a
    reliable change: better (``IMPROVED``) or worse (``DECLINED``) by ``lower_is_better``
    (median RT: lower is better; accuracy: higher); otherwise ``NO_RELIABLE_CHANGE``.

    ``None`` when S_diff is 0 (no spread, or a perfectly reliable measure): there is no
    error to judge a change against. A reliability below 0 is taken as 0 (all error).
    """
    error = standard_error_difference(spread=spread, reliability=min(1.0, max(0.0, reliability)))
    if error == 0:
        return None
    practice = practice or 0.0
    change = after - before
    index = (change - practice) / error
    verdict = NO_RELIABLE_CHANGE
    if abs(index) > critical:
        better = index < 0 if lower_is_better else index > 0
        verdict = IMPROVED if better else DECLINED
    return ReliableChange(
        change=change,
        practice=practice,
        standard_error_difference=error,
        index=index,
        verdict=verdict,
    )
