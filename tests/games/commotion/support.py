"""Helpers for Commotion engine tests: named cards, arranged tables, short ways to play."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from games.commotion import trials as triallib
from games.commotion.cards import Card, deck_for, number_card, start_card, stop_card
from games.commotion.config import COUNTDOWN_MS, Config
from games.commotion.rules import act, setup, tick

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.commotion.bots import BotSkill
    from games.commotion.state import State
    from games.engine.contract import Outcome, Trial

GO = COUNTDOWN_MS


def n(owner: int, colour: str, number: int) -> Card:
    return number_card(owner, colour, number)


def start(owner: int) -> Card:
    return start_card(owner)


def stop(owner: int) -> Card:
    return stop_card(owner)


def pile(owner: int, colour: str, upto: int) -> list[Card]:
    """A centre pile of ``owner``'s cards: START, then 2..upto of ``colour`` (1: START only)."""
    return [start(owner)] + [n(owner, colour, k) for k in range(2, upto + 1)]


def filler(owner: int, count: int, colour: str = "yellow", high: int = 12) -> list[Card]:
    """``count`` distinct high cards of one colour that fit nowhere in the tests' centres."""
    return [n(owner, colour, high - k) for k in range(count)]


def arranged(
    rows: Mapping[int, Sequence[Card]],
    *,
    config: Config | None = None,
    refills: Mapping[int, Sequence[Card]] | None = None,
    stocks: Mapping[int, Sequence[Card]] | None = None,
    wastes: Mapping[int, Sequence[Card]] | None = None,
    centre: Sequence[Sequence[Card]] = (),
    bots: Mapping[int, BotSkill] | None = None,
    seed: int = 7,
) -> State:
    """A table just after GO whose cards are exactly as given (lists are top-last).

    Seats are the keys of ``rows``. Cards are placed by hand, so the 52-card conservation
    does not hold on such tables. Opportunities open at GO.
    """
    state = setup(config or Config(), list(rows), seed, bots)
    state = tick(state, GO).state
    assert state.phase == "playing"
    for seat, row in rows.items():
        player = state.players[seat]
        player.tableau = list(row)
        player.refill = list((refills or {}).get(seat, []))
        player.stock = list((stocks or {}).get(seat, []))
        player.waste = list((wastes or {}).get(seat, []))
    state.centre = [list(cards) for cards in centre]
    state.opportunities = {seat: [] for seat in rows if seat not in state.bots}
    triallib.sync(state, GO)
    return state


def accepted(outcome: Outcome[State]) -> State:
    assert outcome.rejected is None, outcome.rejected
    return outcome.state


def play(
    state: State,
    seat: int,
    card: int,
    pile_index: int,
    now: int,
    *,
    source: str = "tableau",
    rt: int = 400,
    rtt: int = 40,
    size: int | None = None,
) -> Outcome[State]:
    """The outcome of ``seat`` playing; ``size`` defaults to the pile's size now."""
    if size is None:
        size = len(state.centre[pile_index]) if 0 <= pile_index < len(state.centre) else -1
    action: dict[str, Any] = {
        "kind": "play",
        "source": source,
        "card": card,
        "pile": pile_index,
        "pile_size": size,
        "rt_ms": rt,
        "rtt_ms": rtt,
    }
    return act(state, seat, action, now)


def do(state: State, seat: int, kind: str, now: int) -> Outcome[State]:
    return act(state, seat, {"kind": kind}, now)


def original_cards(seats: Sequence[int]) -> Counter[Card]:
    cards: Counter[Card] = Counter()
    for seat in seats:
        cards.update(deck_for(seat))
    return cards


def where_cards_are(state: State) -> Counter[Card]:
    cards: Counter[Card] = Counter()
    for player in state.players.values():
        cards.update(player.tableau)
        cards.update(player.refill)
        cards.update(player.stock)
        cards.update(player.waste)
    for cards_in_pile in state.centre:
        cards.update(cards_in_pile)
    return cards


def kinds(trials: Sequence[Trial]) -> list[tuple[int, str]]:
    """(seat, hit / miss / beaten / late / false_alarm) for each trial."""
    names = []
    for trial in trials:
        data = trial.data
        if data["target"] and data["responded"]:
            names.append((trial.seat, "hit"))
        elif data["target"]:
            names.append((trial.seat, "miss"))
        elif data["target"] is None:
            names.append((trial.seat, "late" if data["responded"] else "beaten"))
        else:
            names.append((trial.seat, "false_alarm"))
    return names
