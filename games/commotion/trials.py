"""Play opportunities of human seats, turned into analytics trials.

An *opportunity* is a visible card of a human seat (a row card or its waste top) that could
go to the centre. It opens at the game time the card becomes playable and closes:

* as a **hit** when the seat plays that card (reaction time from the tablet; plausible when
  at least ``MIN_PLAUSIBLE_RT_MS`` and no longer than the opportunity has existed plus the
  measured round trip and ``PLAUSIBLE_SLACK_MS``);
* as **beaten** when another seat's play closed it (a rival filled the slot first): not a
  miss, since the child may simply have been slower than the rival, so the trial has
  ``target`` None (no yes/no decision left to score) and ``outcome`` "beaten";
* as a **miss** when the card stops being playable for any other reason (the seat turned its
  stock over it, the round ended);
* without a trial when the seat's *own* play took the slot with another card (two 2s for
  one START pile: answering with either is not a miss).

A refused play of a real card that does not fit (not a lost race) is a **false alarm**. A
refused input leaves the state unchanged, so the false-alarm trial cannot be stored in the
state: ``act`` returns it on the rejected Outcome itself (``Outcome.trials`` is allowed on
a rejected outcome; the host must store those trials too).

A refused play of the right card that lost the race (the pile changed under it) is **late**:
recorded on the rejected Outcome like a false alarm, but right (see :func:`late`).

Every trial carries ``outcome``: "spotted" (hit), "beaten", "late" (beaten, but they played
the right card), "missed" or "wrong" (false alarm).
The site's measures (classroom/gamesite/commotion.py) read them.

Opportunities are keyed by (source, card); equal cards (a deck's four STOPs) are counted,
not told apart. Bots produce no trials.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from games.commotion.cards import card_to_dict
from games.commotion.piles import fits_openings, openings
from games.commotion.state import Opportunity
from games.commotion.tableau import visible_cards
from games.engine.contract import Trial
from games.engine.reaction import rt_plausible

if TYPE_CHECKING:
    from games.commotion.cards import Card
    from games.commotion.config import Config
    from games.commotion.state import Source, State

TRIAL_KIND = "commotion.play"
# Faster than this is an anticipation, not a reaction to the card.
MIN_PLAUSIBLE_RT_MS = 150
# Clock granularity and frame timing on the tablet.
PLAUSIBLE_SLACK_MS = 100

Key: TypeAlias = "tuple[Source, Card]"


@dataclass(frozen=True)
class Play:
    """A seat's play of a card (``key``), with the tablet-measured reaction and round-trip
    times, as its trial records it."""

    seat: int
    key: Key
    rt_ms: int
    rtt_ms: int = 0


def level(config: Config, seat: int) -> str:
    """The difficulty a seat played at, as analytics groups trials."""
    return f"refill_{config.refill_for(seat)}_turn_{config.stock_turn}"


_LEVEL = re.compile(r"refill_(\d+)_turn_(\d+)")


@dataclass(frozen=True)
class Level:
    """The settings a stored ``level`` names: the refill pile and the stock turn."""

    refill: int
    stock_turn: int


def level_fields(level: str) -> Level | None:
    """The settings ``level`` (as ``level`` wrote it) names, or None for another game's."""
    if found := _LEVEL.fullmatch(level):
        return Level(refill=int(found.group(1)), stock_turn=int(found.group(2)))
    return None


def humans(state: State) -> list[int]:
    return [seat for seat in state.seats if seat not in state.bots]


# What each outcome says of the opportunity: (target, responded, correct). A missed card
# has no response, so no measurement to doubt; beaten means a rival was first: neither right
# nor wrong for this seat.
_OUTCOMES: dict[str, tuple[bool | None, bool, bool | None]] = {
    "spotted": (True, True, True),
    "late": (None, True, True),
    "wrong": (False, True, False),
    "missed": (True, False, False),
    "beaten": (None, False, None),
}


def _trial(
    state: State,
    seat: int,
    key: Key,
    outcome: str,
    *,
    rt_ms: int | None = None,
    plausible: bool = True,
) -> Trial:
    source, card = key
    target, responded, correct = _OUTCOMES[outcome]
    data: dict[str, Any] = {
        "outcome": outcome,
        "level": level(state.config, seat),
        "target": target,
        "responded": responded,
        "congruent": None,
        "rt_ms": rt_ms,
        "plausible": plausible,
        "correct": correct,
        "card": card_to_dict(card),
        "source": source,
        "round": state.round,
        "bot": False,
    }
    return Trial(seat=seat, kind=TRIAL_KIND, data=data)


def late(state: State, play: Play, *, pile: int, top: Card | None) -> Trial | None:
    """The seat played the right card just after a rival filled the pile (the race lost):
    it did spot it. Recorded beside the opportunity's *beaten* trial, with ``target`` None so
    it is not a second chance, ``responded`` and ``correct`` True and ``outcome`` "late"; the
    site counts it as spotted (classroom/gamesite/commotion.py). None for a bot, or while the
    card still fits another pile (the chance is still open, so it may yet be played).
    """
    if play.seat in state.bots:
        return None
    if any((o.source, o.card) == play.key for o in state.opportunities.get(play.seat, [])):
        return None
    # Its opportunity is closed: only the human floor can be checked.
    return _played(state, play, "late", play.rt_ms >= MIN_PLAUSIBLE_RT_MS, pile, top)


def playable_now(state: State, seat: int) -> Counter[Key]:
    """The seat's visible cards that fit somewhere in the centre, counted by (source, card)."""
    faces = openings(state.centre)
    return Counter(
        (source, card)
        for source, _index, card in visible_cards(state.players[seat])
        if fits_openings(card, faces)
    )


def sync(state: State, now_ms: int, *, own_play: int | None = None) -> list[Trial]:
    """Bring every human seat's opportunities up to date after a change at ``now_ms``.

    Cards no longer playable close as misses, or as beaten when ``own_play`` (the seat whose
    play caused the change) is another seat; for ``own_play`` itself they are dropped without
    a trial. Newly playable cards open at ``now_ms``.
    """
    trials: list[Trial] = []
    for seat in humans(state):
        current = playable_now(state, seat)
        kept: list[Opportunity] = []
        for opportunity in state.opportunities.get(seat, []):
            key: Key = (opportunity.source, opportunity.card)
            if current[key] > 0:
                current[key] -= 1
                kept.append(opportunity)
            elif own_play is None:
                trials.append(_trial(state, seat, key, "missed"))
            elif seat != own_play:
                trials.append(_trial(state, seat, key, "beaten"))
        for (source, card), count in current.items():
            kept.extend(Opportunity(source, card, now_ms) for _ in range(count))
        state.opportunities[seat] = kept
    return trials


def _played(
    state: State, play: Play, outcome: str, plausible: bool, pile: int, top: Card | None
) -> Trial:
    """The trial of ``play``, with where the card went, for the teacher's trial table: the
    pile and its top card then (None for a new pile)."""
    trial = _trial(state, play.seat, play.key, outcome, rt_ms=play.rt_ms, plausible=plausible)
    onto = None if top is None else card_to_dict(top)
    return Trial(seat=trial.seat, kind=trial.kind, data={**trial.data, "pile": pile, "onto": onto})


def hit(state: State, play: Play, now_ms: int, *, pile: int, top: Card | None) -> Trial | None:
    """Close the seat's opportunity for the played card as a hit (None for a bot)."""
    if play.seat in state.bots:
        return None
    records = state.opportunities.setdefault(play.seat, [])
    index = next((i for i, o in enumerate(records) if (o.source, o.card) == play.key), None)
    # Always found when the opportunities are kept in sync; a play at the same moment the
    # card became playable would open it now.
    opened_ms = records.pop(index).opened_ms if index is not None else now_ms
    plausible = rt_plausible(
        play.rt_ms,
        age_ms=now_ms - opened_ms,
        rtt_ms=play.rtt_ms,
        floor_ms=MIN_PLAUSIBLE_RT_MS,
        slack_ms=PLAUSIBLE_SLACK_MS,
    )
    return _played(state, play, "spotted", plausible, pile, top)


def false_alarm(state: State, play: Play, *, pile: int, top: Card | None = None) -> Trial | None:
    """A play of a card that does not fit there (None for a bot)."""
    if play.seat in state.bots:
        return None
    # There was no opportunity to time it against: only the human floor applies.
    return _played(state, play, "wrong", play.rt_ms >= MIN_PLAUSIBLE_RT_MS, pile, top)


def close_all(state: State) -> list[Trial]:
    """The round is over: every open opportunity is a miss."""
    trials = [
        _trial(state, seat, (opportunity.source, opportunity.card), "missed")
        for seat in humans(state)
        for opportunity in state.opportunities.get(seat, [])
    ]
    state.opportunities = {seat: [] for seat in humans(state)}
    return trials
