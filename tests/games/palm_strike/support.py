"""Helpers for Palm Strike engine tests: arranged tables and short ways to play."""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING, Any

from games.palm_strike.cards import PlayerCard, PublicCard, player_deck, public_deck
from games.palm_strike.rules import act, setup, tick

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.contract import Outcome
    from games.palm_strike.bots import BotSkill
    from games.palm_strike.cards import Card
    from games.palm_strike.config import Config
    from games.palm_strike.state import State

# Named cards. The public card Q_RY matches RY at every level and nothing with green or
# purple in it; Q_NONE (red / blue / blue) matches only red-blue cards, which no test uses.
RY = PlayerCard("red", "yellow", "cat")
RY2 = PlayerCard("red", "yellow", "fish")
YR = PlayerCard("yellow", "red", "bird")
GP = PlayerCard("green", "purple", "fish")
PG = PlayerCard("purple", "green", "bird")
GB = PlayerCard("green", "blue", "star")
BG = PlayerCard("blue", "green", "leaf")
PB = PlayerCard("purple", "blue", "apple")
Q_RY = PublicCard(bg="blue", word="yellow", ink="red")
Q_NONE = PublicCard(bg="red", word="blue", ink="blue")
Q_GP = PublicCard(bg="blue", word="purple", ink="green")
# Deck-swap material: orange cards in front of players, white cards flipped.
O_RY = PublicCard(bg="green", word="yellow", ink="red")
O_NONE = PublicCard(bg="yellow", word="blue", ink="blue")

FILLER = [GB, BG, PB, PG, GP]


def arranged(
    config: Config,
    hands: Mapping[int, Sequence[Card]],
    flips: Sequence[Card],
    *,
    deck: Sequence[Card] = FILLER,
    centre: Sequence[Card | None] = (),
    bots: Mapping[int, BotSkill] | None = None,
    active: int | None = None,
    seed: int = 7,
) -> State:
    """A started table whose hands, next flips and player deck are exactly as given.

    Cards are placed by hand, so the 60-card conservation does not hold on such tables.
    """
    seats = list(hands)
    state = setup(config, seats, seed, bots)
    state.hands = {seat: list(cards) for seat, cards in hands.items()}
    state.flip_deck = [*flips, Q_NONE, Q_NONE, Q_NONE]
    state.discard = []
    state.player_deck = list(deck)
    state.centre = list(centre)
    state.started = True
    state.next_flip_ms = None
    if config.flip_pacing == "tap":
        state.active_seat = seats[0] if active is None else active
    return state


def accepted(outcome: Outcome[State]) -> State:
    assert outcome.rejected is None, outcome.rejected
    return outcome.state


def flip(state: State, seat: int, now: int) -> State:
    return accepted(act(state, seat, {"kind": "flip"}, now))


def slap(
    state: State, seat: int, now: int, *, rt: int = 400, rtt: int = 40, number: int | None = None
) -> State:
    action = {"kind": "slap", "flip": number or state.flips, "rt_ms": rt, "rtt_ms": rtt}
    return accepted(act(state, seat, action, now))


def claim(state: State, seat: int, place: int, now: int, *, rt: int = 400, rtt: int = 40) -> State:
    action = {"kind": "claim", "flip": state.flips, "card": place, "rt_ms": rt, "rtt_ms": rtt}
    return accepted(act(state, seat, action, now))


def choose(state: State, seat: int, card: int, now: int) -> State:
    return accepted(act(state, seat, {"kind": "choose", "card": card}, now))


def advance(state: State, now: int) -> tuple[State, list[Any], list[Any]]:
    """Tick at ``now``; the new state with the events and trials it produced."""
    outcome = tick(state, now)
    assert outcome.rejected is None
    return outcome.state, list(outcome.events), list(outcome.trials)


def original_decks(config: Config, seed: int) -> tuple[Counter[Card], Counter[Card]]:
    """(dealt deck, flipped deck) as multisets, exactly as setup draws them."""
    rng = random.Random(seed)
    white: list[Card] = list(player_deck(rng))
    orange: list[Card] = list(public_deck(rng, swap=config.deck_swap))
    if config.deck_swap:
        return Counter(orange), Counter(white)
    return Counter(white), Counter(orange)


def where_cards_are(state: State) -> tuple[Counter[Card], Counter[Card]]:
    """(cards of the dealt deck, cards of the flipped deck) wherever they now are."""
    dealt: Counter[Card] = Counter(state.player_deck)
    for cards in state.hands.values():
        dealt.update(cards)
    dealt.update(card for card in state.centre if card is not None)
    flipped: Counter[Card] = Counter(state.flip_deck)
    flipped.update(state.discard)
    return dealt, flipped


def is_public(card: Card) -> bool:
    return isinstance(card, PublicCard)
