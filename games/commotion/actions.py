"""Commotion's player inputs, declared once: the wire decodes a tablet's frame into these
Structs and the engine reads plain dicts into them (``ACTIONS.read``), refusing what cannot be
read with a sentence. Whether the move is allowed *now* is the rules' business.

* ``{"kind": "play", "source": "tableau" | "waste", "card": i, "pile": p, "pile_size": n,
  "rt_ms": ms, "rtt_ms": ms}`` (``card`` may be left out for the waste, whose one playable
  card needs no number; ``pile`` -1 begins a new pile with a START)
* ``{"kind": "turn"}``, ``{"kind": "out"}``, ``{"kind": "extra"}``
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import UNSET, UnsetType

from games.commotion.state import Source
from games.engine.actions import ActionSchema, FieldRefusals, GameAction, ReactionMs, RoundTripMs
from games.engine.cards import CARD_REFUSALS, CardIndex
from games.engine.translation import gettext_noop

# An index into the view's centre list (-1: a new pile), and how many cards the tablet showed
# on it (-1: not told), as the wire takes them ...
PileIndex = Annotated[int, msgspec.Meta(ge=-1, le=511)]
PileSize = Annotated[int, msgspec.Meta(ge=-1, le=64)]
# ... and as far as the engine reads them: more than a centre (6 players x 4 STARTs = 24
# piles) or a pile (START, 2..12, STOP) ever holds.
MAX_PILE_INDEX = 63
MAX_PILE_SIZE = 63


class PlayAction(GameAction, tag="play", kw_only=True):
    """Play a visible card onto centre pile ``pile`` (-1: begin a new pile with a START).

    ``pile_size`` is how many cards the tablet showed on that pile (-1: not told), which
    tells a lost race from a wrong card. ``rt_ms`` is the tablet-measured time from the card
    becoming playable on the tablet to the tap (0: unknown). Read by ``ACTIONS``, ``card`` is
    a number: 0 for the waste, whatever was sent.
    """

    source: Source
    card: CardIndex | UnsetType = UNSET
    pile: PileIndex
    pile_size: PileSize = -1
    rt_ms: ReactionMs = 0
    rtt_ms: RoundTripMs = 0

    @property
    def index(self) -> int:
        """The card's place in the row (0 for the waste)."""
        return self.card if isinstance(self.card, int) else 0


class TurnAction(GameAction, tag="turn"):
    """Turn the stock (or, when it is used up, recycle the waste)."""


class OutAction(GameAction, tag="out"):
    """Call OUT: ends the round for everyone."""


class ExtraAction(GameAction, tag="extra"):
    """The all-stuck rule: take one more refill card into the row."""


Action = PlayAction | TurnAction | OutAction | ExtraAction

_PILE = FieldRefusals(
    missing=gettext_noop("The pile number is missing."),
    wrong=gettext_noop("The pile number must be a whole number."),
    out_of_range=gettext_noop("The pile number is out of range."),
)
_PILE_SIZE = FieldRefusals(
    missing=gettext_noop("The pile size is missing."),
    wrong=gettext_noop("The pile size must be a whole number."),
    out_of_range=gettext_noop("The pile size is out of range."),
)


def _finish(action: Action) -> Action | str:
    """The play as the rules take it: the waste's card number is ignored, and so is the size
    of a pile that does not exist yet."""
    if not isinstance(action, PlayAction):
        return action
    if action.source == "tableau" and isinstance(action.card, UnsetType):
        return CARD_REFUSALS.missing
    if action.pile > MAX_PILE_INDEX:
        return _PILE.out_of_range
    if action.pile >= 0 and action.pile_size > MAX_PILE_SIZE:
        return _PILE_SIZE.out_of_range
    return msgspec.structs.replace(
        action,
        card=action.card if action.source == "tableau" else 0,
        pile_size=action.pile_size if action.pile >= 0 else -1,
    )


ACTIONS: ActionSchema[Action] = ActionSchema(
    kinds=(PlayAction, TurnAction, OutAction, ExtraAction),
    refusals={
        "source": FieldRefusals.one(
            gettext_noop("Say whether the card comes from your row or your waste.")
        ),
        "card": CARD_REFUSALS,
        "pile": _PILE,
        "pile_size": _PILE_SIZE,
    },
    finish=_finish,
)


def parse_action(raw: object) -> Action | str:
    """The action ``raw`` describes, or a short sentence saying why it cannot be read."""
    return ACTIONS.read(raw)
