"""What one seat (or the teacher's screen) may see of a Palm Strike table.

Every card on the table is face up in the physical game, so views differ only in who "you"
are and in the pending choice, which only the chooser sees (with its own phase). The order
of both decks and the random generator never leave the engine: decks appear only as counts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.palm_strike.cards import card_to_dict
from games.palm_strike.matching import cards_match
from games.palm_strike.seating import judge

if TYPE_CHECKING:
    from games.palm_strike.cards import Card
    from games.palm_strike.state import Flip, State


def phase(state: State, seat: int | None = None) -> str:
    """One word for where the table is, as ``seat`` sees it; the UI picks its screen from it.

    While the race winner picks a card the response window may still be open: the chooser
    sees "choosing", everyone else "open" (their slaps still count for analytics) until the
    window closes.
    """
    if state.game_over:
        return "game_over"
    if state.next_round_ms is not None:
        return "round_over"
    is_open = state.current is not None and state.current.open
    choice = state.choice
    if choice is not None and (seat == choice.seat or not is_open):
        return "choosing"
    if is_open:
        return "open"
    return "waiting_flip"


def _last(state: State) -> dict[str, Any] | None:
    flip = state.current
    if flip is None:
        return None
    slappers: list[int] = []
    for response in flip.responses:
        if response.seat not in slappers:
            slappers.append(response.seat)
    return {
        "flip": flip.number,
        "winner": flip.winner,
        "outcome": flip.outcome,
        "slappers": slappers,
    }


def _centre(state: State) -> list[Card]:
    """The centre cards a tablet shows, empty places left out. While a flip is open it is
    the centre as that card flipped: claims are judged on it (rules.py), so every tablet
    keeps the cards it may claim in place until the window closes."""
    flip = state.current
    places = flip.centre if flip is not None and flip.open else tuple(state.centre)
    return [card for card in places if card is not None]


def _judged(flip: Flip) -> bool:
    return flip.resolved or not flip.open


def _mine(state: State, seat: int | None) -> dict[str, Any] | None:
    """How this seat's own tap on the current flip was judged, so its tablet can answer it.

    ``result``: ``waiting`` (the race is not settled yet), ``first`` (won with a match),
    ``first_no_match`` (won the race on a flip with no match for them: a penalty card),
    ``right`` (a match, someone else was first), ``no_match`` (nothing to slap or claim),
    ``wrong_card`` (team mode: a match was there, but not the card tapped).
    """
    flip = state.current
    if flip is None or seat is None:
        return None
    response = next((r for r in flip.responses if r.seat == seat), None)
    if response is None:
        return None
    config = state.config
    if config.team_mode:
        right = response.hit
        there_was_one = any(
            card is not None and cards_match(flip.card, card, config.level) for card in flip.centre
        )
    else:
        right = there_was_one = judge(
            config.slap_scope, state.seats, flip.table, flip.card, config.level, seat
        ).any
    if flip.winner == seat:
        result = "first" if right else "first_no_match"
    elif response.competing and not _judged(flip):
        # It may still win the race (a false slap that wins draws a card): wait for it.
        result = "waiting"
    elif right:
        result = "right"
    elif there_was_one and config.team_mode:
        result = "wrong_card"
    else:
        result = "no_match"
    return {"flip": flip.number, "result": result, "winner": flip.winner}


def _glow(state: State, seat: int | None) -> dict[str, Any] | None:
    """The cards that matched the current flip, once the seat may see why: after the flip
    is judged, and (while the window is still open) only for a seat that has answered, so
    the glow never gives the answer away to someone who can still tap."""
    flip = state.current
    if flip is None or not _judged(flip):
        return None
    answered = seat is None or any(r.seat == seat for r in flip.responses)
    if flip.open and not answered:
        return None
    level = state.config.level
    players = {
        str(s): [i for i, card in enumerate(state.hands[s]) if cards_match(flip.card, card, level)]
        for s in state.seats
    }
    centre = [i for i, card in enumerate(_centre(state)) if cards_match(flip.card, card, level)]
    return {"flip": flip.number, "players": players, "centre": centre}


def _window_closes(state: State, seat: int | None) -> int | None:
    """When the open card closes for ``seat`` (None: the table, its longest window), or None
    once it has: with extra time at the table a seat's own window may end before the card's."""
    flip = state.current
    if flip is None or not flip.open:
        return None
    if seat is None:
        return flip.closes_ms
    own = min(flip.closes_ms, flip.shown_ms + state.config.window_ms_for(seat))
    # Early closes are timers run in order: a seat's has passed once the next to come is later.
    upcoming = flip.early_closes[0] if flip.early_closes else flip.closes_ms
    return own if own >= upcoming else None


def _winners(state: State) -> list[int]:
    """The game's winners once it is over; between points rounds, that round's winners."""
    if state.game_over:
        return list(state.winners)
    if state.next_round_ms is not None:
        return list(state.round_winners)
    return []


def view(state: State, seat: int | None) -> dict[str, Any]:
    """The JSON-ready picture of the table for ``seat`` (None: teacher or projector)."""
    config = state.config
    flip = state.current
    choice = state.choice
    mine = choice if choice is not None and seat is not None and choice.seat == seat else None
    return {
        "game": "palm_strike",
        "phase": phase(state, seat),
        "level": config.level,
        "team_mode": config.team_mode,
        "deck_swap": config.deck_swap,
        "round": state.round,
        "flip": state.flips,
        "public": card_to_dict(flip.card) if flip is not None else None,
        "window_closes_ms": _window_closes(state, seat),
        "active_seat": state.active_seat,
        "players": [
            {
                "seat": s,
                "cards": [card_to_dict(card) for card in state.hands[s]],
                "card_count": len(state.hands[s]),
                "score": state.scores[s],
                "bot": s in state.bots,
            }
            for s in state.seats
        ],
        # Team mode: the cards in the centre, empty places left out; a claim's "card" is an
        # index into this list (while a flip is open, the centre as it flipped).
        "centre": [card_to_dict(card) for card in _centre(state)],
        "claims": ({str(s): len(state.hands[s]) for s in state.seats} if config.team_mode else {}),
        "deck_count": len(state.flip_deck),
        "discard_count": len(state.discard),
        "player_deck_count": len(state.player_deck),
        "you": seat,
        "chooser": choice.seat if choice is not None else None,
        "choice": (
            {
                "reason": mine.reason,
                "to_seat": mine.to_seat,
                "deadline_ms": mine.deadline_ms,
                "players": list(mine.options),
            }
            if mine is not None
            else None
        ),
        "last": _last(state),
        "mine": _mine(state, seat),
        "glow": _glow(state, seat),
        "winners": _winners(state),
        "target": config.points_target,
    }
