"""can_play: every pile rule, allowed and refused, as one table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from games.commotion.piles import is_closed, next_number, pile_colour, piles_for, wants
from games.commotion.rules import can_play
from tests.games.commotion.support import n, pile, start, stop

if TYPE_CHECKING:
    from games.commotion.cards import Card

RED_5 = pile(1, "red", 5)
BLUE_12 = pile(2, "blue", 12)
CLOSED = [*pile(1, "green", 12), stop(3)]

CASES: list[tuple[str, Card, list[Card], bool]] = [
    # An empty pile: only a START begins one.
    ("empty + START", start(1), [], True),
    ("empty + 2", n(1, "red", 2), [], False),
    ("empty + STOP", stop(1), [], False),
    # On a START: a 2 of any colour, any owner; nothing else.
    ("START + red 2", n(1, "red", 2), [start(2)], True),
    ("START + yellow 2 of another owner", n(3, "yellow", 2), [start(2)], True),
    ("START + 3", n(1, "red", 3), [start(1)], False),
    ("START + START", start(1), [start(1)], False),
    ("START + STOP", stop(1), [start(1)], False),
    # On a number n < 12: the next number in the pile's colour.
    ("red 5 + red 6", n(1, "red", 6), RED_5, True),
    ("red 5 + red 6 of another owner", n(4, "red", 6), RED_5, True),
    ("red 5 + blue 6", n(1, "blue", 6), RED_5, False),
    ("red 5 + red 7", n(1, "red", 7), RED_5, False),
    ("red 5 + red 5", n(2, "red", 5), RED_5, False),
    ("red 5 + red 4", n(1, "red", 4), RED_5, False),
    ("red 5 + STOP", stop(1), RED_5, False),
    ("red 5 + START", start(1), RED_5, False),
    ("red 2 + red 3", n(1, "red", 3), pile(1, "red", 2), True),
    ("red 2 + red 2", n(2, "red", 2), pile(1, "red", 2), False),
    ("blue 11 + blue 12", n(1, "blue", 12), pile(2, "blue", 11), True),
    # On a 12: only a STOP.
    ("blue 12 + STOP", stop(1), BLUE_12, True),
    ("blue 12 + STOP of another owner", stop(5), BLUE_12, True),
    ("blue 12 + blue 12", n(1, "blue", 12), BLUE_12, False),
    ("blue 12 + red 2", n(1, "red", 2), BLUE_12, False),
    ("blue 12 + START", start(1), BLUE_12, False),
    # A closed pile takes nothing.
    ("closed + STOP", stop(1), CLOSED, False),
    ("closed + START", start(1), CLOSED, False),
    ("closed + 2", n(1, "green", 2), CLOSED, False),
]


@pytest.mark.parametrize(
    ("card", "cards", "allowed"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_can_play(card: Card, cards: list[Card], allowed: bool) -> None:
    assert can_play(card, cards) is allowed
    assert can_play(card, tuple(cards)) is allowed


@pytest.mark.parametrize(
    ("cards", "need", "number", "colour", "closed"),
    [
        ([], "start", None, None, False),
        ([start(1)], "two", 2, None, False),
        (RED_5, "number", 6, "red", False),
        (BLUE_12, "stop", None, "blue", False),
        (CLOSED, "none", None, "green", True),
    ],
)
def test_what_a_pile_wants(
    cards: list[Card], need: str, number: int | None, colour: str | None, closed: bool
) -> None:
    assert wants(cards) == need
    assert next_number(cards) == number
    assert pile_colour(cards) == colour
    assert is_closed(cards) is closed


def test_piles_for_lists_every_fitting_pile() -> None:
    centre = [RED_5, [start(2)], BLUE_12, pile(3, "red", 5), CLOSED]
    assert piles_for(n(1, "red", 6), centre) == [0, 3]
    assert piles_for(n(1, "green", 2), centre) == [1]
    assert piles_for(stop(1), centre) == [2]
    assert piles_for(n(1, "yellow", 9), centre) == []
    # A START always begins a new pile, and never goes on one.
    assert piles_for(start(1), centre) == [-1]
