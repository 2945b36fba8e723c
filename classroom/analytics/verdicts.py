"""A verdict per child per skill: "on track", "keep an eye on" or "may need support", each
with one plain sentence, or "not sure yet" and why.

Pure Python: no Django, no I/O, no clock.

**Against other children.** The child's score (their median correct RT, or their headline
rate) is placed among a reference group's scores, one per other child: the school's children
of the same year group at the same game and level once at least ``MIN_NORM_CHILDREN`` of them
contribute, else the child's class. The *percentile* is the share of the reference the child
does better than (ties count half), so a high percentile is good for speed and for rates
alike (Crocker, L. & Algina, J. (1986), *Introduction to Classical and Modern Test Theory*,
ch. 19, percentile ranks).

Its interval holds two uncertainties:

* the child's own: their score's interval (a bootstrap of the median for speed, Wilson for a
  rate, ``classroom.analytics.intervals``) at ``PART_LEVEL``;
* the reference's: for a fixed score x, how many of n children drawn from the school score
  below x is Binomial(n, F(x)), F the school's distribution, so F(x) gets a Wilson interval
  at ``PART_LEVEL`` from the count (the order-statistic view of a percentile: David, H. A. &
  Nagaraja, H. N. (2003), *Order Statistics*, 3rd ed., ch. 7).

The low end is the Wilson low of the count strictly worse than the child's pessimistic end
(ties not counted), the high end the Wilson high of the count worse than or tied with their
optimistic end. If the child's true score lies in their interval and neither one-sided Wilson
end misses, the child's true percentile lies in this interval: with each part at 97.5 %, at
least 95 % together (Bonferroni).

**Bands.** Below the 25th percentile "may need support", from the 25th to under the 50th
"keep an eye on", at the 50th or above "on track": the cut points of ROAR's risk scores
(Stanford's Rapid Online Assessment of Reading: below the 25th percentile "at risk", the 25th
to the 50th "some risk", above the 50th "doing well"; Yeatman, J. D. et al. (2021), *Scientific
Reports* 11, 6396; roar.stanford.edu, "Interpreting the ROAR scores"). MEFS likewise turns an
age-normed percentile into bands, the lowest one meaning "intervene" (Carlson, S. M. & Zelazo,
P. D. (2014), *Minnesota Executive Function Scale: Test Manual*). A band is given only when the
whole interval lies inside it; otherwise "not sure yet", with the interval.

**Against the child's own earlier play.** The latest session at a level against their
earlier sessions at the same level: for speed the bootstrap interval of the difference of
medians (stratified, ``median_difference_interval``), for a rate Newcombe's hybrid score
interval of the difference of two proportions (Newcombe, R. G. (1998), *Statistics in
Medicine* 17, 873-890, method 10); "declined" or "improved" when the 95 % interval excludes
no change. A child on track against others who declined against their own earlier play is
"keep an eye on".
"""

from __future__ import annotations

import math
import typing
from dataclasses import dataclass

from classroom.analytics.intervals import Interval, wilson_interval
from classroom.analytics.progress import gettext_noop
from classroom.analytics.reliable_change import DECLINED, IMPROVED, NO_RELIABLE_CHANGE

if typing.TYPE_CHECKING:
    from collections.abc import Sequence

ON_TRACK = "on_track"
KEEP_AN_EYE = "keep_an_eye"
MAY_NEED_SUPPORT = "may_need_support"
NOT_SURE = "not_sure"
BANDS = (ON_TRACK, KEEP_AN_EYE, MAY_NEED_SUPPORT)

# Percentile cut points (ROAR's): under SUPPORT_BELOW may need support, under WATCH_BELOW
# keep an eye on, else on track.
SUPPORT_BELOW = 0.25
WATCH_BELOW = 0.50

# The school's norms are used once this many children contribute (besides the child).
MIN_NORM_CHILDREN = 30
# Fewer other children than this in the reference: no percentile at all.
MIN_REFERENCE = 5
# The child's own score needs this many trials (kept correct RTs for speed, the rate's trials).
MIN_SCORE_TRIALS = 10
# Each part of the percentile interval (the child's score, the reference's Wilson): 97.5 %,
# so the two together hold at least 95 % (Bonferroni).
PART_LEVEL = 0.975

BAND_TEXT = {
    ON_TRACK: gettext_noop("on track"),
    KEEP_AN_EYE: gettext_noop("keep an eye on"),
    MAY_NEED_SUPPORT: gettext_noop("may need support"),
    NOT_SURE: gettext_noop("not sure yet"),
}

# The one plain sentence of each band (and of a band moved by the child's own decline).
ON_TRACK_SENTENCE = gettext_noop("Does as well as or better than most children compared with.")
KEEP_AN_EYE_SENTENCE = gettext_noop(
    "A little behind most children compared with: watch how the next sessions go."
)
SUPPORT_SENTENCE = gettext_noop(
    "Among the lowest quarter of the children compared with: may need support with this."
)
DECLINED_SENTENCE = gettext_noop(
    "In the top half of the children compared with, but below their own earlier play: "
    "watch how the next sessions go."
)

# Why "not sure yet".
NEEDS_MORE_PLAY = "needs_more_play"
FEW_CHILDREN = "few_children"
SPANS_BANDS = "spans_bands"
ACCOMMODATED = "accommodated"
WHY_TEXT = {
    NEEDS_MORE_PLAY: gettext_noop(
        "Not sure yet: too few answers in the latest session to place this child."
    ),
    FEW_CHILDREN: gettext_noop(
        "Not sure yet: too few other children at this level to compare with."
    ),
    SPANS_BANDS: gettext_noop(
        "Not sure yet: the interval reaches into more than one band; more play will narrow it."
    ),
    ACCOMMODATED: gettext_noop(
        "Not compared with other children: the latest session was played with extra time."
    ),
}

OWN_CHANGES = (IMPROVED, DECLINED, NO_RELIABLE_CHANGE)


@dataclass(frozen=True)
class Score:
    """A child's score on one skill, its interval (at ``PART_LEVEL``) and what it is of."""

    value: float
    interval: Interval
    count: int


@dataclass(frozen=True)
class Percentile:
    """Where a score falls among the reference's: a share in [0, 1], its interval, and how
    many children the reference holds."""

    point: float
    interval: Interval
    reference: int


@dataclass(frozen=True)
class Verdict:
    band: str  # one of BANDS or NOT_SURE
    percentile: Percentile | None
    # The change against the child's own earlier play (one of OWN_CHANGES), or None.
    own: str | None
    # Why not sure (a key of WHY_TEXT), else "".
    why: str = ""

    @property
    def sure(self) -> bool:
        return self.band != NOT_SURE

    @property
    def sentence(self) -> str:
        """The plain sentence, untranslated (pages pass it through gettext)."""
        if self.band == NOT_SURE:
            return WHY_TEXT[self.why]
        if self.band == KEEP_AN_EYE and self.own == DECLINED and self._band_of_others == ON_TRACK:
            return DECLINED_SENTENCE
        return {
            ON_TRACK: ON_TRACK_SENTENCE,
            KEEP_AN_EYE: KEEP_AN_EYE_SENTENCE,
            MAY_NEED_SUPPORT: SUPPORT_SENTENCE,
        }[self.band]

    @property
    def _band_of_others(self) -> str | None:
        return band_of(self.percentile.interval) if self.percentile else None


def _worse(mine: float, theirs: float, *, higher_is_better: bool) -> bool:
    return theirs < mine if higher_is_better else theirs > mine


def percentile_of(
    score: Score,
    reference: Sequence[float],
    *,
    higher_is_better: bool,
    level: float = PART_LEVEL,
) -> Percentile | None:
    """The score's percentile among ``reference`` (the other children's scores) with its
    interval (see the module's docstring). None with fewer than ``MIN_REFERENCE`` children."""
    n = len(reference)
    if n < MIN_REFERENCE:
        return None
    worse = sum(_worse(score.value, r, higher_is_better=higher_is_better) for r in reference)
    ties = sum(r == score.value for r in reference)
    low_end, high_end = score.interval.low, score.interval.high
    pessimistic, optimistic = (low_end, high_end) if higher_is_better else (high_end, low_end)
    below_pessimistic = sum(
        _worse(pessimistic, r, higher_is_better=higher_is_better) for r in reference
    )
    at_most_optimistic = sum(
        _worse(optimistic, r, higher_is_better=higher_is_better) or r == optimistic
        for r in reference
    )
    low = wilson_interval(below_pessimistic, n, level=level)
    high = wilson_interval(at_most_optimistic, n, level=level)
    assert low is not None
    assert high is not None
    point = (worse + ties / 2) / n
    return Percentile(
        point=point, interval=Interval(min(low.low, point), max(high.high, point)), reference=n
    )


def band_of(interval: Interval) -> str | None:
    """The band the whole interval lies in, or None when it reaches into two."""
    if interval.high < SUPPORT_BELOW:
        return MAY_NEED_SUPPORT
    if interval.low >= WATCH_BELOW:
        return ON_TRACK
    if interval.low >= SUPPORT_BELOW and interval.high < WATCH_BELOW:
        return KEEP_AN_EYE
    return None


def speed_change(
    latest: Sequence[float], earlier: Sequence[float], *, difference: Interval | None
) -> str | None:
    """Speed against the child's own earlier play, from the bootstrap interval of
    median(latest) - median(earlier) (``median_difference_interval``): slower (the interval
    above 0) "declined", faster "improved". None with fewer than ``MIN_SCORE_TRIALS`` RTs on
    either side or no interval."""
    if len(latest) < MIN_SCORE_TRIALS or len(earlier) < MIN_SCORE_TRIALS or difference is None:
        return None
    if difference.low > 0:
        return DECLINED
    if difference.high < 0:
        return IMPROVED
    return NO_RELIABLE_CHANGE


def proportion_difference_interval(
    successes: int, trials: int, other_successes: int, other_trials: int, *, level: float = 0.95
) -> Interval | None:
    """Newcombe's hybrid score interval of p1 - p2 (Newcombe 1998, method 10): with
    (l1, u1) and (l2, u2) the Wilson intervals of each, the difference d = p1 - p2 runs from
    d - sqrt((p1 - l1)^2 + (u2 - p2)^2) to d + sqrt((u1 - p1)^2 + (p2 - l2)^2). None when
    either has no trials."""
    first = wilson_interval(successes, trials, level=level)
    second = wilson_interval(other_successes, other_trials, level=level)
    if first is None or second is None:
        return None
    p1, p2 = successes / trials, other_successes / other_trials
    d = p1 - p2
    low = d - math.sqrt((p1 - first.low) ** 2 + (second.high - p2) ** 2)
    high = d + math.sqrt((first.high - p1) ** 2 + (p2 - second.low) ** 2)
    return Interval(max(-1.0, low), min(1.0, high))


def rate_change(
    successes: int, trials: int, earlier_successes: int, earlier_trials: int
) -> str | None:
    """A rate against the child's own earlier play (higher is better): Newcombe's interval of
    latest - earlier; None with fewer than ``MIN_SCORE_TRIALS`` trials on either side."""
    if trials < MIN_SCORE_TRIALS or earlier_trials < MIN_SCORE_TRIALS:
        return None
    found = proportion_difference_interval(successes, trials, earlier_successes, earlier_trials)
    assert found is not None
    if found.low > 0:
        return IMPROVED
    if found.high < 0:
        return DECLINED
    return NO_RELIABLE_CHANGE


def verdict(
    score: Score | None,
    reference: Sequence[float],
    *,
    higher_is_better: bool,
    own: str | None = None,
    accommodated: bool = False,
) -> Verdict:
    """One child's verdict on one skill: their score against the reference (the other
    children's scores), moved from "on track" to "keep an eye on" by a decline against their
    own earlier play (``own``). "Not sure yet" when the child's latest session was played
    with extra time (``accommodated``: norms are of the standard time), when the score has
    fewer than ``MIN_SCORE_TRIALS`` trials, when the reference is too small, or when the
    percentile's interval reaches into two bands."""
    if accommodated:
        return Verdict(NOT_SURE, None, own, ACCOMMODATED)
    if score is None or score.count < MIN_SCORE_TRIALS:
        return Verdict(NOT_SURE, None, own, NEEDS_MORE_PLAY)
    found = percentile_of(score, reference, higher_is_better=higher_is_better)
    if found is None:
        return Verdict(NOT_SURE, None, own, FEW_CHILDREN)
    band = band_of(found.interval)
    if band is None:
        return Verdict(NOT_SURE, found, own, SPANS_BANDS)
    if band == ON_TRACK and own == DECLINED:
        band = KEEP_AN_EYE
    return Verdict(band, found, own)
