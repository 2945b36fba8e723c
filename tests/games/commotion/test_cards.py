"""The 52-card decks and the cards' plain JSON form."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from games.commotion.cards import (
    COLOURS,
    DECK_SIZE,
    NUMBERS,
    Card,
    card_from_dict,
    card_to_dict,
    deck_for,
)


@pytest.mark.parametrize("owner", [0, 3, 41])
def test_a_deck_has_fifty_two_cards_of_one_owner(owner: int) -> None:
    deck = deck_for(owner)
    assert len(deck) == DECK_SIZE == 52
    assert {card.owner for card in deck} == {owner}
    assert Counter(card.kind for card in deck) == {"number": 44, "start": 4, "stop": 4}


def test_every_colour_has_the_numbers_two_to_twelve_once() -> None:
    numbers = [card for card in deck_for(1) if card.kind == "number"]
    assert COLOURS == ("red", "blue", "green", "yellow")
    assert tuple(range(2, 13)) == NUMBERS
    assert Counter((card.colour, card.number) for card in numbers) == Counter(
        {(colour, number): 1 for colour in COLOURS for number in NUMBERS}
    )


def test_start_and_stop_cards_have_no_colour_or_number() -> None:
    specials = [card for card in deck_for(2) if card.kind != "number"]
    assert all(card.colour is None and card.number is None for card in specials)
    assert specials[0].is_start
    assert specials[-1].is_stop


def test_cards_are_immutable_values() -> None:
    card = deck_for(1)[0]
    with pytest.raises(FrozenInstanceError):
        card.number = 5  # type: ignore[misc]
    assert card == Card(card.owner, card.kind, card.colour, card.number)
    assert len({card, Card(card.owner, card.kind, card.colour, card.number)}) == 1
    # Same face, different owner: a different card.
    assert deck_for(1)[0] != deck_for(2)[0]


@pytest.mark.parametrize("owner", [0, 5])
def test_dict_round_trip(owner: int) -> None:
    for card in deck_for(owner):
        data = card_to_dict(card)
        assert set(data) == {"owner", "kind", "colour", "number"}
        assert card_from_dict(json.loads(json.dumps(data))) == card


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"owner": "1", "kind": "start", "colour": None, "number": None},
        {"owner": True, "kind": "start", "colour": None, "number": None},
        {"owner": 1, "kind": "joker", "colour": None, "number": None},
        {"owner": 1, "kind": "start", "colour": "red", "number": None},
        {"owner": 1, "kind": "stop", "colour": None, "number": 12},
        {"owner": 1, "kind": "number", "colour": "purple", "number": 5},
        {"owner": 1, "kind": "number", "colour": "red", "number": 1},
        {"owner": 1, "kind": "number", "colour": "red", "number": 13},
        {"owner": 1, "kind": "number", "colour": "red", "number": True},
        {"owner": 1, "kind": "number", "colour": None, "number": 4},
    ],
)
def test_card_from_dict_refuses_what_is_not_a_card(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=r"not a|has no"):
        card_from_dict(data)
