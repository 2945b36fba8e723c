"""The hand-written copy of a Palm Strike state: the same game as a deep copy, and nothing of
it shared with the original that a rule could change."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings

from games.engine.table import TableState
from games.palm_strike.cards import PlayerCard
from games.palm_strike.rules import next_deadline, setup, state_fingerprint, tick
from games.palm_strike.state import BotMove, Choice, Response
from tests.games.palm_strike.play import FAST, tables

if TYPE_CHECKING:
    from games.palm_strike.bots import BotSkill
    from games.palm_strike.config import Config
    from games.palm_strike.state import State

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
STRANGER = PlayerCard(bg="red", pic="blue", motif="star")


def _states_of_a_game(config: Config, seats: list[int], seed: int) -> list[State]:
    """Every state a bots-only table passes through (flips, races, choices, rounds)."""
    state = setup(config, seats, seed, {seat: FAST for seat in seats})
    states = [state]
    for _ in range(400):
        deadline = next_deadline(state)
        if deadline is None:
            break
        state = tick(state, deadline).state
        states.append(state)
    return states


def _scribble(state: State) -> None:
    """Change every mutable part of ``state`` in place, as a careless rule might."""
    state.player_deck.append(STRANGER)
    state.flip_deck.clear()
    state.discard.append(STRANGER)
    for cards in state.hands.values():
        cards.append(STRANGER)
    state.hands[999] = [STRANGER]
    state.centre.append(None)
    state.scores[999] = 1
    state.bots[999] = FAST
    state.rng.random()
    state.round_winners.append(999)
    state.winners.append(999)
    if state.current is not None:
        state.current.table[999] = (STRANGER,)
        for response in state.current.responses:
            response.rt_ms += 1
            response.competing = not response.competing
        state.current.responses.append(Response(999, 0, 0, 0, True, False))
        for move in state.current.bot_moves:
            move.due_ms += 1
        state.current.bot_moves.append(BotMove(due_ms=0, seat=999, rt_ms=1))
        state.current.resolved = not state.current.resolved
    if state.choice is not None:
        state.choice.deadline_ms += 1
    else:
        state.choice = Choice(seat=999, reason="give", to_seat=None, deadline_ms=0)


@BASE
@given(table=tables())
def test_a_clone_is_the_same_game_and_shares_nothing_a_rule_could_change(
    table: tuple[Config, list[int], int, dict[int, BotSkill]],
) -> None:
    config, seats, seed, _bots = table
    states = _states_of_a_game(config, seats, seed)
    for state in random.Random(seed).sample(states, min(12, len(states))):
        before = state_fingerprint(state)
        copy = state.clone()
        # The deep copy every game gets by default is the reference.
        assert state_fingerprint(copy) == state_fingerprint(TableState.clone(state)) == before
        _scribble(copy)
        assert state_fingerprint(state) == before
        assert state_fingerprint(copy) != before
