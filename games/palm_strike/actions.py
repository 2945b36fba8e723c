"""Palm Strike's player inputs, declared once: the wire decodes a tablet's frame into these
Structs and the engine reads plain dicts into them (``ACTIONS.read``), refusing what cannot be
read with a sentence. Whether the move is allowed *now* is the rules' business.

* ``{"kind": "flip"}`` (the active player taps the deck)
* ``{"kind": "slap", "flip": n, "rt_ms": ms, "rtt_ms": ms}``
* ``{"kind": "choose", "card": i}`` (the slapper picks one of their cards, or a player)
* ``{"kind": "claim", "flip": n, "card": i, "rt_ms": ms, "rtt_ms": ms}`` (team mode)

A slap or claim the tablet could not time leaves ``rt_ms`` out and says why in ``untimed``
(``"hidden"``: the page was hidden; ``"unpainted"``: the card had not been painted yet). It
is answered and recorded like any other, with no reaction time.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, UnsetType

from games.engine.actions import (
    TIMING_REFUSALS,
    ActionSchema,
    FieldRefusals,
    GameAction,
    ReactionMs,
    RoundTripMs,
)
from games.engine.cards import CARD_REFUSALS, CardIndex
from games.engine.translation import gettext_noop

FlipNumber = Annotated[int, msgspec.Meta(ge=1, le=100_000)]
# Why a tablet sent a slap without a reaction time: its page was hidden (a tab or a
# notification in front: a couple of frames a second), or the card's first frame had not
# been painted when the tap came.
Untimed = Literal["hidden", "unpainted"]


class FlipAction(GameAction, tag="flip"):
    """The active player taps the deck."""


class SlapAction(GameAction, tag="slap"):
    """A slap on flip number ``flip``, with the tablet-measured reaction time (or why there
    is none)."""

    flip: FlipNumber
    rt_ms: ReactionMs | UnsetType = UNSET
    rtt_ms: RoundTripMs = 0
    untimed: Untimed | UnsetType = UNSET


class ChooseAction(GameAction, tag="choose"):
    """The slapper picks card ``card`` (an index into their own cards)."""

    card: CardIndex


class ClaimAction(GameAction, tag="claim"):
    """Team mode: the public card of flip ``flip`` and centre card ``card`` (an index into the
    view's ``centre`` list), tapped."""

    flip: FlipNumber
    card: CardIndex
    rt_ms: ReactionMs | UnsetType = UNSET
    rtt_ms: RoundTripMs = 0
    untimed: Untimed | UnsetType = UNSET


Action = FlipAction | SlapAction | ChooseAction | ClaimAction


def _finish(action: Action) -> Action | str:
    """A slap or claim has a reaction time or says why not; one with both is a timed one."""
    if not isinstance(action, (SlapAction, ClaimAction)):
        return action
    if isinstance(action.rt_ms, UnsetType):
        if isinstance(action.untimed, UnsetType):
            return TIMING_REFUSALS["rt_ms"].missing
        return action
    return msgspec.structs.replace(action, untimed=UNSET)


def reaction_ms(action: SlapAction | ClaimAction) -> int | None:
    """The tablet's reaction time, or None for an input it could not time."""
    return None if isinstance(action.rt_ms, UnsetType) else action.rt_ms


def untimed_reason(action: SlapAction | ClaimAction) -> str | None:
    """Why the tablet sent no reaction time (None when it sent one)."""
    return None if isinstance(action.untimed, UnsetType) else action.untimed


ACTIONS: ActionSchema[Action] = ActionSchema(
    kinds=(FlipAction, SlapAction, ChooseAction, ClaimAction),
    refusals={
        "flip": FieldRefusals(
            missing=gettext_noop("The card number of the flip is missing."),
            wrong=gettext_noop("The card number of the flip must be a whole number."),
            out_of_range=gettext_noop("The card number of the flip is out of range."),
        ),
        "card": CARD_REFUSALS,
        "untimed": FieldRefusals.one(
            gettext_noop("Say why the reaction time is missing: hidden or unpainted.")
        ),
    },
    finish=_finish,
)
