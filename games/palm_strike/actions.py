"""Palm Strike's player inputs, declared once: the wire decodes a tablet's frame into these
Structs and the engine reads plain dicts into them (``ACTIONS.read``), refusing what cannot be
read with a sentence. Whether the move is allowed *now* is the rules' business.

* ``{"kind": "flip"}`` (the active player taps the deck)
* ``{"kind": "slap", "flip": n, "rt_ms": ms, "rtt_ms": ms}``
* ``{"kind": "choose", "card": i}`` (the slapper picks one of their cards, or a player)
* ``{"kind": "claim", "flip": n, "card": i, "rt_ms": ms, "rtt_ms": ms}`` (team mode)
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from games.engine.actions import ActionSchema, FieldRefusals, GameAction, ReactionMs, RoundTripMs
from games.engine.cards import CARD_REFUSALS, CardIndex
from games.engine.translation import gettext_noop

FlipNumber = Annotated[int, msgspec.Meta(ge=1, le=100_000)]


class FlipAction(GameAction, tag="flip"):
    """The active player taps the deck."""


class SlapAction(GameAction, tag="slap"):
    """A slap on flip number ``flip``, with the tablet-measured reaction time."""

    flip: FlipNumber
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0


class ChooseAction(GameAction, tag="choose"):
    """The slapper picks card ``card`` (an index into their own cards)."""

    card: CardIndex


class ClaimAction(GameAction, tag="claim"):
    """Team mode: the public card of flip ``flip`` and centre card ``card`` (an index into the
    view's ``centre`` list), tapped."""

    flip: FlipNumber
    card: CardIndex
    rt_ms: ReactionMs
    rtt_ms: RoundTripMs = 0


Action = FlipAction | SlapAction | ChooseAction | ClaimAction

ACTIONS: ActionSchema[Action] = ActionSchema(
    kinds=(FlipAction, SlapAction, ChooseAction, ClaimAction),
    refusals={
        "flip": FieldRefusals(
            missing=gettext_noop("The card number of the flip is missing."),
            wrong=gettext_noop("The card number of the flip must be a whole number."),
            out_of_range=gettext_noop("The card number of the flip is out of range."),
        ),
        "card": CARD_REFUSALS,
    },
)
