"""Riff Raff's round rules that need no physics: the captain and the placing order.

RULES.md §3: everyone reveals a card at once; the highest card is the captain of the round
(a tie for highest: the previous captain decides); players place in descending card order,
and ties are settled by the captain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.riff_raff.config import Config


class TieUndecided(ValueError):
    """Seats hold the same card and nobody has said in which order they go."""

    def __init__(self, seats: Sequence[int]) -> None:
        super().__init__(f"seats {list(seats)} tie and need the captain's decision")
        self.seats = tuple(seats)


def _groups(cards: Mapping[int, int]) -> list[list[int]]:
    """Seats grouped by card, highest card first; each group in seat order."""
    by_card: dict[int, list[int]] = {}
    for seat in sorted(cards):
        by_card.setdefault(cards[seat], []).append(seat)
    return [by_card[card] for card in sorted(by_card, reverse=True)]


def placing_order(
    cards: Mapping[int, int], captain_choice: Sequence[int] | None = None
) -> list[int]:
    """Seats in placing order for a round: descending card; tied seats in the order the
    captain chose (``captain_choice`` lists seats, earlier first; seats it leaves out keep
    their place after those it names). Raises :class:`TieUndecided` when seats tie and
    ``captain_choice`` does not order them.
    """
    choice = list(captain_choice or [])
    order: list[int] = []
    for group in _groups(cards):
        if len(group) == 1:
            order.extend(group)
            continue
        named = [seat for seat in choice if seat in group]
        if len(named) < len(group) - 1:
            raise TieUndecided(group)
        order.extend(named + [seat for seat in group if seat not in named])
    return order


def highest_seats(cards: Mapping[int, int]) -> list[int]:
    """The seats that showed the highest card (more than one: the captaincy is a tie)."""
    return _groups(cards)[0] if cards else []


def captain_of(
    cards: Mapping[int, int], *, previous_captain: int | None, tie_pick: int | None = None
) -> int:
    """The round's captain: the highest card; on a tie, the seat ``tie_pick`` that the
    previous captain chose among the tied seats. Raises :class:`TieUndecided` when a tie is
    not (validly) decided; with no previous captain the caller decides (the teacher, or at
    random from the table's seeded generator).
    """
    top = highest_seats(cards)
    if len(top) == 1:
        return top[0]
    if tie_pick is None or tie_pick not in top:
        raise TieUndecided(top)
    return tie_pick


def first_captain(config: Config, seats: Sequence[int]) -> int:
    """The captain before round 1 (seed: 由年紀最長的玩家擔任首回合開始前的船長), who settles a
    round-1 tie for captain: the seat at the place the teacher set (``first_captain``, 1 is
    the first seat; a place beyond the table is its last seat)."""
    return seats[min(config.first_captain, len(seats)) - 1]
