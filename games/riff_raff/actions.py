"""Riff Raff's player inputs, declared once: the wire decodes a tablet's frame into these
Structs and the engine reads plain dicts into them (``ACTIONS.read``), refusing what cannot be
read with a sentence. Whether the move is allowed *now* is the engine's business.

* ``{"kind": "choose_card", "card": 1..10}``
* ``{"kind": "pick_captain", "seat": s}`` (the last captain settles a tie for captain)
* ``{"kind": "order", "seats": [s, ...]}`` (the captain: these tied seats go first, in order)
* ``{"kind": "declare", "pieces": 1 | 2}``
* ``{"kind": "drop", "piece": id, "x": ship x, "y": ship y, "angle": radians}`` (``piece``
  may be left out: the first piece of the supply; ``y``, the release height, may be left
  out; ``angle`` defaults to 0, flat on the deck)
* ``{"kind": "catch", "piece": id, "rt_ms": ms, "rtt_ms": ms}`` (``rt_ms`` from the first
  frame the tablet drew the piece falling to the tap; 0: unknown. A tablet must send it; a
  plain dict may leave it out)
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

from games.engine.actions import ActionSchema, FieldRefusals, GameAction, ReactionMs, RoundTripMs
from games.engine.cards import CARD_REFUSALS
from games.engine.translation import gettext_noop

CardNumber = Annotated[int, msgspec.Meta(ge=1, le=10)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=15)]
PieceId = Annotated[int, msgspec.Meta(ge=0, le=9_999)]
# Ship coordinates in cm (the ship is about 120 wide) and radians.
ShipX = Annotated[float, msgspec.Meta(ge=-500.0, le=500.0)]
Angle = Annotated[float, msgspec.Meta(ge=-7.0, le=7.0)]


class ChooseCard(GameAction, tag="choose_card"):
    card: CardNumber


class PickCaptain(GameAction, tag="pick_captain"):
    seat: SeatNumber


class Order(GameAction, tag="order"):
    seats: Annotated[list[SeatNumber], msgspec.Meta(min_length=1, max_length=16)]


class Declare(GameAction, tag="declare"):
    pieces: Literal[1, 2]


class Drop(GameAction, tag="drop", kw_only=True):
    """Release ``piece`` (left out: the supply's first) over the area at ship x ``x``, turned
    ``angle`` radians from the deck."""

    piece: PieceId | UnsetType = UNSET
    x: ShipX
    angle: Angle = 0.0
    # The release height in ship coordinates, when the tablet says it (bots do not): checked
    # against the area's height, since areas 5, 7 and 9 share x ranges.
    y: ShipX | None = None

    @property
    def piece_id(self) -> int | None:
        """The piece named, or None for the supply's first."""
        return self.piece if isinstance(self.piece, int) else None


class Catch(GameAction, tag="catch"):
    piece: PieceId
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0

    plain_defaults = {"rt_ms": 0}


Action = ChooseCard | PickCaptain | Order | Declare | Drop | Catch

_ON_THE_SHIP = gettext_noop("The drop point must be a number on the ship.")


def _finish(action: Action) -> Action | str:
    if isinstance(action, Order) and len(set(action.seats)) != len(action.seats):
        return gettext_noop("A player is named twice.")
    return action


ACTIONS: ActionSchema[Action] = ActionSchema(
    kinds=(ChooseCard, PickCaptain, Order, Declare, Drop, Catch),
    refusals={
        "card": dataclasses.replace(
            CARD_REFUSALS, out_of_range=gettext_noop("Cards go from 1 to 10.")
        ),
        "seat": FieldRefusals(
            missing=gettext_noop("The seat is missing."),
            wrong=gettext_noop("The seat must be a whole number."),
            out_of_range=gettext_noop("There is no such seat."),
        ),
        "seats": FieldRefusals.one(gettext_noop("Name the tied players who go first.")),
        "pieces": FieldRefusals.one(gettext_noop("Say whether you place 1 or 2 pieces.")),
        "piece": FieldRefusals(
            missing=gettext_noop("The cargo piece is missing."),
            wrong=gettext_noop("The cargo piece must be a whole number."),
            out_of_range=gettext_noop("There is no such cargo piece."),
        ),
        "x": FieldRefusals.one(_ON_THE_SHIP, missing=gettext_noop("The drop point is missing.")),
        "y": FieldRefusals.one(_ON_THE_SHIP),
        "angle": FieldRefusals.one(gettext_noop("The angle must be a number of radians.")),
    },
    finish=_finish,
)


def parse_action(raw: object) -> Action | str:
    """The action ``raw`` describes, or a short sentence saying why it cannot be read."""
    return ACTIONS.read(raw)
