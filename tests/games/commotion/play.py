"""How a random Commotion class plays, for the contract test (tests/games/harness.py):
every card is in exactly one place, centre piles are always well formed, scores add up,
trials are well formed."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from games.commotion.bots import BotSkill
from games.commotion.cards import HIGHEST
from games.commotion.config import Config
from games.commotion.rules import view
from games.commotion.tableau import MAX_TABLEAU, TABLEAU_SIZE
from tests.games.commotion.support import original_cards, where_cards_are
from tests.games.harness import Play

if TYPE_CHECKING:
    import random
    from collections import Counter

    from games.commotion.cards import Card
    from games.commotion.state import State
    from games.engine.contract import Outcome, Trial


FAST = BotSkill(move_every_ms=700, error_rate=0.15)

Table = tuple[Config, list[int], int, dict[int, BotSkill]]

JUNK: list[Any] = [
    None,
    {"kind": "dance"},
    {"kind": "play", "source": "tableau", "card": "x", "pile": 0},
    {"kind": "play", "source": "waste", "pile": True},
    {"kind": "play", "source": "tableau", "card": 0, "pile": -7},
]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    seats = draw(st.lists(st.integers(0, 60), min_size=2, max_size=6, unique=True))
    small = draw(st.sets(st.sampled_from(seats)))
    config = Config(
        refill_size=draw(st.sampled_from([5, 7, 13])),
        stock_turn=draw(st.sampled_from([1, 3])),
        target_score=draw(st.sampled_from([5, 12, 30])),
        bot_speed=draw(st.sampled_from(["gentle", "steady", "quick"])),
        refill_by_seat=tuple((seat, draw(st.integers(5, 13))) for seat in sorted(small)),
    )
    bot_seats = draw(st.sets(st.sampled_from(seats)))
    seed = draw(st.integers(0, 2**32))
    return config, seats, seed, {seat: FAST for seat in bot_seats}


def _play_action(rnd: random.Random, seen: dict[str, Any]) -> dict[str, Any]:
    """A play the seat's view offers; now and then with a stale pile size (a lost race)."""
    option = rnd.choice(seen["playable"])
    pile = rnd.choice(option["piles"])
    size = seen["centre"][pile]["cards"] if pile >= 0 else -1
    if pile >= 0 and rnd.random() < 0.1:
        size -= 1
    return {
        "kind": "play",
        "source": option["source"],
        "card": option["card"],
        "pile": pile,
        "pile_size": size,
        "rt_ms": rnd.choice([rnd.randint(150, 3000), rnd.randint(0, 8000)]),
        "rtt_ms": rnd.randint(0, 300),
    }


def _next_input(
    rnd: random.Random, state: State, humans: list[int]
) -> tuple[int, str, int | None, Any]:
    """One step of a random but mostly sensible class: (time passing, "act" / "tick" /
    "deadline", seat, action). Players mostly do what their view offers; about a quarter of
    the inputs are blind plays, moves at the wrong moment, or malformed, on purpose."""
    dt = rnd.choice([0, 30, 150, 400, 1200])
    roll = rnd.random()
    if not humans or roll < 0.15:
        return dt, "deadline", None, None
    if roll < 0.2:
        return dt, "tick", None, None
    seat = rnd.choice(humans) if rnd.random() < 0.97 else 999
    seen = view(state, seat) if seat in state.players else {}
    if rnd.random() < 0.75 and seen:
        if seen["you_can_out"] and rnd.random() < 0.5:
            return dt, "act", seat, {"kind": "out"}
        if seen["playable"] and rnd.random() < 0.7:
            return dt, "act", seat, _play_action(rnd, seen)
        if seen["you_can_extra"]:
            return dt, "act", seat, {"kind": "extra"}
        return dt, "act", seat, {"kind": "turn"}
    blind = {
        "kind": "play",
        "source": rnd.choice(["tableau", "waste"]),
        "card": rnd.randint(0, 6),
        "pile": rnd.randint(-1, 8),
        "pile_size": rnd.randint(-1, 14),
        "rt_ms": rnd.randint(0, 3000),
        "rtt_ms": rnd.randint(0, 200),
    }
    action = rnd.choice(
        [blind, blind, {"kind": "turn"}, {"kind": "out"}, {"kind": "extra"}, rnd.choice(JUNK)]
    )
    return dt, "act", seat, action


def _well_formed(pile: list[Card]) -> bool:
    """START, then 2..n of one colour ascending, then (only after a 12) maybe a STOP."""
    if not pile or not pile[0].is_start:
        return False
    numbers = pile[1:]
    if numbers and numbers[-1].is_stop:
        numbers = numbers[:-1]
        if len(numbers) != HIGHEST - 1:
            return False
    colour = numbers[0].colour if numbers else None
    return all(
        card.kind == "number" and card.colour == colour and card.number == k + 2
        for k, card in enumerate(numbers)
    )


@functools.cache
def _deck_of_table(seats: tuple[int, ...]) -> Counter[Card]:
    return original_cards(seats)


def _check_invariants(state: State, seats: list[int]) -> None:
    # Every card of every player is in exactly one place: 52 per player.
    cards = where_cards_are(state)
    assert cards == _deck_of_table(tuple(seats))
    assert sum(cards.values()) == 52 * len(seats)
    assert all(_well_formed(pile) for pile in state.centre)
    for seat in seats:
        player = state.players[seat]
        assert len(player.tableau) <= MAX_TABLEAU
        if player.refill:
            assert len(player.tableau) >= TABLEAU_SIZE
        if state.phase == "playing":
            assert not any(card.is_start for card in player.tableau)
        rows = [row for row in state.rounds if row["seat"] == seat]
        assert player.total == sum(row["round_score"] for row in rows)
        running = 0
        for row in rows:
            running += row["round_score"]
            assert row["total"] == running
            assert row["round_score"] == (
                row["centre_cards"] - 2 * row["refill_left"] + row["out_bonus"]
            )
    scored = state.round if state.phase in ("round_over", "game_over") else state.round - 1
    assert len(state.rounds) == len(seats) * scored
    for viewer in (None, *seats):
        json.dumps(view(state, viewer))


def _check_trials(outcome: Any, seats: list[int], bots: dict[int, BotSkill]) -> None:
    for trial in outcome.trials:
        data = trial.data
        assert trial.seat in seats
        assert trial.seat not in bots
        assert trial.kind == "commotion.play"
        assert data["bot"] is False
        if data["target"]:
            assert data["correct"] is data["responded"]
            assert data["outcome"] == ("spotted" if data["responded"] else "missed")
        elif data["target"] is None and data["responded"]:
            # The right card, tapped just after a rival's play closed it: right, but late.
            assert (data["correct"], data["outcome"]) == (True, "late")
        elif data["target"] is None:
            # A rival's play closed it first: neither right nor wrong.
            assert (data["responded"], data["correct"], data["outcome"]) == (False, None, "beaten")
        else:
            assert (data["responded"], data["correct"], data["outcome"]) == (True, False, "wrong")
        if not data["responded"]:
            assert data["rt_ms"] is None
        json.dumps(dict(data))


def _refusal_trials(trials: tuple[Trial, ...]) -> bool:
    # Only a misplay's false alarm, or a lost race's late (right) tap, rides on a refusal.
    def allowed(trial: Trial) -> bool:
        return trial.data["target"] is False or trial.data["outcome"] == "late"

    return all(allowed(trial) for trial in trials) and len(trials) <= 1


def _check(outcome: Outcome[State], table: Table) -> None:
    _config, seats, _seed, bots = table
    _check_trials(outcome, seats, bots)
    _check_invariants(outcome.state, seats)


PLAY = Play(
    tables=tables(),
    next_input=_next_input,
    examples=50,
    lengths=(30, 220),
    over=lambda state: state.phase == "game_over",
    refusal_trials=_refusal_trials,
    checker=lambda: _check,
    junk=tuple(JUNK),
)
