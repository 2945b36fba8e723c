"""How a random Palm Strike class plays, for the contract test (tests/games/harness.py):
cards are conserved, trials are well formed, choices leave a choice."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from games.palm_strike.bots import BotSkill
from games.palm_strike.config import Config
from games.palm_strike.matching import LEVELS
from games.palm_strike.rules import MAX_FLIPS_PER_ROUND, view
from tests.games.harness import Play
from tests.games.palm_strike.support import original_decks, where_cards_are

if TYPE_CHECKING:
    import random

    from games.engine.contract import Outcome
    from games.palm_strike.state import State
    from tests.games.harness import Table


configs = st.builds(
    Config,
    level=st.sampled_from(LEVELS),
    cards_per_player=st.sampled_from([2, 3]),
    response_window_s=st.sampled_from([1.0, 2.5, 4.0]),
    flip_pacing=st.sampled_from(["tap", "auto"]),
    auto_flip_s=st.sampled_from([4.5, 8.0]),
    slap_scope=st.sampled_from(["any", "own", "others", "neighbours"]),
    deck_swap=st.booleans(),
    points_target=st.sampled_from([0, 0, 4, 12]),
    team_mode=st.booleans(),
    team_end=st.sampled_from(["centre_empty", "first_to_five", "all_claimed"]),
    centre_cards=st.integers(6, 10),
    grace_ms=st.sampled_from([0, 150, 500]),
)

FAST = BotSkill(mean_rt_ms=700, sd_rt_ms=250, error_rate=0.15)

JUNK: list[Any] = [
    None,
    {"kind": "dance"},
    {"kind": "slap", "flip": "x", "rt_ms": 1, "rtt_ms": 1},
    {"kind": "choose", "card": True},
    {"kind": "claim", "flip": 1, "card": -3, "rt_ms": 1, "rtt_ms": 1},
]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    config = draw(configs)
    low, high = (1, 7) if config.team_mode else (2, 6)
    seats = draw(st.lists(st.integers(0, 60), min_size=low, max_size=high, unique=True))
    bot_seats = draw(st.sets(st.sampled_from(seats)))
    seed = draw(st.integers(0, 2**32))
    return config, seats, seed, {seat: FAST for seat in bot_seats}


def _next_input(
    rnd: random.Random, state: State, humans: list[int]
) -> tuple[int, str, int | None, Any]:
    """One step of a random but mostly sensible class: (time passing, "act" / "tick" /
    "deadline", seat, action). Players mostly do what the moment asks for (slap an open card,
    flip on their turn, pick a card); about a third of the inputs are out of turn, late,
    aimed at the wrong flip, or malformed, on purpose."""
    flip = state.current
    is_open = flip is not None and flip.open
    dt = rnd.choice([0, 20, 80, 200, 500] if is_open else [0, 100, 700, 2000])
    roll = rnd.random()
    if not humans or state.game_over or roll < 0.2:
        return dt, "deadline", None, None
    if roll < 0.25:
        return dt, "tick", None, None
    seat = rnd.choice(humans) if rnd.random() < 0.97 else 999
    number = state.flips + rnd.choice([0, 0, 0, 0, 0, 0, 0, -1, 1])
    rt = rnd.choice([rnd.randint(150, 2500), rnd.randint(150, 2500), rnd.randint(0, 6000)])
    rtt = rnd.randint(0, 300)
    slap = {"kind": "slap", "flip": number, "rt_ms": rt, "rtt_ms": rtt}
    claim = {**slap, "kind": "claim", "card": rnd.randint(0, 10)}
    answer, wrong = (claim, slap) if state.config.team_mode else (slap, claim)
    sensible = rnd.random() < 0.7
    if sensible and state.choice is not None and state.choice.seat in humans:
        return dt, "act", state.choice.seat, {"kind": "choose", "card": rnd.randint(0, 2)}
    if sensible and is_open:
        return dt, "act", seat, answer
    if sensible and state.active_seat in humans:
        return dt, "act", state.active_seat, {"kind": "flip"}
    action = rnd.choice(
        [
            {"kind": "flip"},
            answer,
            wrong,
            {"kind": "choose", "card": rnd.randint(0, 3)},
            rnd.choice(JUNK),
        ]
    )
    return dt, "act", seat, action


def _check_invariants(state: State, config: Config, seed: int) -> None:
    # Every one of the 30 + 30 cards is in exactly one place.
    assert where_cards_are(state) == original_decks(config, seed)
    assert state.round_flips <= MAX_FLIPS_PER_ROUND
    for seat in (None, *state.seats):
        json.dumps(view(state, seat))
    if state.choice is not None:
        assert len(state.hands[state.choice.seat]) >= 2


def _check(outcome: Outcome[State], table: Table) -> None:
    config, seats, seed, bots = table
    for trial in outcome.trials:
        assert trial.data["bot"] is (trial.seat in bots)
        data = trial.data
        slapped = data["response"] == "slap"
        assert data["responded"] is slapped
        if config.team_mode and slapped:
            # A claim is right only on a matching card, so a match must have existed.
            assert not data["correct"] or data["target"]
        else:
            assert data["correct"] is (data["target"] is slapped)
    if outcome.trials:
        assert len(outcome.trials) % len(seats) == 0
    _check_invariants(outcome.state, config, seed)


PLAY = Play(
    tables=tables(),
    next_input=_next_input,
    examples=60,
    lengths=(30, 160),
    checker=lambda: _check,
    junk=tuple(JUNK),
)
