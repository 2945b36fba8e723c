"""What one seat (or the teacher's screen) may see of a Riff Raff table, and the motion frame
the host streams between logged changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.riff_raff.captaincy import first_captain
from games.riff_raff.cargo import CARGO, outline
from games.riff_raff.ship import AREAS, ship_outline

if TYPE_CHECKING:
    from games.riff_raff.state import Piece, State


def frame(state: State) -> dict[str, Any]:
    """The motion frame the host streams between logged changes, the same for every seat:
    ``ship`` [x, y, angle] and ``pieces`` [[id, x, y, angle], ...] in world coordinates
    (see ``Ship.frame``), ``falling`` (ids catchable now), ``moving`` (the physics runs) and
    ``sim_ms`` (the game time the ship has reached)."""
    motion = state.ship.world().frame()
    return {
        "ship": motion["ship"],
        "pieces": motion["pieces"],
        "falling": [falling.piece.id for falling in state.falling],
        "moving": state.physics,
        "sim_ms": state.sim_ms,
    }


def _piece(piece: Piece) -> dict[str, Any]:
    return {"id": piece.id, "shape": piece.shape, "owner": piece.owner}


def _player_view(state: State, seat: int, mine: int | None) -> dict[str, Any]:
    player = state.players[seat]
    return {
        "seat": seat,
        "bot": seat in state.bots,
        "pieces_left": len(player.supply),
        # Your own supply piece by piece; everyone else's as a count.
        "supply": [_piece(p) for p in player.supply] if seat == mine else len(player.supply),
        "placed": player.placed,
        "cards_left": len(player.cards),
        # Played cards lie face up for everyone (seed: 棄牌堆 正面朝上), last on top.
        "played": list(player.played),
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready picture of the table for ``seat`` (None: teacher or projector).

    Secret: each seat's pick before all have picked (``chosen`` says only whether a seat has
    picked; ``your_card`` is your own), and the other seats' cards in hand and supplies
    beyond their counts. The ship, cargo and catch windows are the same for everyone.
    """
    mine = seat if seat is not None and seat in state.players else None
    area = state.area_of_turn()
    zone = AREAS[area].zone if area is not None else None
    return {
        "game": "riff_raff",
        "phase": state.phase,
        "round": state.round,
        "rounds_total": state.rounds_total,
        "you": seat,
        "captain": state.captain,
        # Captain before round 1 (the teacher's pick or the first seat): settles a round-1 tie.
        "first_captain": first_captain(state.config, state.seats),
        "tie_chooser": state.previous_captain if state.phase == "captain_tie" else None,
        "tied": list(state.tied) if state.phase in ("captain_tie", "order_tie") else [],
        "order": list(state.order),
        "active": state.active,
        "area": area,
        "cards_left": sorted(state.players[mine].cards) if mine is not None else None,
        "your_card": state.chosen.get(mine) if mine is not None else None,
        "chosen": {str(s): s in state.chosen for s in state.seats},
        "revealed": (
            {str(s): card for s, card in sorted(state.revealed.items())}
            if state.revealed is not None
            else None
        ),
        "declared": state.declared,
        "to_place": state.to_place if state.active is not None else 0,
        "players": [_player_view(state, s, mine) for s in state.seats],
        "drop_zone": (
            {"area": zone.area, "x_min": zone.x_min, "x_max": zone.x_max, "y": zone.y}
            if zone is not None
            else None
        ),
        "catchable": [
            {"piece": f.piece.id, "left_ms": f.left_ms, "until_ms": f.until_ms}
            for f in state.falling
        ],
        "pieces": {str(p.id): {"shape": p.shape, "owner": p.owner} for p in state.cargo.values()},
        "shapes": {name: outline(name) for name in CARGO},
        "ship": ship_outline(),
        "frame": frame(state),
        "winners": list(state.winners) if state.winners is not None else None,
        "end_reason": state.end_reason,
    }
