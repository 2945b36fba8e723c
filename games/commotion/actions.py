"""Reading a player's input from the wire into a typed action, or a readable refusal.

Inputs arrive as plain JSON objects. Nothing here knows the game state: it only checks that
the input is one of the four kinds and that every field has the right type and a sane
range. Whether the move is allowed *now* is the rule engine's business. Extra keys are
ignored (the wire schema is checked strictly before the engine sees anything).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from games.action_fields import ActionRefusal, FieldMessages
from games.core import gettext_noop

if TYPE_CHECKING:
    from games.commotion.state import Source

# Longest reaction / round-trip time worth reading at all.
MAX_RT_MS = 60_000
MAX_RTT_MS = 60_000
# More than any row (6 cards) or centre (6 players x 4 STARTs = 24 piles) can hold.
MAX_CARD_INDEX = 63
MAX_PILE_INDEX = 63
MAX_PILE_SIZE = 63


@dataclass(frozen=True)
class PlayAction:
    """Play a visible card onto centre pile ``pile`` (-1: begin a new pile with a START).

    ``pile_size`` is how many cards the tablet showed on that pile (-1: not told), which
    tells a lost race from a wrong card. ``rt_ms`` is the tablet-measured time from the card
    becoming playable on the tablet to the tap (0: unknown).
    """

    source: Source
    card: int
    pile: int
    pile_size: int
    rt_ms: int
    rtt_ms: int


@dataclass(frozen=True)
class TurnAction:
    """Turn the stock (or, when it is used up, recycle the waste)."""


@dataclass(frozen=True)
class OutAction:
    """Call OUT: ends the round for everyone."""


@dataclass(frozen=True)
class ExtraAction:
    """The all-stuck rule: take one more refill card into the row."""


Action = PlayAction | TurnAction | OutAction | ExtraAction

# Whole constant sentences (not templates), so each is found and translated as it stands.
_MISSING = {
    "card": gettext_noop("The card number is missing."),
    "pile": gettext_noop("The pile number is missing."),
    "pile_size": gettext_noop("The pile size is missing."),
    "rt_ms": gettext_noop("The reaction time is missing."),
    "rtt_ms": gettext_noop("The round-trip time is missing."),
}
_NOT_WHOLE = {
    "card": gettext_noop("The card number must be a whole number."),
    "pile": gettext_noop("The pile number must be a whole number."),
    "pile_size": gettext_noop("The pile size must be a whole number."),
    "rt_ms": gettext_noop("The reaction time must be a whole number."),
    "rtt_ms": gettext_noop("The round-trip time must be a whole number."),
}
_OUT_OF_RANGE = {
    "card": gettext_noop("The card number is out of range."),
    "pile": gettext_noop("The pile number is out of range."),
    "pile_size": gettext_noop("The pile size is out of range."),
    "rt_ms": gettext_noop("The reaction time is out of range."),
    "rtt_ms": gettext_noop("The round-trip time is out of range."),
}


_whole = FieldMessages(missing=_MISSING, not_whole=_NOT_WHOLE, out_of_range=_OUT_OF_RANGE).whole


def _play(raw: Mapping[str, Any]) -> PlayAction:
    source = raw.get("source")
    if source not in ("tableau", "waste"):
        raise ActionRefusal(gettext_noop("Say whether the card comes from your row or your waste."))
    # The waste has one playable card, so its number is ignored (and may be left out).
    card = _whole(raw, "card", 0, MAX_CARD_INDEX, None if source == "tableau" else 0)
    pile = _whole(raw, "pile", -1, MAX_PILE_INDEX, None)
    return PlayAction(
        source="tableau" if source == "tableau" else "waste",
        card=card if source == "tableau" else 0,
        pile=pile,
        pile_size=_whole(raw, "pile_size", -1, MAX_PILE_SIZE, -1) if pile >= 0 else -1,
        rt_ms=_whole(raw, "rt_ms", 0, MAX_RT_MS, 0),
        rtt_ms=_whole(raw, "rtt_ms", 0, MAX_RTT_MS, 0),
    )


def parse_action(raw: object) -> Action | str:
    """The action ``raw`` describes, or a short sentence saying why it cannot be read."""
    if not isinstance(raw, Mapping):
        return gettext_noop("That move could not be read.")
    kind = raw.get("kind")
    try:
        if kind == "play":
            return _play(raw)
        if kind == "turn":
            return TurnAction()
        if kind == "out":
            return OutAction()
        if kind == "extra":
            return ExtraAction()
    except ActionRefusal as refusal:
        return str(refusal)
    return gettext_noop("That move is not part of this game.")
