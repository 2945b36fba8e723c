"""Reading a player's input from the wire into a typed action, or a readable refusal.

Inputs arrive as plain JSON objects (``games.live.protocol`` checks them strictly first).
Nothing here knows the game state: it only checks that the input is one of the six kinds and
that every field has the right type and a sane range. Whether the move is allowed *now* is
the engine's business. Extra keys are ignored.

* ``{"kind": "choose_card", "card": 1..10}``
* ``{"kind": "pick_captain", "seat": s}`` (the last captain settles a tie for captain)
* ``{"kind": "order", "seats": [s, ...]}`` (the captain: these tied seats go first, in order)
* ``{"kind": "declare", "pieces": 1 | 2}``
* ``{"kind": "drop", "piece": id, "x": ship x, "y": ship y, "angle": radians}`` (``piece``
  may be left out: the first piece of the supply; ``y``, the release height, may be left
  out; ``angle`` defaults to 0, flat on the deck)
* ``{"kind": "catch", "piece": id, "rt_ms": ms, "rtt_ms": ms}`` (``rt_ms`` from the first
  frame the tablet drew the piece falling to the tap; 0 or missing: unknown)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.action_fields import ActionRefusal, FieldMessages
from games.core import gettext_noop

MAX_RT_MS = 60_000
MAX_RTT_MS = 60_000
MAX_PIECE_ID = 9_999
MAX_SEAT = 9_999
MAX_ORDER_SEATS = 16
# Ship coordinates in cm (the ship is about 120 wide) and radians, as the wire allows.
MAX_ABS_X = 500.0
MAX_ABS_ANGLE = 7.0


@dataclass(frozen=True)
class ChooseCard:
    card: int


@dataclass(frozen=True)
class PickCaptain:
    seat: int


@dataclass(frozen=True)
class Order:
    seats: tuple[int, ...]


@dataclass(frozen=True)
class Declare:
    pieces: int


@dataclass(frozen=True)
class Drop:
    """Release ``piece`` (None: the supply's first) over the area at ship x ``x``, turned
    ``angle`` radians from the deck."""

    piece: int | None
    x: float
    angle: float
    # The release height in ship coordinates, when the tablet says it (bots do not): checked
    # against the area's height, since areas 5, 7 and 9 share x ranges.
    y: float | None = None


@dataclass(frozen=True)
class Catch:
    piece: int
    rt_ms: int
    rtt_ms: int


Action = ChooseCard | PickCaptain | Order | Declare | Drop | Catch

# Whole constant sentences (not templates), so each is found and translated as it stands.
_MISSING = {
    "card": gettext_noop("The card number is missing."),
    "seat": gettext_noop("The seat is missing."),
    "pieces": gettext_noop("Say whether you place 1 or 2 pieces."),
    "piece": gettext_noop("The cargo piece is missing."),
    "x": gettext_noop("The drop point is missing."),
}
_NOT_WHOLE = {
    "card": gettext_noop("The card number must be a whole number."),
    "seat": gettext_noop("The seat must be a whole number."),
    "pieces": gettext_noop("Say whether you place 1 or 2 pieces."),
    "piece": gettext_noop("The cargo piece must be a whole number."),
    "rt_ms": gettext_noop("The reaction time must be a whole number."),
    "rtt_ms": gettext_noop("The round-trip time must be a whole number."),
}
_OUT_OF_RANGE = {
    "card": gettext_noop("Cards go from 1 to 10."),
    "seat": gettext_noop("There is no such seat."),
    "pieces": gettext_noop("Say whether you place 1 or 2 pieces."),
    "piece": gettext_noop("There is no such cargo piece."),
    "rt_ms": gettext_noop("The reaction time is out of range."),
    "rtt_ms": gettext_noop("The round-trip time is out of range."),
}


_whole = FieldMessages(missing=_MISSING, not_whole=_NOT_WHOLE, out_of_range=_OUT_OF_RANGE).whole


def _number(value: Any, limit: float, bad: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ActionRefusal(bad)
    number = float(value)
    if not math.isfinite(number) or abs(number) > limit:
        raise ActionRefusal(bad)
    return number


def _order(raw: Mapping[str, Any]) -> Order:
    seats = raw.get("seats")
    bad = gettext_noop("Name the tied players who go first.")
    if not isinstance(seats, list | tuple) or not 1 <= len(seats) <= MAX_ORDER_SEATS:
        raise ActionRefusal(bad)
    if any(isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= MAX_SEAT for s in seats):
        raise ActionRefusal(bad)
    if len(set(seats)) != len(seats):
        raise ActionRefusal(gettext_noop("A player is named twice."))
    return Order(tuple(seats))


def _drop(raw: Mapping[str, Any]) -> Drop:
    piece = _whole(raw, "piece", 0, MAX_PIECE_ID, None) if raw.get("piece") is not None else None
    if raw.get("x") is None:
        raise ActionRefusal(_MISSING["x"])
    x = _number(raw["x"], MAX_ABS_X, gettext_noop("The drop point must be a number on the ship."))
    angle_raw = raw.get("angle")
    angle = (
        0.0
        if angle_raw is None
        else _number(
            angle_raw, MAX_ABS_ANGLE, gettext_noop("The angle must be a number of radians.")
        )
    )
    y_raw = raw.get("y")
    y = (
        None
        if y_raw is None
        else _number(y_raw, MAX_ABS_X, gettext_noop("The drop point must be a number on the ship."))
    )
    return Drop(piece=piece, x=x, angle=angle, y=y)


def parse_action(raw: object) -> Action | str:
    """The action ``raw`` describes, or a short sentence saying why it cannot be read."""
    if not isinstance(raw, Mapping):
        return gettext_noop("That move could not be read.")
    kind = raw.get("kind")
    try:
        if kind == "choose_card":
            return ChooseCard(_whole(raw, "card", 1, 10, None))
        if kind == "pick_captain":
            return PickCaptain(_whole(raw, "seat", 0, MAX_SEAT, None))
        if kind == "order":
            return _order(raw)
        if kind == "declare":
            return Declare(_whole(raw, "pieces", 1, 2, None))
        if kind == "drop":
            return _drop(raw)
        if kind == "catch":
            return Catch(
                piece=_whole(raw, "piece", 0, MAX_PIECE_ID, None),
                rt_ms=_whole(raw, "rt_ms", 0, MAX_RT_MS, 0),
                rtt_ms=_whole(raw, "rtt_ms", 0, MAX_RTT_MS, 0),
            )
    except ActionRefusal as refusal:
        return str(refusal)
    return gettext_noop("That move is not part of this game.")
