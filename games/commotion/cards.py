"""Commotion's cards (RULES.md §2 "Cards") and their plain JSON form.

Every player owns a 52-card deck with its own back colour: the numbers 2 to 12 in each of
four face colours, four START cards and four STOP cards. A card remembers its owner (the
seat whose deck it came from) because scoring counts each player's cards in the centre.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    from collections.abc import Mapping

COLOURS = ("red", "blue", "green", "yellow")
NUMBERS = tuple(range(2, 13))
LOWEST, HIGHEST = NUMBERS[0], NUMBERS[-1]
SPECIALS_PER_DECK = 4
DECK_SIZE = len(COLOURS) * len(NUMBERS) + 2 * SPECIALS_PER_DECK

Kind = Literal["number", "start", "stop"]
KINDS: tuple[Kind, ...] = ("number", "start", "stop")


@dataclass(frozen=True)
class Card:
    """One card: its owner's seat, its kind, and (number cards only) a face colour and number.

    The four START (and four STOP) cards of one deck are equal values: nothing in the rules
    tells them apart.
    """

    owner: int
    kind: Kind
    colour: str | None
    number: int | None

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        # Immutable value: copying game states need not copy cards.
        return self

    @property
    def is_start(self) -> bool:
        return self.kind == "start"

    @property
    def is_stop(self) -> bool:
        return self.kind == "stop"


def start_card(owner: int) -> Card:
    return Card(owner, "start", None, None)


def stop_card(owner: int) -> Card:
    return Card(owner, "stop", None, None)


def number_card(owner: int, colour: str, number: int) -> Card:
    return Card(owner, "number", colour, number)


def deck_for(owner: int) -> list[Card]:
    """The 52 cards of ``owner``'s deck, in a fixed order (shuffling is the caller's)."""
    deck = [number_card(owner, colour, number) for colour in COLOURS for number in NUMBERS]
    deck += [start_card(owner)] * SPECIALS_PER_DECK
    deck += [stop_card(owner)] * SPECIALS_PER_DECK
    return deck


def card_to_dict(card: Card) -> dict[str, Any]:
    """The JSON-ready form views, events and trials use."""
    return {"owner": card.owner, "kind": card.kind, "colour": card.colour, "number": card.number}


def card_from_dict(data: Mapping[str, Any]) -> Card:
    """The card a :func:`card_to_dict` dict describes; ValueError if it describes none."""
    owner, kind = data.get("owner"), data.get("kind")
    colour, number = data.get("colour"), data.get("number")
    if isinstance(owner, bool) or not isinstance(owner, int):
        raise ValueError(f"not a card owner: {owner!r}")
    if kind in ("start", "stop"):
        if colour is not None or number is not None:
            raise ValueError(f"a {kind} card has no colour or number")
        return Card(owner, cast("Kind", kind), None, None)
    if kind != "number":
        raise ValueError(f"not a card kind: {kind!r}")
    if colour not in COLOURS:
        raise ValueError(f"not a card colour: {colour!r}")
    if isinstance(number, bool) or number not in NUMBERS:
        raise ValueError(f"not a card number: {number!r}")
    assert isinstance(colour, str)
    assert isinstance(number, int)
    return number_card(owner, colour, number)
