"""The adaptive staircase: bounded, monotone in the right direction, and converging near 80 %
correct for simulated players of known skill."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.staircase import Staircase
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Callable


@given(
    rungs=st.integers(1, 12),
    answers=st.lists(st.booleans(), max_size=200),
    need=st.integers(1, 4),
)
def test_the_rung_stays_on_the_ladder(rungs: int, answers: list[bool], need: int) -> None:
    stairs = Staircase(rungs=rungs, correct_to_harder=need)
    for correct in answers:
        stairs = stairs.answered(correct=correct)
        assert 0 <= stairs.rung < rungs


@given(rung=st.integers(0, 9), streak=st.integers(0, 2), correct=st.booleans())
def test_an_error_never_makes_it_harder_and_a_success_never_easier(
    rung: int, streak: int, correct: bool
) -> None:
    before = Staircase(rungs=10, rung=rung, streak=streak)
    after = before.answered(correct=correct)
    if correct:
        assert after.rung >= before.rung
    else:
        assert after.rung <= before.rung


def test_three_in_a_row_step_up_and_one_error_steps_down() -> None:
    stairs = Staircase(rungs=5)
    for _ in range(3):
        stairs = stairs.answered(correct=True)
    assert (stairs.rung, stairs.streak) == (1, 0)
    stairs = stairs.answered(correct=True).answered(correct=False)
    assert (stairs.rung, stairs.streak, stairs.reversals) == (0, 0, 1)


def test_a_bad_ladder_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one rung"):
        Staircase(rungs=0)
    with pytest.raises(ValueError, match="not on a ladder"):
        Staircase(rungs=3, rung=3)


def _player(skill: float) -> Callable[[int], float]:
    """P(correct) at a rung: a logistic curve falling through 50 % at rung ``skill``."""
    return lambda rung: 0.5 + 0.5 / (1 + math.exp((rung - skill) / 1.2))


@pytest.mark.parametrize("skill", [2.0, 6.5, 11.0])
def test_simulated_players_settle_near_eighty_percent_correct(skill: float) -> None:
    chance = _player(skill)
    rng = random.Random(int(skill * 100))
    stairs = Staircase(rungs=20)
    outcomes: list[bool] = []
    rungs: list[int] = []
    for _ in range(3000):
        correct = rng.random() < chance(stairs.rung)
        outcomes.append(correct)
        rungs.append(stairs.rung)
        stairs = stairs.answered(correct=correct)
    settled = outcomes[500:]
    accuracy = sum(settled) / len(settled)
    assert 0.74 <= accuracy <= 0.85, accuracy
    # A stronger player climbs higher: the level tracks skill.
    mean_rung = sum(rungs[500:]) / len(rungs[500:])
    assert abs(mean_rung - (skill + 1.2 * math.log(0.5 / 0.294 - 1))) < 2.5, mean_rung


@pytest.mark.parametrize("slug", ["palm_strike", "commotion", "riff_raff"])
def test_every_game_has_a_ladder_of_valid_distinct_rungs(slug: str) -> None:
    spec = game_get(slug)
    assert spec is not None
    assert len(spec.ladder) >= 5
    configs = [spec.config(rung) for rung in spec.ladder]  # each rung is a valid setting
    assert len(set(configs)) == len(configs)
    # Staircases run over the ladder's length.
    assert Staircase(rungs=len(spec.ladder), rung=len(spec.ladder) - 1).rung >= 4


def test_ladders_get_harder_by_each_games_own_measure() -> None:
    palm = game_get("palm_strike")
    riff = game_get("riff_raff")
    assert palm is not None
    assert riff is not None
    levels = ["beginner", "intermediate", "advanced"]
    palm_order = [(levels.index(r["level"]), -r["response_window_s"]) for r in palm.ladder]
    assert palm_order == sorted(palm_order)
    waves = [(r["wave_strength"], -r["catch_window_s"]) for r in riff.ladder]
    assert waves == sorted(waves)
