"""Properties over random games: cards are conserved, refusals change nothing, the log
replays to the same state, ticking late changes nothing, and bots-only games end."""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.palm_strike.bots import BotSkill
from games.palm_strike.config import Config
from games.palm_strike.matching import LEVELS
from games.palm_strike.rules import (
    MAX_FLIPS_PER_ROUND,
    act,
    next_deadline,
    replay,
    setup,
    state_fingerprint,
    tick,
    view,
)
from tests.games.palm_strike.support import original_decks, where_cards_are

if TYPE_CHECKING:
    from games.palm_strike.state import State

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

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
def tables(draw: st.DrawFn) -> tuple[Config, list[int], int, dict[int, BotSkill]]:
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


@settings(BASE, max_examples=60)
@given(table=tables(), driver=st.integers(0, 2**32), length=st.integers(30, 160))
def test_random_play_keeps_every_invariant_and_replays(
    table: tuple[Config, list[int], int, dict[int, BotSkill]], driver: int, length: int
) -> None:
    config, seats, seed, bots = table
    humans = [seat for seat in seats if seat not in bots]
    rnd = random.Random(driver)
    state = setup(config, seats, seed, bots)
    _check_invariants(state, config, seed)
    log: list[tuple[str, int | None, Any, int]] = []
    now = 0
    for _ in range(length):
        dt, what, seat, action = _next_input(rnd, state, humans)
        now += dt
        before = state_fingerprint(state)
        if what == "act":
            assert seat is not None
            outcome = act(state, seat, action, now)
            if outcome.rejected is None:
                log.append(("act", seat, action, now))
            else:
                assert outcome.state is state
                assert outcome.events == ()
                assert outcome.trials == ()
        else:
            if what == "deadline":
                deadline = next_deadline(state)
                now = max(now, deadline if deadline is not None else now)
            outcome = tick(state, now)
            assert outcome.rejected is None
            if outcome.state is not state:
                log.append(("tick", None, None, now))
        # The input state is never changed, accepted or not.
        assert state_fingerprint(state) == before
        for trial in outcome.trials:
            assert trial.seat in seats
            assert trial.data["bot"] is (trial.seat in bots)
            data = trial.data
            slapped = data["response"] == "slap"
            assert data["responded"] is slapped
            if config.team_mode and slapped:
                # A claim is right only on a matching card, so a match must have existed.
                assert not data["correct"] or data["target"]
            else:
                assert data["correct"] is (data["target"] is slapped)
            json.dumps(dict(trial.data))
        if outcome.trials:
            assert len(outcome.trials) % len(seats) == 0
        state = outcome.state
        _check_invariants(state, config, seed)
    rebuilt = replay(config, seats, seed, bots, log)
    assert state_fingerprint(rebuilt) == state_fingerprint(state)
    assert view(rebuilt, None) == view(state, None)


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
