"""Speed: reaction-time summaries, speed-accuracy combinations and Stroop interference.

Pure Python: no Django, no I/O, no clock. Numbers in, numbers out: every function here takes
reaction times (RT, milliseconds) that the caller has already chosen. Callers pass only
*plausible* RTs (the server's plausibility flag is applied by the selector layer; a flagged RT
must never reach a measure) of *correct* responses (hits), unless a docstring says otherwise.
"""

from __future__ import annotations

import math
import statistics
import typing
from dataclasses import dataclass
from typing import TypeVar

if typing.TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

K = TypeVar("K")

ANTICIPATION_FLOOR_MS = 200.0
OUTLIER_SD_CUTOFF = 2.5


@dataclass(frozen=True)
class RtSummary:
    """What :func:`rt_summary` reports; every measure is ``None`` when no RT was kept.

    ``n`` counts the kept RTs (at or above the floor), ``anticipations`` the ones dropped below
    it, and ``flagged_slow_or_fast`` holds the kept values (ascending) beyond the SD cutoff.
    """

    n: int
    median: float | None
    mean: float | None
    trimmed_mean: float | None
    anticipations: int
    flagged_slow_or_fast: tuple[float, ...]


def rt_summary(
    rts: Sequence[float],
    *,
    floor_ms: float = ANTICIPATION_FLOOR_MS,
    sd_cutoff: float = OUTLIER_SD_CUTOFF,
) -> RtSummary:
    """Median, mean and trimmed mean of correct-response RTs, following Ratcliff (1993).

    Ratcliff, R. (1993), "Methods for dealing with reaction time outliers", *Psychological
    Bulletin* 114, 510-532: fast outliers are anticipations, not reactions, so they are cut
    at an absolute floor; slow and fast tails are then handled by a robust centre (median) or
    an SD-based trim.

    1. RTs below ``floor_ms`` are *anticipations*: counted, then dropped from every measure.
    2. ``median`` and ``mean`` are over all kept RTs.
    3. With m and s the mean and sample SD (n - 1) of the kept RTs, a kept RT x with
       |x - m| > ``sd_cutoff`` * s is *flagged*. Flagged RTs stay in the median and the mean;
       ``trimmed_mean`` is the mean of the kept RTs that are not flagged.
       (With the sample SD no value can lie beyond (n - 1) / sqrt(n) SDs, so nothing is
       flagged at the 2.5 cutoff with fewer than 8 RTs; nothing is flagged when s is 0.)

    The caller passes only plausible RTs of correct responses (see the module docstring).
    Raises ``ValueError`` for a non-finite RT, a negative floor or a cutoff that is not > 0.
    """
    if floor_ms < 0 or not sd_cutoff > 0:
        raise ValueError(f"need floor_ms >= 0 and sd_cutoff > 0, got {floor_ms}, {sd_cutoff}")
    if not all(math.isfinite(rt) for rt in rts):
        raise ValueError("reaction times must be finite numbers")
    kept = sorted(float(rt) for rt in rts if rt >= floor_ms)
    anticipations = len(rts) - len(kept)
    if not kept:
        return RtSummary(0, None, None, None, anticipations, ())
    mean = statistics.fmean(kept)
    flagged: tuple[float, ...] = ()
    unflagged = kept
    sd = statistics.stdev(kept) if len(kept) >= 2 else 0.0
    if sd > 0:
        limit = sd_cutoff * sd
        flagged = tuple(rt for rt in kept if abs(rt - mean) > limit)
        unflagged = [rt for rt in kept if abs(rt - mean) <= limit]
    return RtSummary(
        n=len(kept),
        median=float(statistics.median(kept)),
        mean=mean,
        trimmed_mean=statistics.fmean(unflagged) if unflagged else None,
        anticipations=anticipations,
        flagged_slow_or_fast=flagged,
    )


def rolling_medians(
    rts: Sequence[float],
    *,
    window: int,
    floor_ms: float = ANTICIPATION_FLOOR_MS,
    since: int = 0,
) -> list[float]:
    """The median of the last ``window`` RTs at each response, as :func:`rt_summary` gives it
    for that slice (anticipations below ``floor_ms`` dropped; a slice with none kept has no
    median and is left out), oldest first.

    The live console asks this of every student's responses every couple of seconds: an SD
    (exact fractions) per response, as ``rt_summary`` computes, costs too much there, so it
    takes the median alone. With ``since``, only the medians at the
    responses after the first ``since`` (what a console that kept the earlier ones adds:
    ``rolling_medians(rts[:k]) + rolling_medians(rts, since=k) == rolling_medians(rts)``).
    Raises ``ValueError`` for a window < 1, a negative ``since`` or a non-finite RT.
    """
    if window < 1:
        raise ValueError(f"window must be 1 or more, got {window}")
    if since < 0:
        raise ValueError(f"since must be zero or more, got {since}")
    if not all(math.isfinite(rt) for rt in rts):
        raise ValueError("reaction times must be finite numbers")
    medians = []
    for end in range(since + 1, len(rts) + 1):
        kept = [float(rt) for rt in rts[max(0, end - window) : end] if rt >= floor_ms]
        if kept:
            medians.append(float(statistics.median(kept)))
    return medians


def inverse_efficiency(mean_correct_rt_ms: float, proportion_correct: float) -> float | None:
    """Inverse efficiency score IES = mean correct RT / proportion correct (ms).

    Townsend, J. T. & Ashby, F. G. (1983), *Stochastic Modeling of Elementary Psychological
    Processes*, Cambridge University Press. IES is the RT "cost" per correct response: it equals
    the mean RT when every response is correct and grows as accuracy falls. Lower is better.

    Convention: with ``proportion_correct`` 0 there is no correct response, hence no mean
    correct RT and no finite score, so the result is ``None`` (show "not enough data", never a
    number). Raises ``ValueError`` when ``proportion_correct`` is outside [0, 1].
    """
    if not 0 <= proportion_correct <= 1:
        raise ValueError(f"proportion_correct must be within [0, 1], got {proportion_correct}")
    if proportion_correct == 0:
        return None
    return mean_correct_rt_ms / proportion_correct


def _standardised(values: list[float]) -> list[float]:
    """z = (x - mean) / SD with the population SD (n); every z is 0 when the SD is 0."""
    sd = statistics.pstdev(values)  # exact arithmetic: equal values give exactly 0
    if sd == 0:
        return [0.0] * len(values)
    mean = statistics.fmean(values)
    return [(value - mean) / sd for value in values]


def balanced_integration_scores(
    students: Mapping[K, tuple[float, float | None]],
) -> dict[K, float | None]:
    """Balanced integration score BIS = z(PC) - z(RT) for each student of a group.

    Liesefeld, H. R. & Janczyk, M. (2019), "Combining speed and accuracy to control for
    speed-accuracy trade-offs(?)", *Behavior Research Methods* 51, 40-60. Input per student:
    (proportion correct PC, mean correct RT in ms). Each term is standardised *within the given
    group*: z(x) = (x - group mean) / group SD, with the population SD (divide by n). Higher
    BIS is better (accurate and fast); the scores of a group sum to 0.

    Conventions: a term whose group SD is 0 is 0 for everyone. A student whose mean correct RT
    is ``None`` (no correct response) gets ``None`` and does not enter the group statistics.
    With fewer than 2 scorable students there is nobody to compare with, so every score is
    ``None`` (shown "—"): a lone child's 0.00 would read as "exactly average".
    """
    scorable = {key: (pc, rt) for key, (pc, rt) in students.items() if rt is not None}
    scores: dict[K, float | None] = dict.fromkeys(students)
    if len(scorable) < 2:
        return scores
    z_pc = _standardised([pc for pc, _rt in scorable.values()])
    z_rt = _standardised([rt for _pc, rt in scorable.values()])
    for key, pc_term, rt_term in zip(scorable, z_pc, z_rt, strict=True):
        scores[key] = pc_term - rt_term
    return scores


def interference_cost(
    *, incongruent_rts: Sequence[float], congruent_rts: Sequence[float]
) -> float | None:
    """Stroop interference cost = median RT (incongruent) - median RT (congruent), in ms.

    Stroop, J. R. (1935), "Studies of interference in serial verbal reactions", *Journal of
    Experimental Psychology* 18, 643-662; reviewed by MacLeod, C. M. (1991), "Half a century of
    research on the Stroop effect", *Psychological Bulletin* 109, 163-203. A card is
    incongruent when its word names a colour other than its ink. Positive = slowed by the
    conflict.

    Medians, not means: a child's RTs are skewed with a slow tail, and the median is robust to
    it (Ratcliff 1993), so one distracted trial cannot make or hide an effect. Pass the same
    kind of RTs for both (plausible, correct, anticipations already dropped). ``None`` when
    either list is empty.
    """
    if not incongruent_rts or not congruent_rts:
        return None
    return float(statistics.median(incongruent_rts) - statistics.median(congruent_rts))


def error_interference(
    *,
    incongruent_errors: int,
    incongruent_trials: int,
    congruent_errors: int,
    congruent_trials: int,
) -> float | None:
    """Stroop error cost = incongruent error rate - congruent error rate (a proportion).

    Stroop (1935); MacLeod (1991): interference shows in errors as well as in time. Error rate
    = errors / trials of that kind. Positive = more mistakes under conflict. ``None`` when
    either kind has no trials. Raises ``ValueError`` when errors are negative or exceed trials.
    """
    for errors, trials in (
        (incongruent_errors, incongruent_trials),
        (congruent_errors, congruent_trials),
    ):
        if not 0 <= errors <= trials:
            raise ValueError(f"need 0 <= errors <= trials, got {errors} of {trials}")
    if incongruent_trials == 0 or congruent_trials == 0:
        return None
    return incongruent_errors / incongruent_trials - congruent_errors / congruent_trials
