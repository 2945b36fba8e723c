"""The console's "needs help" mark: has a child's recent play departed from their own start?
(pure)

Pure Python: no Django, no I/O, no clock. The input is one child's trials of this game in the
order they were played (:class:`Step`); the output is a :class:`Departure` (which kind, and
the counts behind it) or ``None``.

Each rate check is a self-starting Bernoulli CUSUM (Reynolds, M. R. & Stoumbos, Z. G.
(1999), "A CUSUM chart for monitoring a proportion when inspecting continuously", *Journal
of Quality Technology* 31, 87-108; self-starting: Hawkins, D. M. & Olwell, D. H. (1998),
*Cumulative Sum Charts and Charting for Quality Improvement*, Springer, ch. 7). After the
child's first ``BASELINE`` counted trials, each trial is weighed against the rate of the same
event in all their trials before it, (k + 1) / (n + 2) (Laplace's rule of succession, so a
child with no lapse yet is not flagged for their first one), and the chart climbs toward
``LIMIT`` when events come as if their odds were ``ODDS`` times the child's own (for
lapses and anticipations the counted trials are the child's responses, for accuracy every
judged trial). The mark
comes when the chart passes the limit and stays until it falls to ``RELEASE``, half the
limit, as play returns to the child's own rate; its onset, the trial where the chart passed
the limit in this run, is what a teacher's dismissal is held against. The kinds:

* **Lapses**: responses slower than ``LAPSE_FACTOR`` times the child's baseline median time.
  The psychomotor vigilance task counts a lapse at 500 ms against typical times near 250 ms,
  about twice the median (Basner, M. & Dinges, D. F. (2011), "Maximizing sensitivity of the
  psychomotor vigilance test (PVT) to sleep loss", *Sleep* 34, 581-591); here the child's
  own median sets the scale, since children and games differ in speed.
* **Anticipations**: responses faster than ``ANTICIPATION_FLOOR_MS`` (the site's floor below
  which no one can have seen the stimulus, ``classroom.analytics.speed``) or that the host
  found implausible.
* **Accuracy**: wrong trials (a false slap, a miss, a wrong card).
* **Post-error slowing**, the robust way of Dutilh, G. et al. (2012), "How to measure
  post-error slowing", *Attention, Perception, & Psychophysics* 74, 208-219: for each error,
  the first right, timed answer after it against the last one before it (each within
  ``PES_REACH`` trials). Children, like adults, usually slow down after a mistake; **gone**
  means the recent pairs (the last ``PES_WINDOW`` trials) slow down far less often than the
  child's baseline pairs did, **extreme** means their post-error answers take more than
  twice as long as before the error (a slow-down of more than the baseline median) far more
  often than before. These need errors, so they speak only with at least ``PES_PAIRS`` pairs
  on each side.

Why these numbers. ``BASELINE`` = 15 counted trials before anything is charted: the rate's
first estimate then rests on a quarter-minute to a minute of play. The rate each trial is
weighed against is the one known ``LAG`` = 10 counted trials earlier, so a sudden change is
charted against the play before it rather than absorbed into it at once. ``ODDS`` = 3 is the
smallest rise a teacher should hear about (an error rate of 10 % becoming 25 %), and
``LIMIT`` = 5 (a likelihood ratio of e^5, about 150 to 1, for that rise) keeps a steady child
unflagged in at least 95 % of 120-trial games. ``tests/classroom/analytics/test_needs_help.py``
measures both the false alarms and how many trials a change takes to be caught, over seeded
simulated children; docs/measures.md states the figures. Post-error slowing is a sign test:
the recent pairs against the baseline pairs' rate by an exact binomial test at ``ALPHA``.
"""

from __future__ import annotations

import math
import statistics
import typing
from dataclasses import dataclass

from classroom.analytics.progress import gettext_noop
from classroom.analytics.speed import ANTICIPATION_FLOOR_MS

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Sequence

LAPSES = "lapses"
ANTICIPATIONS = "anticipations"
ACCURACY = "accuracy"
SLOWING_GONE = "slowing_gone"
SLOWING_EXTREME = "slowing_extreme"

# The trials of a child's own earlier play needed before anything is tested.
BASELINE = 15
# The recent trials a mark's counts are of ("4 of the last 10"), and how many counted trials
# behind the chart its rate is estimated: a change is then charted against the play before it.
WINDOW = 10
LAG = 10
# The CUSUM's alternative (odds of the event this many times the child's own), its limit,
# and where a mark raised at the limit goes again: one right answer takes about half a point
# off the chart, so a child just over the limit would lose the mark at once and get it back
# at the next slip; it goes after about five right answers in a row.
ODDS = 3.0
LIMIT = 5.0
RELEASE = LIMIT / 2
# Post-error slowing's one-sided binomial level.
ALPHA = 0.002
# A lapse: slower than this many times the child's baseline median.
LAPSE_FACTOR = 2.0
# Post-error slowing: the recent trials whose errors are paired, the reach of a pair, and the
# fewest pairs on each side.
PES_WINDOW = 30
PES_REACH = 3
PES_PAIRS = 4

# The one line on the tile, by kind (%(n)d of the last %(of)d; the pairs for slowing).
REASONS = {
    LAPSES: gettext_noop("Many very slow answers lately (%(n)d of the last %(of)d)"),
    ANTICIPATIONS: gettext_noop(
        "Many answers too fast to be real lately (%(n)d of the last %(of)d)"
    ),
    ACCURACY: gettext_noop("More mistakes than usual lately (%(n)d of the last %(of)d)"),
    SLOWING_GONE: gettext_noop("No longer slows down after a mistake"),
    SLOWING_EXTREME: gettext_noop("Much slower than usual after each mistake"),
}


@dataclass(frozen=True)
class Step:
    """One trial as the detector reads it. ``correct`` is ``None`` where a trial is neither
    right nor wrong; ``rt_ms`` is ``None`` without a timed response."""

    responded: bool
    correct: bool | None
    rt_ms: float | None
    plausible: bool = True


@dataclass(frozen=True)
class Departure:
    """A kind of departure, its count in the recent trials (``n`` of ``of``), the child's
    baseline rate of it and the test's p-value."""

    kind: str
    n: int
    of: int
    baseline_rate: float
    p: float

    @property
    def reason(self) -> str:
        """The untranslated line (a gettext msgid with %(n)d and %(of)d)."""
        return REASONS[self.kind]


def upper_tail(successes: int, trials: int, rate: float) -> float:
    """P(X >= successes) for X ~ Binomial(trials, rate)."""
    if successes <= 0:
        return 1.0
    below = sum(
        math.comb(trials, k) * rate**k * (1 - rate) ** (trials - k) for k in range(successes)
    )
    return max(0.0, 1.0 - below)


def lower_tail(successes: int, trials: int, rate: float) -> float:
    """P(X <= successes) for X ~ Binomial(trials, rate)."""
    return sum(
        math.comb(trials, k) * rate**k * (1 - rate) ** (trials - k) for k in range(successes + 1)
    )


def _laplace(events: int, trials: int) -> float:
    return (events + 1) / (trials + 2)


def _timed(step: Step) -> bool:
    return step.responded and step.rt_ms is not None


def _is_anticipation(step: Step) -> bool:
    return step.responded and (
        not step.plausible or (step.rt_ms is not None and step.rt_ms < ANTICIPATION_FLOOR_MS)
    )


def cusum(events: Sequence[bool], *, start: int, odds: float | None = None) -> list[float]:
    """A self-starting Bernoulli CUSUM path over ``events`` from index ``start`` on (one value
    per event from there). Each event is weighed against the rate of every event before it,
    p0 = (k + 1) / (n + 2), and the alternative p1 at ``odds`` times p0's odds:
    S_t = max(0, S_{t-1} + w), w = ln(p1/p0) for an event and ln((1 - p1)/(1 - p0)) for
    none (Reynolds & Stoumbos 1999; self-starting: Hawkins & Olwell 1998, ch. 7)."""
    ratio = ODDS if odds is None else odds
    path = []
    total = 0.0
    # The rate known before each event, ``LAG`` events back: a change is charted against the
    # child's play before it, not against itself.
    known = start - LAG
    seen = sum(events[:known])
    for n in range(start, len(events)):
        seen += events[known]
        known += 1
        rate = _laplace(seen, known)
        shifted = rate * ratio / (1 - rate + rate * ratio)
        step = math.log(shifted / rate) if events[n] else math.log((1 - shifted) / (1 - rate))
        total = max(0.0, total + step)
        path.append(total)
    return path


def _burst(
    kind: str,
    steps: Sequence[Step],
    counts: Callable[[Step], bool],
    event: Callable[[Step], bool],
) -> tuple[Departure, int] | None:
    """A CUSUM of ``event`` over the steps that ``counts`` (responses, judged trials) after
    the first ``BASELINE`` of them, against the rate in those: the departure, and the index in
    ``steps`` where the chart passed ``LIMIT``, while it has stayed above ``RELEASE`` since."""
    where = [i for i, step in enumerate(steps) if counts(step)]
    if len(where) <= BASELINE:
        return None
    events = [event(steps[i]) for i in where]
    path = cusum(events, start=BASELINE)
    later = where[BASELINE:]
    # The run the chart is in at the end, above RELEASE; a mark only if it reached LIMIT.
    if path[-1] <= RELEASE:
        return None
    run = len(path) - 1
    while run > 0 and path[run - 1] > RELEASE:
        run -= 1
    start = next((i for i in range(run, len(path)) if path[i] > LIMIT), None)
    if start is None:
        return None
    recent = events[-WINDOW:]
    rate = _laplace(sum(events[:-WINDOW]), len(events) - WINDOW)
    flag = Departure(kind, sum(recent), len(recent), rate, path[-1])
    return flag, later[start] + 1


def _error_pairs(steps: Sequence[Step], start: int) -> list[tuple[float, float, int]]:
    """(before, after, index) right timed answers around each error at index ``start`` or
    later."""
    pairs = []
    for i in range(start, len(steps)):
        if steps[i].correct is not False:
            continue
        before = _right_time(steps[max(0, i - PES_REACH) : i][::-1])
        after = _right_time(steps[i + 1 : i + 1 + PES_REACH])
        if before is not None and after is not None:
            pairs.append((before, after, i))
    return pairs


def _right_time(steps: Sequence[Step]) -> float | None:
    for step in steps:
        if step.correct is False:
            return None  # another error in between: not a clean pair
        if step.correct and _timed(step) and step.plausible and step.rt_ms is not None:
            return float(step.rt_ms)
    return None


def _slowing(steps: Sequence[Step], median: float) -> tuple[Departure, int] | None:
    """Post-error slowing gone or extreme in the last ``PES_WINDOW`` trials against the pairs
    before them; the onset is the first recent error's trial (a mark dismissed stays away
    until that error leaves the window)."""
    cut = max(BASELINE, len(steps) - PES_WINDOW)
    base = _error_pairs(steps[:cut], 0)
    recent = _error_pairs(steps, cut)
    if len(base) < PES_PAIRS or len(recent) < PES_PAIRS:
        return None
    onset = recent[0][2] + 1
    slowed_rate = _laplace(sum(1 for b, a, _ in base if a > b), len(base))
    slowed = sum(1 for b, a, _ in recent if a > b)
    p_gone = lower_tail(slowed, len(recent), slowed_rate)
    if slowed < slowed_rate * len(recent) and p_gone < ALPHA:
        return Departure(SLOWING_GONE, slowed, len(recent), slowed_rate, p_gone), onset
    extreme_rate = _laplace(sum(1 for b, a, _ in base if a - b > median), len(base))
    extreme = sum(1 for b, a, _ in recent if a - b > median)
    p_extreme = upper_tail(extreme, len(recent), extreme_rate)
    if extreme > extreme_rate * len(recent) and p_extreme < ALPHA:
        return Departure(SLOWING_EXTREME, extreme, len(recent), extreme_rate, p_extreme), onset
    return None


def departure_with_onset(steps: Sequence[Step]) -> tuple[Departure, int] | None:
    """The child's departure from their own start at the end of ``steps`` and the trial count
    at which it began (the chart first crossed its limit in this run), or ``None``. With
    several, the one that began first."""
    found = [
        _burst(ANTICIPATIONS, steps, _responded, _is_anticipation),
        _burst(ACCURACY, steps, _judged, _wrong),
    ]
    timed = [step for step in steps if _timed(step)]
    base_times = [
        float(step.rt_ms)
        for step in timed[:BASELINE]
        if step.correct and step.plausible and step.rt_ms is not None
    ]
    if len(base_times) >= BASELINE // 2:
        median = statistics.median(base_times)
        lapse_after = LAPSE_FACTOR * median

        def is_lapse(step: Step) -> bool:
            return step.plausible and step.rt_ms is not None and step.rt_ms > lapse_after

        found.append(_burst(LAPSES, steps, _timed, is_lapse))
        found.append(_slowing(steps, median))
    flags = [flag for flag in found if flag is not None]
    return min(flags, key=lambda flag: flag[1]) if flags else None


def departure(steps: Sequence[Step]) -> Departure | None:
    """:func:`departure_with_onset` without the onset."""
    found = departure_with_onset(steps)
    return None if found is None else found[0]


def _responded(step: Step) -> bool:
    return step.responded


def _judged(step: Step) -> bool:
    return step.correct is not None


def _wrong(step: Step) -> bool:
    return step.correct is False


def departure_since(steps: Sequence[Step], *, after: int) -> tuple[Departure, int] | None:
    """The departure at the end of ``steps`` unless it began at or before ``after`` trials:
    a teacher who dismissed the mark when the child had played ``after`` trials sees it again
    only for a new departure, one that began after they dismissed it."""
    found = departure_with_onset(steps)
    return None if found is None or found[1] <= after else found
