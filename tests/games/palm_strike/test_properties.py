"""Properties of Palm Strike over random tables: ticking late changes nothing, and bots-only
games end. Random play by a class (cards conserved, refusals change nothing, the log replays)
is the contract test's, tests/games/test_contract.py, with this game's checks in play.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.palm_strike.rules import (
    MAX_FLIPS_PER_ROUND,
    next_deadline,
    setup,
    state_fingerprint,
    tick,
)
from tests.games.palm_strike.play import FAST, tables
from tests.games.palm_strike.support import original_decks, where_cards_are

if TYPE_CHECKING:
    from games.palm_strike.bots import BotSkill
    from games.palm_strike.config import Config
    from games.palm_strike.state import State

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def _bots_only(config: Config, seats: list[int], seed: int, *, every_ms: int | None) -> State:
    """Bots play alone; the host ticks at each deadline, or blindly every ``every_ms``."""
    state = setup(config, seats, seed, {seat: FAST for seat in seats})
    now = 0
    for _ in range(50_000):
        if state.game_over:
            return state
        if every_ms is None:
            deadline = next_deadline(state)
            assert deadline is not None, "bots alone must never wait for input"
            now = max(now, deadline)
        state = tick(state, now).state
        if every_ms is not None:
            now += every_ms
    raise AssertionError("the game did not end")


@settings(BASE, max_examples=40)
@given(table=tables())
def test_bots_only_games_end_within_a_bounded_number_of_flips(
    table: tuple[Config, list[int], int, dict[int, BotSkill]],
) -> None:
    config, seats, seed, _bots = table
    state = _bots_only(config, seats, seed, every_ms=None)
    assert state.winners
    assert set(state.winners) <= set(seats)
    # Each round ends within MAX_FLIPS_PER_ROUND flips and scores at least one point.
    assert state.flips <= MAX_FLIPS_PER_ROUND * max(1, config.points_target)
    assert where_cards_are(state) == original_decks(config, seed)


@settings(BASE, max_examples=25)
@given(table=tables(), every_ms=st.integers(300, 9000))
def test_how_often_the_host_ticks_never_changes_the_game(
    table: tuple[Config, list[int], int, dict[int, BotSkill]], every_ms: int
) -> None:
    config, seats, seed, _bots = table
    exact = _bots_only(config, seats, seed, every_ms=None)
    coarse = _bots_only(config, seats, seed, every_ms=every_ms)
    assert state_fingerprint(coarse) == state_fingerprint(exact)
