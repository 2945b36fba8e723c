"""The shared centre piles (RULES.md §2 "Play"): which card may go on which pile.

A pile is a START, then a 2 of any face colour, then that colour ascending by one up to 12,
then a STOP that closes it. Piles are shared: anyone may play on any pile, whoever's cards
are in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from games.commotion.cards import COLOURS, HIGHEST, LOWEST

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.commotion.cards import Card

Wants = Literal["start", "two", "number", "stop", "none"]


def can_play(card: Card, pile: Sequence[Card]) -> bool:
    """Whether ``card`` may go on top of ``pile`` (an empty pile: only a START begins one)."""
    if not pile:
        return card.is_start
    top = pile[-1]
    if top.is_stop:
        return False  # closed
    if top.is_start:
        return card.kind == "number" and card.number == LOWEST
    assert top.number is not None
    if top.number >= HIGHEST:
        return card.is_stop
    return card.kind == "number" and card.colour == top.colour and card.number == top.number + 1


def wants(pile: Sequence[Card]) -> Wants:
    """What the pile takes next, in one word the UI can show."""
    if not pile:
        return "start"
    top = pile[-1]
    if top.is_stop:
        return "none"
    if top.is_start:
        return "two"
    assert top.number is not None
    return "stop" if top.number >= HIGHEST else "number"


def next_number(pile: Sequence[Card]) -> int | None:
    """The number the pile takes next, or None (it takes a START, a STOP or nothing)."""
    need = wants(pile)
    if need == "two":
        return LOWEST
    if need == "number":
        number = pile[-1].number
        assert number is not None
        return number + 1
    return None


def pile_colour(pile: Sequence[Card]) -> str | None:
    """The pile's colour, fixed by its 2; None while it holds only its START."""
    return pile[1].colour if len(pile) > 1 else None


def is_closed(pile: Sequence[Card]) -> bool:
    return bool(pile) and pile[-1].is_stop


# A card's face as openings list it: (colour, number), or (kind, 0) for START and STOP.
Face = tuple[str, int]


def face(card: Card) -> Face:
    if card.kind == "number":
        assert card.colour is not None
        assert card.number is not None
        return (card.colour, card.number)
    return (card.kind, 0)


def openings(centre: Sequence[Sequence[Card]]) -> frozenset[Face]:
    """Every face some centre pile takes now (a START, which begins its own pile, aside).

    The same answer as asking :func:`can_play` of every pile, computed once for a whole
    row: the engine asks "does anything fit anywhere" after every move.
    """
    faces: set[Face] = set()
    for pile in centre:
        need = wants(pile)
        if need == "two":
            faces.update((colour, LOWEST) for colour in COLOURS)
        elif need == "number":
            colour, number = pile[-1].colour, next_number(pile)
            assert colour is not None
            assert number is not None
            faces.add((colour, number))
        elif need == "stop":
            faces.add(("stop", 0))
    return frozenset(faces)


def fits_openings(card: Card, faces: frozenset[Face]) -> bool:
    return card.is_start or face(card) in faces


def piles_for(card: Card, centre: Sequence[Sequence[Card]]) -> list[int]:
    """Every pile index ``card`` fits on, with -1 (a new pile) for a START."""
    if card.is_start:
        return [-1]
    return [index for index, pile in enumerate(centre) if can_play(card, pile)]
