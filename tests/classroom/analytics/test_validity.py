"""Run validity: anticipations, chance, too few responses, lapse bursts, long silences."""

from __future__ import annotations

import random

import pytest

from classroom.analytics.validity import (
    ANTICIPATIONS,
    AT_CHANCE,
    LAPSE_BURST,
    LONG_SILENCE,
    MAY_RETAKE,
    REASONS,
    TOO_FEW_RESPONSES,
    RunTrial,
    binomial_upper_tail,
    run_validity,
    yes_no_chance,
)


def _yes_no(
    flips: int, p_signal: float, p_noise: float, rt: float, seed: int, *, every_ms: float = 3000
) -> list[RunTrial]:
    rng = random.Random(seed)
    trials = []
    for flip in range(flips):
        target = rng.random() < 0.35
        responded = rng.random() < (p_signal if target else p_noise)
        trials.append(
            RunTrial(
                at_ms=flip * every_ms,
                target=target,
                responded=responded,
                correct=responded == target,
                rt_ms=rt + rng.gauss(0, 40) if responded else None,
            )
        )
    return trials


def test_binomial_upper_tail_worked_examples() -> None:
    # P(X >= 9 | 10, .5) = (10 + 1) / 1024.
    assert binomial_upper_tail(9, 10, 0.5) == pytest.approx(11 / 1024)
    assert binomial_upper_tail(0, 10, 0.3) == 1.0
    assert binomial_upper_tail(3, 10, 0.0) == 0.0
    with pytest.raises(ValueError, match="successes"):
        binomial_upper_tail(11, 10, 0.5)


def test_yes_no_chance_is_the_accuracy_of_responding_at_random() -> None:
    # Responds on half the trials; a quarter called for a response: .5 * .25 + .5 * .75 = .5.
    trials = [
        RunTrial(0, target=t, responded=r, correct=t == r, rt_ms=None)
        for t, r in [(True, True), (False, True), (False, False), (False, False)]
    ]
    assert yes_no_chance(trials) == pytest.approx(0.5)
    assert yes_no_chance([RunTrial(0, None, True, True, 500)]) is None


def test_a_steady_player_is_valid() -> None:
    trials = _yes_no(200, 0.9, 0.1, 600, seed=1)
    validity = run_validity(trials, chance=yes_no_chance(trials))
    assert validity.valid
    assert validity.reasons() == []


def test_an_anticipator_is_flagged_with_a_reason() -> None:
    trials = _yes_no(200, 0.9, 0.1, 120, seed=2)
    validity = run_validity(trials, chance=yes_no_chance(trials))
    assert ANTICIPATIONS in validity.flags
    assert REASONS[ANTICIPATIONS] == "many taps before the card could be seen"
    assert MAY_RETAKE == "may retake"


def test_a_random_tapper_is_at_chance() -> None:
    trials = _yes_no(200, 0.5, 0.5, 600, seed=3)
    assert run_validity(trials, chance=yes_no_chance(trials)).flags == (AT_CHANCE,)
    # Without a chance rate (a game with no noise trials) it is not tested.
    assert run_validity(trials).valid


def test_too_few_responses() -> None:
    trials = _yes_no(12, 0.1, 0.0, 600, seed=4)
    assert TOO_FEW_RESPONSES in run_validity(trials).flags


def test_a_lapse_burst_and_a_long_silence() -> None:
    good = _yes_no(200, 0.95, 0.05, 600, seed=5)
    # Twenty-five flips (75 s) in the middle where the child answered nothing.
    drifted = [
        RunTrial(t.at_ms, t.target, False, not t.target, None) if 80 <= i < 105 else t
        for i, t in enumerate(good)
    ]
    flags = run_validity(drifted, chance=yes_no_chance(drifted)).flags
    assert LAPSE_BURST in flags
    assert LONG_SILENCE in flags
    # Two games five minutes apart: the time between them is not the child's silence.
    apart = [
        RunTrial(t.at_ms + (300_000 if i >= 100 else 0), t.target, t.responded, t.correct, t.rt_ms)
        for i, t in enumerate(good)
    ]
    assert LONG_SILENCE not in run_validity(apart).flags
    # A child who never answered is too few responses, not a burst.
    never = [RunTrial(t.at_ms, t.target, False, not t.target, None) for t in good]
    assert LAPSE_BURST not in run_validity(never).flags
