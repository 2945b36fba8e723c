"""Reading a player's input from the wire into a typed action, or a readable refusal.

Inputs arrive as plain JSON objects. Nothing here knows the game state: it only checks that
the input is one of the four kinds and that every field has the right type and a sane
range. Whether the move is allowed *now* is the rule engine's business. Extra keys are
ignored (the wire schema is checked strictly before the engine sees anything).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# Longest reaction / round-trip time worth reading at all; anything implausible below these
# is kept and flagged, anything above is not a real measurement.
MAX_RT_MS = 60_000
MAX_RTT_MS = 60_000
# More cards than anyone can hold (30 in a deck).
MAX_CARD_INDEX = 63


@dataclass(frozen=True)
class FlipAction:
    """The active player taps the deck."""


@dataclass(frozen=True)
class SlapAction:
    """A slap on flip number ``flip``, with the tablet-measured reaction time."""

    flip: int
    rt_ms: int
    rtt_ms: int


@dataclass(frozen=True)
class ChooseAction:
    """The slapper picks card ``card`` (an index into their own cards)."""

    card: int


@dataclass(frozen=True)
class ClaimAction:
    """Team mode: the public card of flip ``flip`` and centre card ``card`` (an index into the
    view's ``centre`` list), tapped."""

    flip: int
    card: int
    rt_ms: int
    rtt_ms: int


Action = FlipAction | SlapAction | ChooseAction | ClaimAction

_LABELS = {
    "flip": "card number of the flip",
    "card": "card number",
    "rt_ms": "reaction time",
    "rtt_ms": "round-trip time",
}


class _Refusal(Exception):
    """An input that cannot be read; the message is what the player sees."""


def _whole(raw: Mapping[str, Any], name: str, low: int, high: int) -> int:
    label = _LABELS[name]
    if name not in raw:
        raise _Refusal(f"The {label} is missing.")
    value = raw[name]
    # JSON true/false would pass as int in Python; they are not numbers here.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Refusal(f"The {label} must be a whole number.")
    if not low <= value <= high:
        raise _Refusal(f"The {label} is out of range.")
    return value


def parse_action(raw: object) -> Action | str:
    """The action ``raw`` describes, or a short sentence saying why it cannot be read."""
    if not isinstance(raw, Mapping):
        return "That move could not be read."
    kind = raw.get("kind")
    try:
        if kind == "flip":
            return FlipAction()
        if kind == "slap":
            return SlapAction(
                flip=_whole(raw, "flip", 1, 10**9),
                rt_ms=_whole(raw, "rt_ms", 0, MAX_RT_MS),
                rtt_ms=_whole(raw, "rtt_ms", 0, MAX_RTT_MS),
            )
        if kind == "choose":
            return ChooseAction(card=_whole(raw, "card", 0, MAX_CARD_INDEX))
        if kind == "claim":
            return ClaimAction(
                flip=_whole(raw, "flip", 1, 10**9),
                card=_whole(raw, "card", 0, MAX_CARD_INDEX),
                rt_ms=_whole(raw, "rt_ms", 0, MAX_RT_MS),
                rtt_ms=_whole(raw, "rtt_ms", 0, MAX_RTT_MS),
            )
    except _Refusal as refusal:
        return str(refusal)
    return "That move is not part of this game."
