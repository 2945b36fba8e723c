"""The cards in front of each player and in the centre: dealing, refilling, turning the stock,
and the questions the rules ask about them (what can be played, is the table stuck).

These functions change the State they are given (the rule engine passes its own copy).

Round setup (RULES.md §2): each seat shuffles its own deck with the table's generator, in
seat order; the first 5 cards make the tableau, the next ``refill_for(seat)`` the refill
pile (the last one counted on top), the rest the stock (the deck's next card on top).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commotion.cards import card_to_dict, deck_for
from games.commotion.piles import fits_openings, openings, piles_for
from games.engine.contract import Event

if TYPE_CHECKING:
    from games.commotion.cards import Card
    from games.commotion.state import Player, Source, State

TABLEAU_SIZE = 5
# The all-stuck rule lets a player hold one card more than the usual row.
MAX_TABLEAU = TABLEAU_SIZE + 1


def deal(state: State) -> None:
    """Deal a new round to every seat and clear the centre."""
    state.centre = []
    for seat in state.seats:
        deck = deck_for(seat)
        state.rng.shuffle(deck)
        size = state.config.refill_for(seat)
        player = state.players[seat]
        player.tableau = deck[:TABLEAU_SIZE]
        player.refill = deck[TABLEAU_SIZE : TABLEAU_SIZE + size]
        player.stock = deck[TABLEAU_SIZE + size :][::-1]
        player.waste = []
        player.quiet_recycles = 0
    state.extra_taken = ()


def fill_gap(player: Player, index: int) -> None:
    """A gap at ``index`` refills at once from the top of the refill pile, if any remain.

    Only a gap in the usual row of five refills: a player who took a 6th card under the
    all-stuck rule plays back down to five without refills.
    """
    if len(player.tableau) < TABLEAU_SIZE and player.refill:
        player.tableau.insert(index, player.refill.pop())


def open_starts(state: State, seat: int) -> list[Event]:
    """Every START in ``seat``'s tableau goes to the centre at once and opens a new pile;
    its gap refills (which may show another START, handled in turn)."""
    events: list[Event] = []
    player = state.players[seat]
    while (index := _first_start(player)) is not None:
        card = player.tableau.pop(index)
        state.centre.append([card])
        fill_gap(player, index)
        pile = len(state.centre) - 1
        events.append(Event("start", {"seat": seat, "pile": pile, "card": card_to_dict(card)}))
    return events


def _first_start(player: Player) -> int | None:
    return next((i for i, card in enumerate(player.tableau) if card.is_start), None)


def take_from_tableau(state: State, seat: int, index: int) -> Card:
    """Remove the card at ``index`` from ``seat``'s row and refill the gap (see fill_gap)."""
    player = state.players[seat]
    card = player.tableau.pop(index)
    fill_gap(player, index)
    return card


def turn_stock(player: Player, count: int) -> tuple[int, bool]:
    """Turn up to ``count`` stock cards onto the waste, one by one (so the last turned shows).

    With the stock used up, the recycle rule instead: the top waste card goes to the bottom
    of the waste and the waste is turned over as the new stock (that former top card now on
    top of it). The player then turns again. Returns (cards turned, recycled).
    """
    if player.stock:
        turned = min(count, len(player.stock))
        for _ in range(turned):
            player.waste.append(player.stock.pop())
        return turned, False
    if not player.waste:
        return 0, False
    waste = [player.waste[-1], *player.waste[:-1]]  # bottom first
    # Turning the pile over: its bottom card becomes the stock's top (the list's end).
    player.stock = waste[::-1]
    player.waste = []
    return 0, True


def draw_extra(state: State, seat: int) -> Card:
    """The all-stuck rule: one more refill card into the row, as a 6th card."""
    player = state.players[seat]
    # Taken while the table is stuck: a new spell begins (everyone's right is fresh); taken
    # on an earlier spell's right (the table moved on since): one more seat has had its card.
    state.extra_taken = (seat,) if table_stuck(state) else (*state.extra_taken, seat)
    card = player.refill.pop()
    player.tableau.append(card)
    return card


def close_extra_spell(state: State) -> None:
    """The stuck spell ends once every seat has taken its 6th card or has none to take."""
    if state.extra_taken and all(
        seat in state.extra_taken or not state.players[seat].refill for seat in state.seats
    ):
        state.extra_taken = ()


# --------------------------------------------------------------------------------------------
# Questions


def visible_cards(player: Player) -> list[tuple[Source, int, Card]]:
    """The cards a seat may play from: its row, then its waste top (index 0)."""
    cards: list[tuple[Source, int, Card]] = [
        ("tableau", index, card) for index, card in enumerate(player.tableau)
    ]
    if player.waste:
        cards.append(("waste", 0, player.waste[-1]))
    return cards


def legal_plays(state: State, seat: int) -> list[tuple[Source, int, int]]:
    """Every (source, card index, pile) ``seat`` could play now; pile -1 begins a new pile."""
    return [
        (source, index, pile)
        for source, index, card in visible_cards(state.players[seat])
        for pile in piles_for(card, state.centre)
    ]


def table_stuck(state: State) -> bool:
    """RULES.md "Stuck": no player can play any tableau card onto the centre."""
    faces = openings(state.centre)
    return not any(
        fits_openings(card, faces) for seat in state.seats for card in state.players[seat].tableau
    )


def may_take_extra(state: State, seat: int) -> bool:
    """The all-stuck rule gives ``seat`` a 6th card: the table is stuck now, or it was stuck
    and another seat has already taken its card since (which may have made the table
    playable again: the others keep their right to one, seed §5(4) "允許所有玩家皆…多補充1張").
    """
    if table_stuck(state):
        return True
    return bool(state.extra_taken) and seat not in state.extra_taken


def can_extra(state: State, seat: int) -> bool:
    """The all-stuck rule gives this seat a 6th card, and it has a refill card and only its
    usual five."""
    player = state.players[seat]
    return (
        state.phase == "playing"
        and bool(player.refill)
        and len(player.tableau) == TABLEAU_SIZE
        and may_take_extra(state, seat)
    )


def row_can_play(state: State, seat: int) -> bool:
    """Some card in ``seat``'s row can go to the centre (START cards never wait in a row)."""
    faces = openings(state.centre)
    return any(fits_openings(card, faces) for card in state.players[seat].tableau)


def can_out(state: State, seat: int) -> bool:
    """Refill pile empty and not holding a 6th card.

    RULES.md: a player calling OUT "must be back at 5 tableau cards". With the refill pile
    empty, gaps can no longer refill, so the row may have fewer than five: that does not
    stop the call (only a 6th card does).
    """
    player = state.players[seat]
    return state.phase == "playing" and not player.refill and len(player.tableau) <= TABLEAU_SIZE


def can_turn(player: Player) -> bool:
    """Something to turn: stock cards, or a waste to recycle."""
    return bool(player.stock or player.waste)


def may_turn(state: State, seat: int) -> bool:
    """The seed (§2(2) 當…牌面區內卡牌皆無法堆疊至中央公區時): the stock may be turned only
    when none of the player's row cards can go to the centre."""
    return can_turn(state.players[seat]) and not row_can_play(state, seat)
