"""What each tablet is told about its own tap (``mine``) and the cards that matched
(``glow``): every tap gets its answer, and the glow never gives an answer away."""

from __future__ import annotations

from games.palm_strike.config import Config
from games.palm_strike.rules import view
from tests.games.palm_strike.support import (
    GB,
    GP,
    PG,
    Q_NONE,
    Q_RY,
    RY,
    advance,
    arranged,
    flip,
    slap,
)


def _result(state: object, seat: int) -> object:
    mine = view(state, seat)["mine"]  # type: ignore[arg-type]
    return None if mine is None else mine["result"]


def test_a_false_slap_waits_for_the_race_then_draws_a_card() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [GB], 3: [PG]}, [Q_NONE]), 1, 0)
    state = slap(state, 1, 400)
    assert _result(state, 1) == "waiting"  # it may still win the race
    assert _result(state, 2) is None
    state, _, _ = advance(state, 600)
    assert _result(state, 1) == "first_no_match"
    state = slap(state, 3, 1400, rt=1350)
    assert _result(state, 3) == "no_match"  # not "a match, but Ava was faster"


def test_a_right_but_slower_slap_names_the_winner() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [RY, GB], 3: [PG]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 400), 600)
    assert view(state, 1)["mine"] == {"flip": 1, "result": "first", "winner": 1}
    state = slap(state, 3, 1400, rt=1350)
    assert view(state, 3)["mine"] == {"flip": 1, "result": "right", "winner": 1}


def test_the_glow_waits_until_the_seat_answered_or_the_window_closed() -> None:
    state = flip(arranged(Config(), {1: [GP, GB], 2: [RY, GB], 3: [PG]}, [Q_RY]), 1, 0)
    assert view(state, 1)["glow"] is None
    state, _, _ = advance(slap(state, 1, 400), 600)
    assert view(state, 1)["glow"] == {
        "flip": 1,
        "players": {"1": [], "2": [0], "3": []},
        "centre": [],
    }
    assert view(state, 3)["glow"] is None  # seat 3 may still slap: no hint
    state, _, _ = advance(state, 2500)
    assert view(state, 3)["glow"] is not None
