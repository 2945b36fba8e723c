"""Known truth for the statistics: simulated children of set parameters, many times over, and
the intervals, reliability, reliable change and EZ-diffusion recover what was set.

Every simulation is seeded, so the figures are the same on every run; docs/measures.md holds
them with the command that prints them (``-s`` shows the ``figures:`` lines). Validity flags
are checked through the real table host in tests/classroom/gamesite/test_known_truth.py.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
import statistics
from typing import TYPE_CHECKING

import pytest

from classroom.analytics.diffusion import ez_from_trials
from classroom.analytics.intervals import median_interval, wilson_interval
from classroom.analytics.reliability import split_half_reliability
from classroom.analytics.reliable_change import NO_RELIABLE_CHANGE, practice_effect, reliable_change

if TYPE_CHECKING:
    from collections.abc import Callable

# Thousands of simulated children (a few seconds of CPU): `make test` runs them, `make check`
# leaves them out with the other known-truth runs.
pytestmark = pytest.mark.slow

# The nominal coverage of a 95 % interval, and how far the share of runs covering the truth
# may stray from it.
NOMINAL = 0.95
COVERAGE_TOLERANCE = 0.05


def _figures(name: str, **values: float) -> None:
    print(f"figures: {name}", *(f"{key}={value:.3f}" for key, value in values.items()))


# --------------------------------------------------------------------------------------------
# Intervals cover the truth at their nominal rate


@pytest.mark.parametrize(("rate", "trials"), [(0.5, 20), (0.8, 30), (0.95, 60)])
def test_wilson_intervals_cover_the_true_rate(rate: float, trials: int) -> None:
    rng = random.Random(trials)
    runs = 2000
    covered = 0
    for _ in range(runs):
        right = sum(1 for _ in range(trials) if rng.random() < rate)
        interval = wilson_interval(right, trials)
        assert interval is not None
        covered += rate in interval
    _figures("wilson", rate=rate, trials=trials, coverage=covered / runs)
    assert covered / runs == pytest.approx(NOMINAL, abs=COVERAGE_TOLERANCE)


def _child_rts(rng: random.Random, count: int) -> list[float]:
    """A child's correct RTs: 250 ms plus a log-normal (median e^5.8 = 330 ms), skewed with
    a slow tail like real RTs."""
    return [250 + rng.lognormvariate(5.8, 0.5) for _ in range(count)]


@pytest.mark.parametrize("trials", [20, 60])
def test_bootstrap_intervals_cover_the_true_median(trials: int) -> None:
    truth = 250 + math.exp(5.8)
    rng = random.Random(trials)
    runs = 500
    covered = sum(
        truth in (median_interval(_child_rts(rng, trials), resamples=1000, seed=run) or ())
        for run in range(runs)
    )
    _figures("bootstrap median", trials=trials, coverage=covered / runs)
    assert covered / runs == pytest.approx(NOMINAL, abs=COVERAGE_TOLERANCE)


# --------------------------------------------------------------------------------------------
# Split-half reliability recovers a set reliability


def _class_rts(
    rng: random.Random, *, children: int, trials: int, true_sd: float, trial_sd: float
) -> tuple[list[float], dict[int, list[float]]]:
    """Each child's true mean RT (class mean 650 ms, SD ``true_sd``) and trials around it."""
    means = [rng.gauss(650, true_sd) for _ in range(children)]
    return means, {
        child: [rng.gauss(mean, trial_sd) for _ in range(trials)]
        for child, mean in enumerate(means)
    }


def test_split_half_recovers_a_set_reliability() -> None:
    # The reliability of a mean of n trials: true variance / (true variance + trial variance
    # / n) = 60^2 / (60^2 + 200^2 / 30) = 0.730.
    truth = 60**2 / (60**2 + 200**2 / 30)
    _means, rts = _class_rts(random.Random(1), children=300, trials=30, true_sd=60, trial_sd=200)
    result = split_half_reliability(rts, statistics.fmean, permutations=200)
    assert result is not None
    _figures("split-half mean RT", truth=truth, estimate=result.estimate)
    assert result.estimate == pytest.approx(truth, abs=0.05)
    assert truth in result.interval


def test_split_half_recovers_the_reliability_of_a_rate() -> None:
    # Each child right with their own probability p ~ Beta(8, 2) on 40 trials: the
    # reliability of a proportion is var(p) / (var(p) + E[p (1 - p)] / n), with var(p) =
    # 8 * 2 / (10^2 * 11) and E[p (1 - p)] = E[p] - E[p^2] = 0.8 - (var(p) + 0.64).
    var_p = 16 / 1100
    truth = var_p / (var_p + (0.8 - var_p - 0.64) / 40)
    rng = random.Random(2)
    rates = [rng.betavariate(8, 2) for _ in range(300)]
    trials = {child: [float(rng.random() < p) for _ in range(40)] for child, p in enumerate(rates)}
    result = split_half_reliability(trials, statistics.fmean, permutations=200)
    assert result is not None
    _figures("split-half accuracy", truth=truth, estimate=result.estimate)
    assert result.estimate == pytest.approx(truth, abs=0.05)


# --------------------------------------------------------------------------------------------
# Reliable change flags few children who did not change


def _verdicts(change_ms: Callable[[int], float], seed: int) -> list[str]:
    """Each of 300 children plays two sessions of 30 trials; their true mean RT moves by the
    class's practice effect (-40 ms) plus ``change_ms(child)``. The verdict uses what a
    teacher's class gives: split-half reliability of the first session, the SD of its means
    across the class and the class's mean change as the practice effect."""
    rng = random.Random(seed)
    means, first = _class_rts(rng, children=300, trials=30, true_sd=60, trial_sd=200)
    second = {
        child: [rng.gauss(means[child] - 40 + change_ms(child), 200) for _ in range(30)]
        for child in first
    }
    before = {child: statistics.fmean(rts) for child, rts in first.items()}
    after = {child: statistics.fmean(rts) for child, rts in second.items()}
    reliability = split_half_reliability(first, statistics.fmean, permutations=100)
    assert reliability is not None
    practice = practice_effect([after[child] - before[child] for child in first])
    spread = statistics.stdev(before.values())
    verdicts = []
    for child in first:
        change = reliable_change(
            before=before[child],
            after=after[child],
            spread=spread,
            reliability=reliability.estimate,
            lower_is_better=True,
            practice=practice,
        )
        assert change is not None
        verdicts.append(change.verdict)
    return verdicts


def test_reliable_change_flags_few_children_who_did_not_change() -> None:
    verdicts = _verdicts(lambda _child: 0.0, seed=3)
    flagged = sum(verdict != NO_RELIABLE_CHANGE for verdict in verdicts) / len(verdicts)
    _figures("reliable change, no change", flagged=flagged)
    assert flagged <= 0.10


def test_reliable_change_finds_children_who_did() -> None:
    # Half the class got 200 ms faster beyond practice (2.3 of the difference's error).
    verdicts = _verdicts(lambda child: -200.0 if child % 2 else 0.0, seed=4)
    changed = [verdict for child, verdict in enumerate(verdicts) if child % 2]
    found = sum(verdict == "improved" for verdict in changed) / len(changed)
    _figures("reliable change, 200 ms faster", found=found)
    assert found >= 0.5


# --------------------------------------------------------------------------------------------
# EZ-diffusion recovers a diffusion's parameters

SCALING = 0.1


def _first_passage_sampler(
    drift: float, boundary: float, *, step_s: float = 0.001, longest_s: float = 5.0
) -> tuple[float, Callable[[random.Random], float]]:
    """(P(the upper boundary), a sampler of the decision time at the upper boundary) of a
    Wiener diffusion starting half way, s = 0.1.

    The first-passage density is the large-time series of Navarro, D. J. & Fuss, I. G.
    (2009), "Fast and accurate calculations for first-passage times in Wiener diffusion
    models", *Journal of Mathematical Psychology* 53, 222-230, tabulated on a 1 ms grid and
    drawn from by its inverse cumulative distribution: exact to the grid, and thousands of
    trials cost a few milliseconds.
    """
    v, a = drift / SCALING, boundary / SCALING
    upper = 1 / (1 + math.exp(-v * a))
    times = [step_s * i for i in range(1, int(longest_s / step_s) + 1)]
    # Upper boundary, start w = 1/2: sin(k pi / 2) is 0 for even k, +-1 for odd k.
    density = [
        math.pi
        / a**2
        * math.exp(v * a / 2 - v * v * t / 2)
        * sum(
            k * math.exp(-k * k * math.pi**2 * t / (2 * a * a)) * (1 if k % 4 == 1 else -1)
            for k in range(1, 80, 2)
        )
        for t in times
    ]
    cumulative = [0.0]
    for before, after in itertools.pairwise(density):
        cumulative.append(cumulative[-1] + (before + after) / 2 * step_s)
    assert cumulative[-1] == pytest.approx(upper, rel=1e-3)  # the density's mass is P(upper)
    cumulative = [c / cumulative[-1] for c in cumulative]

    def draw(rng: random.Random) -> float:
        u = rng.random()
        i = min(max(1, bisect.bisect_left(cumulative, u)), len(times) - 1)
        share = (u - cumulative[i - 1]) / ((cumulative[i] - cumulative[i - 1]) or 1)
        return times[i - 1] + share * step_s

    return upper, draw


@pytest.mark.parametrize(
    ("drift", "boundary", "nondecision_s"),
    [(0.25, 0.12, 0.30), (0.15, 0.16, 0.35), (0.35, 0.09, 0.25), (0.10, 0.20, 0.40)],
)
def test_ez_diffusion_recovers_the_parameters(
    drift: float, boundary: float, nondecision_s: float
) -> None:
    upper, decision_time = _first_passage_sampler(drift, boundary)
    rng = random.Random(round(drift * 1000))
    fits = []
    for _child in range(10):
        trials = 1000
        rts = [
            1000 * (nondecision_s + decision_time(rng))
            for _ in range(trials)
            if rng.random() < upper
        ]
        fit = ez_from_trials(correct_rts_ms=rts, correct=len(rts), trials=trials)
        assert fit is not None
        fits.append(fit)
    recovered = {
        "drift": statistics.fmean(f.drift for f in fits) / drift,
        "boundary": statistics.fmean(f.boundary for f in fits) / boundary,
        "nondecision": statistics.fmean(f.nondecision_s for f in fits) / nondecision_s,
    }
    _figures(f"EZ v={drift} a={boundary} Ter={nondecision_s}", **recovered)
    for ratio in recovered.values():
        assert ratio == pytest.approx(1, abs=0.10)
