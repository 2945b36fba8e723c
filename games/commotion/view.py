"""What one seat (or the teacher's screen) may see of a Commotion table.

Every row and every waste top is face up for everyone, as on a real table. The order and
contents of the stocks and refill piles never leave the engine (counts only), nor do the
cards under the waste tops and under the centre piles' tops, nor the random generator.
Views differ only in ``you`` and the ``you_*`` / ``playable`` hints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.commotion.cards import card_to_dict
from games.commotion.piles import is_closed, next_number, pile_colour, piles_for, wants
from games.commotion.tableau import can_extra, can_out, table_stuck, visible_cards

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.commotion.cards import Card
    from games.commotion.state import State


def _pile(pile: Sequence[Card]) -> dict[str, Any]:
    return {
        "cards": len(pile),
        "top": card_to_dict(pile[-1]),
        "colour": pile_colour(pile),
        "next": next_number(pile),
        "closed": is_closed(pile),
        "wants": wants(pile),
    }


def _player(state: State, seat: int) -> dict[str, Any]:
    """One seat as everyone sees it: the row and waste top face up, the rest as counts."""
    player = state.players[seat]
    return {
        "seat": seat,
        "tableau": [card_to_dict(card) for card in player.tableau],
        "waste_top": card_to_dict(player.waste[-1]) if player.waste else None,
        "waste": len(player.waste),
        "stock": len(player.stock),
        "refill": len(player.refill),
        "refill_size": state.config.refill_for(seat),
        "total": player.total,
        "can_out": can_out(state, seat),
        "bot": seat in state.bots,
    }


def _playable(state: State, seat: int | None) -> list[dict[str, Any]]:
    """``seat``'s cards that can go to the centre now, with the piles each fits."""
    if seat is None or seat not in state.players or state.phase != "playing":
        return []
    playable = []
    for source, index, card in visible_cards(state.players[seat]):
        piles = piles_for(card, state.centre)
        if piles:
            playable.append({"source": source, "card": index, "piles": piles})
    return playable


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready picture of the table for ``seat`` (None: teacher or projector)."""
    playing = state.phase == "playing"
    mine = seat if seat is not None and seat in state.players else None
    stuck = playing and table_stuck(state)
    return {
        "game": "commotion",
        "phase": state.phase,
        "round": state.round,
        "you": seat,
        "go_at_ms": state.go_at_ms if state.phase in ("countdown", "playing") else None,
        "next_round_at_ms": state.next_round_at_ms if state.phase == "round_over" else None,
        "now_hint": None,
        "stock_turn": state.config.stock_turn,
        "target_score": state.config.target_score,
        "centre": [_pile(pile) for pile in state.centre],
        "players": [_player(state, s) for s in state.seats],
        "you_can_out": mine is not None and can_out(state, mine),
        "you_can_extra": mine is not None and can_extra(state, mine),
        "stuck": stuck,
        "playable": _playable(state, mine),
        "rounds": [dict(row) for row in state.rounds],
        "out_by": state.out_by,
        "ended_by": state.ended_by,
        "winners": list(state.winners) if state.winners is not None else None,
    }
