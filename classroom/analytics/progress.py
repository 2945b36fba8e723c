"""Progress over time: learning curves, trends, smoothing and a plain-language summary.

Pure Python: no Django, no I/O, no clock (today's date is an argument). Everything here works
on one student's own series; a fit or trend is never computed on a class average, which can
show a smooth curve no single child follows (Estes, W. K. (1956), "The problem of inference
from curves based on group data", *Psychological Bulletin* 53, 134-140).

The summary sentence is returned as translatable pieces: (message template, params) pairs,
where each template is a module constant marked with :func:`gettext_noop` so ``makemessages``
finds it, and :func:`summary_text` joins them through any ``gettext``.
"""

from __future__ import annotations

import statistics
import typing
from dataclasses import dataclass
from typing import NamedTuple

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import date

IMPROVING = "improving"
STEADY = "steady"
DECLINING = "declining"


def gettext_noop(message: str) -> str:
    """Mark a template for translation without importing Django (xgettext finds the call)."""
    return message


# --------------------------------------------------------------------------------------------
# Curves and trends


@dataclass(frozen=True)
class LineFit:
    """y = intercept + slope * x, fitted on ``n`` points."""

    slope: float
    intercept: float
    n: int

    def predict(self, x: float) -> float:
        """The fitted y at ``x``."""
        return self.intercept + self.slope * x


def learning_curve(points: Sequence[tuple[float, float]]) -> LineFit | None:
    """Ordinary least-squares line of y on x for one student's (x, y) points.

    slope = sum((x - mean x)(y - mean y)) / sum((x - mean x)^2); intercept = mean y - slope *
    mean x (the textbook normal equations; e.g. Draper, N. R. & Smith, H. (1998), *Applied
    Regression Analysis*, 3rd ed., Wiley, ch. 1). x is the session index or days since the
    first session; y a per-session measure (median RT, accuracy, d'). Fit per student, never on
    the class average (see the module docstring). ``None`` with fewer than 2 distinct x.
    """
    if len({x for x, _y in points}) < 2:
        return None
    mean_x = statistics.fmean(x for x, _y in points)
    mean_y = statistics.fmean(y for _x, y in points)
    sxx = sum((x - mean_x) ** 2 for x, _y in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    slope = sxy / sxx
    return LineFit(slope=slope, intercept=mean_y - slope * mean_x, n=len(points))


def trend(values: Sequence[float], *, lower_is_better: bool, tolerance: float) -> str:
    """``IMPROVING``, ``STEADY`` or ``DECLINING``: the last third against the first third.

    With k = max(1, len(values) // 3), change = mean(last k values) - mean(first k values),
    sign flipped when ``lower_is_better`` (RT: lower is better; accuracy, d': higher is
    better). A change of more than ``tolerance`` (in the values' own unit) is improving, less
    than -``tolerance`` is declining, anything between is steady. Source: a project convention,
    not a published method; comparing the means of the outer thirds rather than the two end
    points damps session-to-session noise. Fewer than 2 values: steady (nothing to compare).
    Raises ``ValueError`` for a negative tolerance.
    """
    _tolerance_check(tolerance)
    if len(values) < 2:
        return STEADY
    change, _k = _thirds_change(values, lower_is_better=lower_is_better)
    return _direction(change, bound=tolerance)


def _tolerance_check(tolerance: float) -> None:
    if tolerance < 0:
        raise ValueError(f"tolerance must be zero or more, got {tolerance}")


def _thirds_change(values: Sequence[float], *, lower_is_better: bool) -> tuple[float, int]:
    """(mean of the last k values - mean of the first k, sign flipped when lower is better; k),
    with k = max(1, len(values) // 3)."""
    k = max(1, len(values) // 3)
    change = statistics.fmean(values[-k:]) - statistics.fmean(values[:k])
    return (-change if lower_is_better else change), k


def _direction(change: float, *, bound: float) -> str:
    """Improving beyond ``bound``, declining beyond ``-bound``, steady between."""
    if change > bound:
        return IMPROVING
    if change < -bound:
        return DECLINING
    return STEADY


# A per-week rate needs sessions in at least this many different calendar weeks.
MIN_WEEKS = 3
# A change counts only beyond this many standard errors of itself.
TREND_STANDARD_ERRORS = 2.0


def distinct_weeks(days: Sequence[date]) -> int:
    """How many different ISO calendar weeks ``days`` fall in."""
    return len({(day.isocalendar().year, day.isocalendar().week) for day in days})


def honest_trend(values: Sequence[float], *, lower_is_better: bool, tolerance: float) -> str:
    """Like :func:`trend`, but "improving" or "declining" only when the change is larger than
    its uncertainty.

    With k = max(1, n // 3): change = mean(last k) - mean(first k) (sign flipped when
    ``lower_is_better``). Its standard error, taking the sessions as independent draws with
    the student's own session-to-session SD s (sample SD of all n values), is
    SE = s * sqrt(2 / k) (the SE of a difference of two means of k; e.g. Howell, D. C.
    (2013), *Statistical Methods for Psychology*, 8th ed., ch. 7). The change counts when it
    is beyond both ``tolerance`` and ``TREND_STANDARD_ERRORS`` * SE (about a 95 % bound);
    otherwise steady. Fewer than 3 values: steady (no SD to judge a change by). Callers pass
    one game at one level only (like with like).
    """
    _tolerance_check(tolerance)
    if len(values) < 3:
        return STEADY
    change, k = _thirds_change(values, lower_is_better=lower_is_better)
    bound = max(tolerance, TREND_STANDARD_ERRORS * statistics.stdev(values) * (2 / k) ** 0.5)
    return _direction(change, bound=bound)


def rolling_median(values: Sequence[float], window: int) -> list[float]:
    """Trailing running median: out[i] = median(values[max(0, i - window + 1) : i + 1]).

    Tukey, J. W. (1977), *Exploratory Data Analysis*, Addison-Wesley, ch. 7 (running medians
    smooth a series without letting one odd session pull it). Same length as ``values``; the
    first ``window - 1`` points use the shorter windows available. Raises ``ValueError`` for a
    window below 1.
    """
    if window < 1:
        raise ValueError(f"window must be 1 or more, got {window}")
    return [
        float(statistics.median(values[max(0, i - window + 1) : i + 1])) for i in range(len(values))
    ]


# --------------------------------------------------------------------------------------------
# Plain-language summary

# A median RT change of at least 5 % counts as faster or slower; an accuracy change of at least
# 5 percentage points as up or down; a comparison needs sessions at least a week apart.
RT_CHANGE_MIN = 0.05
ACCURACY_CHANGE_MIN_POINTS = 5.0
MIN_SPAN_DAYS = 7

FASTER_WEEKS = gettext_noop("faster than %(weeks)d weeks ago")
FASTER_ONE_WEEK = gettext_noop("faster than a week ago")
SLOWER_WEEKS = gettext_noop("slower than %(weeks)d weeks ago")
SLOWER_ONE_WEEK = gettext_noop("slower than a week ago")
AS_FAST_WEEKS = gettext_noop("as fast as %(weeks)d weeks ago")
AS_FAST_ONE_WEEK = gettext_noop("as fast as a week ago")
ACCURACY_UP = gettext_noop("accuracy up")
ACCURACY_DOWN = gettext_noop("accuracy down")
ACCURACY_STEADY = gettext_noop("accuracy steady")
# The same of a rate with a name of its own ("spotting rate up"); ``rate`` is its name.
RATE_UP = gettext_noop("%(rate)s up")
RATE_DOWN = gettext_noop("%(rate)s down")
RATE_STEADY = gettext_noop("%(rate)s steady")
NOT_ENOUGH = gettext_noop("not enough sessions a week apart yet to show a change")
# Wraps the clauses before it; summary_text fills %(summary)s (translators may reorder).
LEVEL_FRAME = gettext_noop("%(summary)s at the %(level)s level")
LEVEL_NAMES = {
    "beginner": gettext_noop("beginner"),
    "intermediate": gettext_noop("intermediate"),
    "advanced": gettext_noop("advanced"),
}
CLAUSE_SEPARATOR = gettext_noop("; ")
SENTENCE_END = gettext_noop(".")

Part = tuple[str, dict[str, int | str]]


class SessionPoint(NamedTuple):
    """One session of one student: its date, median correct RT (ms), accuracy (0-1), level."""

    day: date
    median_rt_ms: float | None
    accuracy: float | None
    level: str


def _span(
    sessions: Sequence[SessionPoint], value: Callable[[SessionPoint], float | None]
) -> tuple[SessionPoint, float, float] | None:
    """(first session, its value, the last value) if the valued sessions span a week or more."""
    valued = [(session, v) for session in sessions if (v := value(session)) is not None]
    if len(valued) < 2 or (valued[-1][0].day - valued[0][0].day).days < MIN_SPAN_DAYS:
        return None
    return valued[0][0], valued[0][1], valued[-1][1]


def progress_summary(
    sessions: Sequence[SessionPoint], today: date, *, rate: str | None = None
) -> list[Part]:
    """The progress page's one-sentence summary of a student, as translatable pieces.

    For example "Faster than 3 weeks ago; accuracy steady at the advanced level." A project
    convention built on the measures above (no published source): per-session medians of
    correct RTs and accuracies, compared within one level.

    Only sessions on or before ``today`` at the level of the latest one count (RTs at different
    levels are not comparable). For each measure the first and the last session that have it
    are compared, if they are at least ``MIN_SPAN_DAYS`` apart:

    * speed (median correct RT, lower is better): relative change = (last - first) / first;
      at most -``RT_CHANGE_MIN`` is faster, at least +``RT_CHANGE_MIN`` slower, else as fast;
      "N weeks ago" counts whole weeks from the first session to ``today``;
    * accuracy: change in percentage points = 100 * (last - first); at least
      ``ACCURACY_CHANGE_MIN_POINTS`` either way is up or down, else steady. A game whose
      rate is not an accuracy passes its proportion as ``accuracy`` and its name as ``rate``
      ("spotting rate up"; ``RATE_UP``…).

    With neither comparison possible the sentence says there is not enough yet. The last piece
    names the level (``LEVEL_FRAME``, with a name from ``LEVEL_NAMES``; omitted for an unknown
    level). No sessions: ``[]``. Render with :func:`summary_text`.
    """
    past = sorted((s for s in sessions if s.day <= today), key=lambda s: s.day)
    if not past:
        return []
    level = past[-1].level
    here = [s for s in past if s.level == level]
    parts: list[Part] = []
    speed = _span(here, lambda s: s.median_rt_ms if s.median_rt_ms and s.median_rt_ms > 0 else None)
    if speed is not None:
        first, before, now = speed
        weeks = (today - first.day).days // 7
        change = round((now - before) / before, 9)
        if change <= -RT_CHANGE_MIN:
            many, one = FASTER_WEEKS, FASTER_ONE_WEEK
        elif change >= RT_CHANGE_MIN:
            many, one = SLOWER_WEEKS, SLOWER_ONE_WEEK
        else:
            many, one = AS_FAST_WEEKS, AS_FAST_ONE_WEEK
        parts.append((one, {}) if weeks == 1 else (many, {"weeks": weeks}))
    accuracy = _span(here, lambda s: s.accuracy)
    if accuracy is not None:
        _first, before, now = accuracy
        points = round(100 * (now - before), 9)
        if points >= ACCURACY_CHANGE_MIN_POINTS:
            up_or_down = ACCURACY_UP, RATE_UP
        elif points <= -ACCURACY_CHANGE_MIN_POINTS:
            up_or_down = ACCURACY_DOWN, RATE_DOWN
        else:
            up_or_down = ACCURACY_STEADY, RATE_STEADY
        parts.append((up_or_down[0], {}) if rate is None else (up_or_down[1], {"rate": rate}))
    if not parts:
        parts.append((NOT_ENOUGH, {}))
    if level in LEVEL_NAMES:
        parts.append((LEVEL_FRAME, {"level": LEVEL_NAMES[level]}))
    return parts


def summary_text(parts: Sequence[Part], gettext: Callable[[str], str] = lambda s: s) -> str:
    """Render :func:`progress_summary` pieces as one sentence through ``gettext``.

    Each template is translated and filled with its params; string params are message ids
    themselves (such as a level name) and are translated too, numbers are used as they are.
    Clauses are joined with ``CLAUSE_SEPARATOR``; a ``LEVEL_FRAME`` piece then wraps them (its
    ``%(summary)s``); the first letter is capitalised and ``SENTENCE_END`` closes the sentence.
    No pieces: ``""``.
    """
    clauses: list[str] = []
    frame: dict[str, int | str] | None = None
    for template, params in parts:
        filled = {key: gettext(v) if isinstance(v, str) else v for key, v in params.items()}
        if template == LEVEL_FRAME:
            frame = filled
        else:
            clauses.append(gettext(template) % filled)
    sentence = gettext(CLAUSE_SEPARATOR).join(clauses)
    if frame is not None:
        sentence = gettext(LEVEL_FRAME) % {**frame, "summary": sentence}
    if not sentence:
        return ""
    return sentence[:1].upper() + sentence[1:] + gettext(SENTENCE_END)
