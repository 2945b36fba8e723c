"""Palm Strike's analytics trials: one per seat for each flip, when its window closes.

A seat's trial is ``correct`` when it slapped (or claimed the right card, in team mode)
exactly when a match counted for it under the table's slap scope, and stayed still
otherwise. ``rt_ms`` is the tablet's measure (None, with ``untimed`` saying why, for a slap
the tablet could not time); ``plausible`` holds it against the card's age
and the measured round trip (``games.engine.reaction``) with this game's floor and slack.
The site's measures (classroom/gamesite/palm_strike.py) read the extra keys.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.engine.contract import Trial
from games.palm_strike.cards import PublicCard, card_to_dict
from games.palm_strike.matching import cards_match
from games.palm_strike.seating import judge

if TYPE_CHECKING:
    from games.palm_strike.state import Flip, State

# Plausible reaction times: at least a human floor, at most the time the card has existed
# (plus the measured round trip and a little slack for clock granularity).
MIN_PLAUSIBLE_RT_MS = 100
PLAUSIBLE_SLACK_MS = 50


def flip_matches_for(state: State, flip: Flip, seat: int) -> bool:
    """Whether a correct slap existed for ``seat`` on ``flip`` (the table as flipped)."""
    config = state.config
    if config.team_mode:
        return any(
            card is not None and cards_match(flip.card, card, config.level) for card in flip.centre
        )
    return judge(config.slap_scope, state.seats, flip.table, flip.card, config.level, seat).any


def flip_trials(state: State, flip: Flip) -> list[Trial]:
    """One trial per seat for the flip whose window just closed."""
    config = state.config
    kind = "palm_strike.team_flip" if config.team_mode else "palm_strike.flip"
    public = card_to_dict(flip.card)
    congruent = flip.card.word == flip.card.ink if isinstance(flip.card, PublicCard) else None
    trials = []
    for seat in state.seats:
        response = next((r for r in flip.responses if r.seat == seat), None)
        expected = flip_matches_for(state, flip, seat)
        if response is None:
            correct = not expected
        elif config.team_mode:
            correct = expected and response.hit
        else:
            correct = expected
        data: dict[str, Any] = {
            "flip": flip.number,
            "level": config.level,
            "public": public,
            "target": expected,
            "responded": response is not None,
            "congruent": congruent,
            "response": "slap" if response is not None else "none",
            "rt_ms": response.rt_ms if response is not None else None,
            # No response: no measurement to doubt.
            "plausible": response.plausible if response is not None else True,
            "correct": correct,
            "first": flip.winner == seat,
            "bot": seat in state.bots,
        }
        if response is not None and response.untimed is not None:
            # Answered and judged, but the tablet could not time it: why ("hidden": the page
            # was hidden, "unpainted": the card was not painted yet).
            data["untimed"] = response.untimed
        if config.team_mode:
            card = response.card if response is not None else None
            data["claimed_card"] = card_to_dict(card) if card is not None else None
        trials.append(Trial(seat=seat, kind=kind, data=data))
    return trials
