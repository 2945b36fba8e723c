"""[digital] RULES.md: when a slap matches several other players' cards, the slapper picks
whose (tap the player), with the same time-out as other choices, rather than the first
clockwise being taken with no choice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.palm_strike.bots import BotSkill
from games.palm_strike.config import Config
from games.palm_strike.rules import CHOICE_TIMEOUT_MS, act, view
from tests.games.palm_strike.support import (
    GB,
    GP,
    Q_RY,
    RY,
    RY2,
    advance,
    arranged,
    choose,
    flip,
    slap,
)

if TYPE_CHECKING:
    from games.palm_strike.state import State

HANDS = {1: [GP, GB], 2: [RY], 3: [RY2]}


def _player_choice() -> State:
    state = flip(arranged(Config(), HANDS, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    return state


def test_the_slapper_is_asked_whose_card() -> None:
    state = _player_choice()
    assert view(state, 1)["phase"] == "choosing"
    assert view(state, 1)["choice"] == {
        "reason": "player",
        "to_seat": None,
        "deadline_ms": 750 + CHOICE_TIMEOUT_MS,
        "players": [2, 3],
    }
    assert view(state, 2)["choice"] is None


def test_picking_a_player_then_a_card_gives_it_to_them() -> None:
    state = choose(_player_choice(), 1, 1, 1000)  # the second offered player: seat 3
    assert view(state, 1)["choice"]["reason"] == "give"
    assert view(state, 1)["choice"]["to_seat"] == 3
    state = choose(state, 1, 1, 1200)  # GB
    assert state.hands == {1: [GP], 2: [RY], 3: [RY2, GB]}


def test_no_pick_takes_the_first_player_clockwise_then_the_first_card() -> None:
    state, _, _ = advance(_player_choice(), 750 + CHOICE_TIMEOUT_MS)
    assert view(state, 1)["choice"]["to_seat"] == 2
    state, _, _ = advance(state, 750 + 2 * CHOICE_TIMEOUT_MS)
    assert state.hands == {1: [GB], 2: [RY, GP], 3: [RY2]}
    assert state.choice is None


def test_a_player_not_offered_is_refused() -> None:
    state = _player_choice()
    outcome = act(state, 1, {"kind": "choose", "card": 2}, 1000)
    assert outcome.state is state
    assert outcome.rejected == "That player has no matching card."


def test_a_bot_takes_the_first_player_clockwise() -> None:
    bots = {1: BotSkill(mean_rt_ms=400, sd_rt_ms=0, error_rate=0.0)}
    state = flip(arranged(Config(), HANDS, [Q_RY], bots=bots, active=2), 2, 0)
    state, _, _ = advance(state, 600)
    assert view(state, 1)["choice"] is not None
    assert view(state, 1)["choice"]["reason"] == "give"
    assert view(state, 1)["choice"]["to_seat"] == 2
