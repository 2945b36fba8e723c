"""Properties of Commotion over random tables: ticking late changes nothing, and bots-only
games end with every card in place. Random play by a class (cards conserved, piles well
formed, refusals change nothing, the log replays) is the contract test's,
tests/games/test_contract.py, with this game's checks in play.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.commotion.rules import (
    MAX_ROUNDS,
    next_deadline,
    setup,
    state_fingerprint,
    tick,
)
from tests.games.commotion.play import FAST, Table, _well_formed, tables
from tests.games.commotion.support import original_cards, where_cards_are

if TYPE_CHECKING:
    from games.commotion.state import State

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Far more than any bots-only game needs (a few thousand); reaching it means no progress.
MAX_TICKS = 60_000


def _bots_only(table: Table, *, every_ms: int | None) -> tuple[State, int]:
    """Bots play alone; the host ticks at each deadline, or blindly every ``every_ms``."""
    config, seats, seed, _bots = table
    state = setup(config, seats, seed, dict.fromkeys(seats, FAST))
    now = 0
    for ticks in range(MAX_TICKS):
        if state.phase == "game_over":
            return state, ticks
        if every_ms is None:
            deadline = next_deadline(state)
            assert deadline is not None, "bots alone must never wait for input"
            now = max(now, deadline)
        outcome = tick(state, now)
        assert outcome.trials == ()
        state = outcome.state
        if every_ms is not None:
            now += every_ms
    raise AssertionError("the game did not end")


@settings(BASE, max_examples=40)
@given(table=tables())
def test_bots_only_games_end(table: Table) -> None:
    _config, seats, _seed, _bots = table
    state, _ticks = _bots_only(table, every_ms=None)
    assert state.winners
    assert set(state.winners) <= set(seats)
    assert state.round <= MAX_ROUNDS
    assert where_cards_are(state) == original_cards(seats)
    assert all(_well_formed(pile) for pile in state.centre)


@settings(BASE, max_examples=20)
@given(table=tables(), every_ms=st.integers(200, 5000))
def test_how_often_the_host_ticks_never_changes_the_game(table: Table, every_ms: int) -> None:
    exact, _ = _bots_only(table, every_ms=None)
    coarse, _ = _bots_only(table, every_ms=every_ms)
    assert state_fingerprint(coarse) == state_fingerprint(exact)
