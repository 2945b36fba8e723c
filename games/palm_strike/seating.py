"""Who sits where, and which matches on the table count for whom (the slap-scope variants).

Seats are listed clockwise. Play passes clockwise, so a seat's *left* neighbour is the next
seat in the list and its *right* neighbour the previous one, wrapping round the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.palm_strike.matching import cards_match

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.palm_strike.cards import Card


def next_seat(seats: Sequence[int], seat: int) -> int:
    """The seat after ``seat``, clockwise."""
    return seats[(seats.index(seat) + 1) % len(seats)]


def neighbours(seats: Sequence[int], seat: int) -> tuple[int, int]:
    """(left, right) neighbours of ``seat``; at a table of two both are the other player."""
    i = seats.index(seat)
    return seats[(i + 1) % len(seats)], seats[(i - 1) % len(seats)]


def clockwise_others(seats: Sequence[int], seat: int) -> list[int]:
    """Every other seat, clockwise starting after ``seat``."""
    i = seats.index(seat)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats))]


@dataclass(frozen=True)
class Judgement:
    """What a slap by one seat would find on the table, within that seat's scope."""

    own: bool
    # Other seats with a matching card, clockwise from the slapper.
    others: tuple[int, ...]

    @property
    def any(self) -> bool:
        return self.own or bool(self.others)


def judge(
    scope: str,
    seats: Sequence[int],
    table: Mapping[int, Sequence[Card]],
    flipped: Card,
    level: str,
    seat: int,
) -> Judgement:
    """The matches that count for ``seat`` under slap scope ``scope``.

    any: own and every other seat's cards; own (A): only your cards; others (B): only other
    players' cards; neighbours (C): only your left and right neighbours' cards.
    """

    def has_match(who: int) -> bool:
        return any(cards_match(flipped, card, level) for card in table.get(who, ()))

    own_counts = scope in ("any", "own")
    if scope in ("any", "others"):
        candidates = clockwise_others(seats, seat)
    elif scope == "neighbours":
        near = set(neighbours(seats, seat)) - {seat}
        candidates = [other for other in clockwise_others(seats, seat) if other in near]
    else:
        candidates = []
    return Judgement(
        own=own_counts and has_match(seat),
        others=tuple(other for other in candidates if has_match(other)),
    )
