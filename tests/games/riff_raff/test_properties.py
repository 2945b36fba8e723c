"""Properties of Riff Raff over random tables: bots-only games end however often the host
ticks. Random play by a class (pieces conserved, picks kept secret, refusals change nothing,
the log replays) is the contract test's, tests/games/test_contract.py, with this game's
checks in play.py.

Physics is slow, so tables are small (4 pieces each) and example counts modest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.rules import (
    STEP_MS,
    next_deadline,
    setup,
    state_fingerprint,
    tick,
)
from tests.games.riff_raff.play import Table, tables

if TYPE_CHECKING:
    from games.riff_raff.state import State

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Far more than any bots-only game with 4 pieces each needs.
MAX_TICKS = 20_000


def _bots_only(table: Table, *, every_ms: int | None) -> State:
    config, seats, seed, _bots = table
    state = setup(config, seats, seed, dict.fromkeys(seats, BOT_LEVELS["quick"]))
    now = 0
    for _ in range(MAX_TICKS):
        if state.phase == "game_over":
            return state
        if every_ms is None:
            deadline = next_deadline(state)
            assert deadline is not None, "bots alone must never wait for input"
            now = deadline
        else:
            now += every_ms
        outcome = tick(state, now)
        assert outcome.trials == ()
        state = outcome.state
    raise AssertionError("the game did not end")


@settings(BASE, max_examples=5)
@given(table=tables(), every_ms=st.sampled_from([STEP_MS, 33, 500, 2000]))
def test_bots_only_games_end_however_often_the_host_ticks(table: Table, every_ms: int) -> None:
    exact = _bots_only(table, every_ms=None)
    assert exact.winners
    assert set(exact.winners) <= set(exact.seats)
    coarse = _bots_only(table, every_ms=every_ms)
    assert state_fingerprint(coarse) == state_fingerprint(exact)
