"""Team mode judges every claim on the centre as it was when the card flipped: a right
claim is right whoever was first, and bots' late claims are recorded like children's.

Read against the centre as it is at the claim, a slower child's tap on the same card would
be judged on the refill (ends B, C: wrong) or on a shifted index (end A: refused or read as a
neighbour) once the first claim had resolved.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.palm_strike.bots import BotSkill
from games.palm_strike.cards import card_to_dict, player_deck
from games.palm_strike.config import Config
from games.palm_strike.matching import cards_match
from games.palm_strike.rules import act, view
from tests.games.palm_strike.support import (
    GB,
    GP,
    PB,
    PG,
    Q_RY,
    RY,
    accepted,
    advance,
    arranged,
    claim,
    flip,
)

CENTRE = [GP, RY, PG]  # only RY (place 1) matches Q_RY


def _team(team_end: str, *, deck: list[Any] | None = None, bots: Any = None) -> Any:
    config = Config(team_mode=True, team_end=team_end)  # type: ignore[arg-type]
    hands: dict[int, list[Any]] = {1: [], 2: [], 3: [], 4: []}
    table = arranged(config, hands, [Q_RY], centre=list(CENTRE), deck=deck or [PB, GB], bots=bots)
    return flip(table, 1, 0)


def _trials_by_seat(state: Any, at: int = 2500) -> dict[int, Any]:
    state, _, trials = advance(state, at)
    return {trial.seat: trial.data for trial in trials}


def test_end_a_a_slower_right_claim_on_the_taken_card_is_right() -> None:
    state = claim(_team("centre_empty"), 2, 1, 600, rt=550)
    state, _, _ = advance(state, 800)  # seat 2 has taken RY; its place is empty now
    assert state.centre == [GP, None, PG]
    # Seat 3's tablet still shows GP, RY, PG: card 1 is the RY it saw.
    state = claim(state, 3, 1, 1100, rt=1000)
    trials = _trials_by_seat(state)
    assert trials[3]["correct"] is True
    assert trials[3]["claimed_card"] == card_to_dict(RY)
    assert trials[3]["first"] is False
    assert trials[2]["first"] is True
    assert state.hands[2] == [RY]


def test_end_a_a_card_after_the_taken_one_keeps_its_number() -> None:
    state, _, _ = advance(claim(_team("centre_empty"), 2, 1, 600), 800)
    state = claim(state, 3, 2, 1100, rt=1000)  # PG, as this tablet numbered it
    assert _trials_by_seat(state)[3]["claimed_card"] == card_to_dict(PG)


def test_end_b_a_slower_right_claim_is_not_judged_on_the_refill() -> None:
    state, _, _ = advance(claim(_team("first_to_five"), 2, 1, 600), 800)
    assert state.centre == [GP, PB, PG]  # refilled in place
    state = claim(state, 3, 1, 1100, rt=1000)
    trials = _trials_by_seat(state)
    assert trials[3]["correct"] is True
    assert trials[3]["claimed_card"] == card_to_dict(RY)


def test_end_c_a_slower_right_claim_is_not_judged_on_the_refill() -> None:
    state, _, _ = advance(claim(_team("all_claimed"), 2, 1, 600), 800)
    state = claim(state, 4, 1, 1300, rt=1200)
    assert _trials_by_seat(state)[4]["correct"] is True


def test_bots_late_claims_are_recorded_like_childrens() -> None:
    quick = BotSkill(mean_rt_ms=400, sd_rt_ms=0, error_rate=0.0)
    slow = BotSkill(mean_rt_ms=900, sd_rt_ms=0, error_rate=0.0)
    state = _team("centre_empty", bots={3: quick, 4: slow})
    trials = _trials_by_seat(state)
    assert trials[3]["first"] is True
    assert trials[4]["responded"] is True
    assert trials[4]["rt_ms"] == 900
    assert trials[4]["correct"] is True
    assert trials[4]["claimed_card"] == card_to_dict(RY)


def test_a_wrong_claim_first_does_not_take_the_flip_from_a_right_one() -> None:
    state = claim(_team("centre_empty"), 3, 0, 500, rt=450)  # GP: wrong
    assert view(state, None)["last"]["outcome"] is None
    assert view(state, 3)["mine"]["result"] == "wrong_card"
    state = claim(state, 2, 1, 900, rt=850)
    assert view(state, 2)["mine"]["result"] == "waiting"
    state, _, _ = advance(state, 1100)
    assert view(state, 2)["mine"]["result"] == "first"
    assert view(state, None)["last"] == {
        "flip": 1,
        "winner": 2,
        "outcome": "claim",
        "slappers": [3, 2],
    }


def test_only_wrong_claims_mark_the_flip_a_false_claim_when_it_closes() -> None:
    state = claim(_team("centre_empty"), 3, 0, 500)
    state, _, _ = advance(state, 2500)
    assert view(state, None)["last"]["outcome"] == "false_claim"


def test_a_claim_on_an_old_flip_is_too_late() -> None:
    state, _, _ = advance(_team("centre_empty"), 2600)
    outcome = act(
        state, 2, {"kind": "claim", "flip": 1, "card": 1, "rt_ms": 900, "rtt_ms": 0}, 2700
    )
    assert outcome.state is state
    assert outcome.rejected == "Too late: that card has already closed."


BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@settings(BASE, max_examples=60)
@given(
    seed=st.integers(0, 2**16),
    team_end=st.sampled_from(["centre_empty", "first_to_five", "all_claimed"]),
    level=st.sampled_from(["beginner", "intermediate", "advanced"]),
    taps=st.lists(st.tuples(st.integers(0, 9), st.integers(101, 1400)), min_size=1, max_size=6),
)
def test_every_claim_is_judged_on_the_centre_as_flipped(
    seed: int, team_end: str, level: str, taps: list[tuple[int, int]]
) -> None:
    """Whoever was first and whatever the centre became, a claim is right exactly when the
    card at that number on the flipped centre matches the flipped card."""
    import random

    rng = random.Random(seed)
    deck = player_deck(rng)
    centre = deck[:10]
    config = Config(team_mode=True, team_end=team_end, level=level, centre_cards=10)  # type: ignore[arg-type]
    seats = list(range(len(taps)))
    table = arranged(config, {s: [] for s in seats}, [Q_RY], centre=centre, deck=deck[10:])
    state = flip(table, seats[0], 0)
    expected = {}
    for seat, (index, rt) in sorted(zip(seats, taps, strict=True), key=lambda item: item[1][1]):
        state = accepted(
            act(
                state,
                seat,
                {"kind": "claim", "flip": 1, "card": index, "rt_ms": rt, "rtt_ms": 0},
                rt,
            )
        )
        expected[seat] = cards_match(Q_RY, centre[index], level)
    trials = _trials_by_seat(state)
    any_match = any(cards_match(Q_RY, card, level) for card in centre)
    for seat, right in expected.items():
        assert trials[seat]["correct"] is (right and any_match), (seat, trials[seat])
        assert trials[seat]["claimed_card"] == card_to_dict(centre[taps[seat][0]])
