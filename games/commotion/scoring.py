"""Scoring a round and ending the game (RULES.md §2 "Scoring per round", "Game end").

Per round and seat: +1 for each of the seat's cards (by owner) in the centre, -2 for each
card left in its refill pile, plus the OUT bonus for the player who called OUT: +5 in round
1, from round 2 on the roll of an eight-sided die (drawn from the table's generator). A round
that ended without an OUT (the stall rule) has no bonus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import random
    from collections.abc import Mapping, Sequence

    from games.commotion.cards import Card
    from games.commotion.state import State

CENTRE_POINTS = 1
REFILL_PENALTY = 2
FIRST_ROUND_OUT_BONUS = 5
DIE_SIDES = 8

# The keys of one per-round score row, in the order views list them.
ROW_KEYS = ("round", "seat", "centre_cards", "refill_left", "out_bonus", "round_score", "total")


def out_bonus(round_number: int, rng: random.Random) -> int:
    """The OUT caller's bonus: 5 in round 1, then a d8."""
    if round_number <= 1:
        return FIRST_ROUND_OUT_BONUS
    return rng.randint(1, DIE_SIDES)


def centre_counts(centre: Sequence[Sequence[Card]]) -> dict[int, int]:
    """Cards in the centre per owner."""
    counts: dict[int, int] = {}
    for pile in centre:
        for card in pile:
            counts[card.owner] = counts.get(card.owner, 0) + 1
    return counts


def score_round(state: State, out_by: int | None, bonus: int) -> list[dict[str, int]]:
    """Score the round just ended into every seat's total; the rows for ``state.rounds``."""
    counts = centre_counts(state.centre)
    rows = []
    for seat in state.seats:
        player = state.players[seat]
        centre_cards = counts.get(seat, 0)
        refill_left = len(player.refill)
        seat_bonus = bonus if seat == out_by else 0
        round_score = CENTRE_POINTS * centre_cards - REFILL_PENALTY * refill_left + seat_bonus
        player.total += round_score
        rows.append(
            {
                "round": state.round,
                "seat": seat,
                "centre_cards": centre_cards,
                "refill_left": refill_left,
                "out_bonus": seat_bonus,
                "round_score": round_score,
                "total": player.total,
            }
        )
    return rows


def reached_target(totals: Mapping[int, int], target: int) -> bool:
    return any(total >= target for total in totals.values())


def leaders(totals: Mapping[int, int]) -> list[int]:
    """The seats with the highest total (all of them on a tie), in seat order."""
    best = max(totals.values())
    return [seat for seat, total in totals.items() if total == best]
