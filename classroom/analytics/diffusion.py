"""Careful or hasty: the EZ-diffusion model's drift rate, boundary separation and
non-decision time, and their reading in words.

Pure Python: no Django, no I/O, no clock.

Wagenmakers, E.-J., van der Maas, H. L. J. & Grasman, R. P. P. P. (2007), "An EZ-diffusion
model for response time and accuracy", *Psychonomic Bulletin & Review* 14, 3-22. A decision
is evidence drifting between two boundaries; three numbers of a child's correct responses
(proportion correct Pc, the variance VRT and mean MRT of their RTs, in seconds) give in closed
form

* the **drift rate** v: how fast evidence comes in (higher: better at the task);
* the **boundary separation** a: how much evidence they wait for (higher: more careful);
* the **non-decision time** Ter: seeing and tapping, outside the decision (seconds).

With s = 0.1 the scaling constant, L = logit(Pc) = ln(Pc / (1 - Pc)):
v = sign(Pc - 1/2) s [L (L Pc^2 - L Pc + Pc - 1/2) / VRT]^(1/4), a = s^2 L / v, and
Ter = MRT - (a / 2v) (1 - exp(-v a / s^2)) / (1 + exp(-v a / s^2)).

Pc of exactly 1 makes L infinite; the paper's edge correction replaces it by 1 - 1/(2n), as
if half a response of the n were an error. Pc of 0 and of 1/2 (where v is 0 and a has no
value) take the like corrections 1/(2n) and 1/2 + 1/(2n).

In a slap game a trial is a go/no-go choice: on a card that matches, a slap reaches the upper
boundary and holding back the lower, implicit one, whose RT is never seen (Gomez, P.,
Ratcliff, R. & Perea, M. (2007), "A model of the go/no-go task", *Journal of Experimental
Psychology: General* 136, 389-413). The model in EZ form starts half way, so correct and
error RTs share one distribution, and the match trials' hit rate and hit RTs are enough.
"""

from __future__ import annotations

import math
import statistics
import typing
from dataclasses import dataclass

from classroom.analytics.progress import gettext_noop

if typing.TYPE_CHECKING:
    from collections.abc import Sequence

SCALING = 0.1

QUICK_AND_ACCURATE = "quick_and_accurate"
CAREFUL = "careful"
HASTY = "hasty"
NEEDS_SUPPORT = "needs_support"
STYLE_TEXT = {
    QUICK_AND_ACCURATE: gettext_noop("quick and accurate"),
    CAREFUL: gettext_noop("careful"),
    HASTY: gettext_noop("hasty"),
    NEEDS_SUPPORT: gettext_noop("needs support"),
}


@dataclass(frozen=True)
class Diffusion:
    """EZ-diffusion parameters: drift rate v (per second), boundary separation a, and
    non-decision time Ter (seconds), on the scale s = 0.1."""

    drift: float
    boundary: float
    nondecision_s: float


def edge_corrected(proportion_correct: float, trials: int) -> float:
    """Pc with the edge corrections: 1 becomes 1 - 1/(2n), 0 becomes 1/(2n), 1/2 becomes
    1/2 + 1/(2n); anything else is kept."""
    half_trial = 1 / (2 * trials)
    if proportion_correct >= 1:
        return 1 - half_trial
    if proportion_correct <= 0:
        return half_trial
    if proportion_correct == 0.5:
        return 0.5 + half_trial
    return proportion_correct


def ez_diffusion(
    *, proportion_correct: float, rt_variance_s2: float, rt_mean_s: float, trials: int
) -> Diffusion | None:
    """The EZ-diffusion parameters from Pc (over ``trials`` trials), VRT and MRT (of the
    correct RTs, in seconds) (Wagenmakers et al. 2007, equations 5-9). ``None`` when VRT is
    not > 0 (fewer than two different RTs). Raises ``ValueError`` for a Pc outside [0, 1] or
    trials < 1."""
    if not 0 <= proportion_correct <= 1:
        raise ValueError(f"proportion_correct must be within [0, 1], got {proportion_correct}")
    if trials < 1:
        raise ValueError(f"trials must be 1 or more, got {trials}")
    if not rt_variance_s2 > 0:
        return None
    pc = edge_corrected(proportion_correct, trials)
    s2 = SCALING**2
    logit = math.log(pc / (1 - pc))
    x = logit * (logit * pc * pc - logit * pc + pc - 0.5) / rt_variance_s2
    drift = math.copysign(SCALING * x**0.25, pc - 0.5)
    boundary = s2 * logit / drift
    y = -drift * boundary / s2
    decision = (boundary / (2 * drift)) * (1 - math.exp(y)) / (1 + math.exp(y))
    return Diffusion(drift=drift, boundary=boundary, nondecision_s=rt_mean_s - decision)


def ez_from_trials(
    *, correct_rts_ms: Sequence[float], correct: int, trials: int
) -> Diffusion | None:
    """:func:`ez_diffusion` of ``correct`` right out of ``trials`` and the correct responses'
    RTs in ms (the sample variance, n - 1). ``None`` with no trials or fewer than two RTs."""
    if trials < 1 or len(correct_rts_ms) < 2:
        return None
    seconds = [rt / 1000 for rt in correct_rts_ms]
    return ez_diffusion(
        proportion_correct=correct / trials,
        rt_variance_s2=statistics.variance(seconds),
        rt_mean_s=statistics.fmean(seconds),
        trials=trials,
    )


def decision_style(diffusion: Diffusion, *, drift_cut: float, boundary_cut: float) -> str:
    """Where a child sits on the two axes, in words a teacher reads: drift at or above
    ``drift_cut`` and boundary below ``boundary_cut`` is ``QUICK_AND_ACCURATE``; drift at or
    above with the boundary at or above is ``CAREFUL`` (right, but waits for it); drift below
    with a low boundary is ``HASTY`` (answers before the evidence is in); drift below with a
    high boundary is ``NEEDS_SUPPORT`` (slow and still unsure). Callers cut at the class's
    medians (:func:`class_cuts`)."""
    if diffusion.drift >= drift_cut:
        return CAREFUL if diffusion.boundary >= boundary_cut else QUICK_AND_ACCURATE
    return NEEDS_SUPPORT if diffusion.boundary >= boundary_cut else HASTY


def class_cuts(children: Sequence[Diffusion]) -> tuple[float, float] | None:
    """(median drift, median boundary) of a class's children; ``None`` with none."""
    if not children:
        return None
    return (
        float(statistics.median(c.drift for c in children)),
        float(statistics.median(c.boundary for c in children)),
    )
