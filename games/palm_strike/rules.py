"""Palm Strike's rule set (RULES.md §1): setup, player inputs, timers, replay.

The engine contract (ARCHITECTURE.md): pure functions of a :class:`State`, with time only
from ``now_ms`` arguments and randomness only from the state's seeded generator. A state is
never changed in place: ``act`` and ``tick`` return a changed copy, and a refused input
returns the very state it was given with a readable reason.

Time line of one flip (all server milliseconds):

* the card is shown at ``shown``; it stays open until ``shown + response window``; a seat
  with extra time (``Config.window_scale_by_seat``) has a longer window of its own, the card
  then stays open until the longest ends, and every other seat's slap still counts only
  inside the table's window (the same refusal as after any close);
* the first slap opens a *grace window* of ``config.grace_ms``; when it ends the race goes
  to the earliest plausible tablet reaction time among slaps received inside it (if none of
  them is plausible the race stays open and the next slap opens a new grace window); a slap
  the tablet could not time races with the card's age at its arrival less the round trip,
  and its trial keeps no reaction time;
* the race is settled at once, or after the winner picks a card (a *choice*, 5 s time-out,
  first card by default);
* every seat's response inside the window is recorded; when the window closes each seat
  gets one :class:`Trial`;
* when the window is closed and no choice is pending, the turn passes clockwise (tap
  pacing) or the next automatic flip may happen (auto pacing).

``act`` first runs every timer already due at ``now_ms`` (on its own copy), so a host that
ticks a little late still judges inputs against the right moment; ``tick`` runs them
without an input. Timers run at their own scheduled times, so how often a host ticks never
changes the game.

[digital] additions beyond RULES.md, all deliberate:

* deck swap is dealt from a swapped orange deck in which every card matches some white card
  (cards.py ``_SWAP_RECIPE``), so every end condition is reachable. Two guards stay as safety
  nets: with slap scope A a card that nothing matches would never leave its owner, so
  when every player holds one the round ends (fewest cards wins); in team mode the game ends
  when no centre card can be claimed any more (most cards wins);
* as a last safety net a round also ends after ``MAX_FLIPS_PER_ROUND`` flips (fewest cards
  wins; team mode: most cards);
* in the points variant a short break (``ROUND_BREAK_MS``) separates rounds;
* only one race per flip: after it is settled, later slaps are recorded but move nothing.

Events (``Outcome.events``, for animation and the teacher's feed), by kind: ``started``,
``flip`` {flip, seat, card, closes_ms}, ``reshuffle`` {cards}, ``slap`` {flip, seat,
plausible}, ``claim`` / ``false_claim`` {flip, seat, card, plausible}, ``race_void`` {flip},
``resolved`` {flip, winner, outcome, to_seat, card}, ``seat_window_closed`` {flip, seats},
``choice`` {seat, reason, to_seat,
flip}, ``chosen`` {seat, reason, to_seat, card, default}, ``window_closed`` {flip, winner,
outcome, slappers}, ``turn`` {seat}, ``round_over`` {round, winners}, ``round_started``
{round, active_seat}, ``game_over`` {winners, scores}.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.engine import adaptive
from games.engine.changes import Changes
from games.engine.contract import Bots, Outcome
from games.engine.fingerprint import state_fingerprint as state_fingerprint
from games.engine.reaction import rt_plausible
from games.engine.refusals import GAME_OVER, Refusal, act_preamble, refused
from games.engine.replay import replayer
from games.engine.table import seats_check
from games.engine.translation import gettext_noop
from games.palm_strike import bots as botlib
from games.palm_strike.actions import (
    ACTIONS,
    Action,
    ChooseAction,
    ClaimAction,
    FlipAction,
    SlapAction,
    reaction_ms,
    untimed_reason,
)
from games.palm_strike.cards import Card, card_to_dict, player_deck, public_deck
from games.palm_strike.matching import cards_match
from games.palm_strike.matching import matches as matches
from games.palm_strike.seating import judge, next_seat
from games.palm_strike.state import (
    BotMove,
    Choice,
    Flip,
    Reason,
    Response,
)
from games.palm_strike.state import (
    State as State,
)
from games.palm_strike.trials import (
    MIN_PLAUSIBLE_RT_MS,
    PLAUSIBLE_SLACK_MS,
    flip_matches_for,
    flip_trials,
)
from games.palm_strike.view import view as view

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.actions import ActionInput
    from games.palm_strike.bots import BotSkill
    from games.palm_strike.config import Config

# A slapper has this long to pick a card before the first one is taken for them.
CHOICE_TIMEOUT_MS = 5000
# [digital] In tap pacing, the active player's card flips by itself after this long.
TURN_TIMEOUT_MS = 12000
# After the first tick (and after each new deal) players get this long before a card flips.
READY_MS = 1500
# Points variant: the pause between a round's end and the next deal.
ROUND_BREAK_MS = 4000
# Auto pacing: if a choice held up a due flip, the flip comes this long after the choice.
RESUME_MS = 1000
# See the module doc: a safety net against rounds that can never end.
MAX_FLIPS_PER_ROUND = 300
# Team mode, end condition B.
TEAM_TARGET = 5

MIN_SEATS, MAX_SEATS = 2, 8
MIN_TEAM_SEATS, MAX_TEAM_SEATS = 1, 40

# ============================================================================================
# Setup


def _check_seats(config: Config, seats: tuple[int, ...], bots: Mapping[int, BotSkill]) -> None:
    low, high = (MIN_TEAM_SEATS, MAX_TEAM_SEATS) if config.team_mode else (MIN_SEATS, MAX_SEATS)
    seats_check(seats, bots, low=low, high=high, skill_type=botlib.BotSkill)


def _deal(state: State) -> None:
    """Deal cards_per_player cards face up to every seat, one at a time round the table."""
    for _ in range(state.config.cards_per_player):
        for seat in state.seats:
            state.hands[seat].append(state.player_deck.pop(0))


def setup(config: Config, seats: Sequence[int], seed: int, bots: Bots[BotSkill] = None) -> State:
    """A new table: decks shuffled, cards dealt (or laid in the centre), a first player.

    ``seats`` are seat numbers in clockwise order; ``bots`` maps the seats played by the
    computer to their skill. Raises :class:`SettingError` (a ValueError) for a bad table.
    """
    seat_order = tuple(seats)
    bot_skills = dict(bots or {})
    _check_seats(config, seat_order, bot_skills)
    rng = random.Random(seed)
    white: list[Card] = list(player_deck(rng))
    orange: list[Card] = list(public_deck(rng, swap=config.deck_swap))
    dealt, flipped = (orange, white) if config.deck_swap else (white, orange)
    state = State(
        config=config,
        seats=seat_order,
        bots=bot_skills,
        rng=rng,
        player_deck=dealt,
        flip_deck=flipped,
        discard=[],
        hands={seat: [] for seat in seat_order},
        centre=[],
        scores={seat: 0 for seat in seat_order},
        active_seat=None,
    )
    if config.team_mode:
        state.centre = [state.player_deck.pop(0) for _ in range(config.centre_cards)]
    else:
        _deal(state)
    if config.flip_pacing == "tap":
        state.active_seat = rng.choice(seat_order)
    return state


# ============================================================================================
# Small helpers


def _window_ms(config: Config) -> int:
    return round(config.response_window_s * 1000)


def _is_bot(state: State, seat: int) -> bool:
    return seat in state.bots


def _schedule_turn(state: State, now_ms: int) -> None:
    """Tap pacing: a bot whose turn it is flips after a short pause; for a child who does not
    flip (away, or the tablet asleep) the card turns over by itself after a long one, so the
    table never stalls."""
    if state.config.flip_pacing != "tap" or state.active_seat is None:
        return
    delay = botlib.BOT_FLIP_DELAY_MS if state.active_seat in state.bots else TURN_TIMEOUT_MS
    state.next_flip_ms = now_ms + delay


# ============================================================================================
# Flipping


def _plan_bots(state: State, flip: Flip) -> None:
    """Every bot decides its response to this flip now (drawing from the state's generator)."""
    config = state.config
    window = _window_ms(config)
    for seat in state.seats:
        skill = state.bots.get(seat)
        if skill is None:
            continue
        if config.team_mode:
            matching = [
                place
                for place, card in enumerate(flip.centre)
                if card is not None and cards_match(flip.card, card, config.level)
            ]
            others = [
                place
                for place, card in enumerate(flip.centre)
                if card is not None and place not in matching
            ]
            truth = bool(matching)
            rt = botlib.decide(skill, state.rng, truth, window)
            if rt is None:
                continue
            place = botlib.pick_claim(state.rng, matching, others, wrong=not truth)
            if place is not None:
                flip.bot_moves.append(BotMove(flip.shown_ms + rt, seat, rt, place))
        else:
            rt = botlib.decide(skill, state.rng, flip_matches_for(state, flip, seat), window)
            if rt is not None:
                flip.bot_moves.append(BotMove(flip.shown_ms + rt, seat, rt))
    # Stable sort: bots due at the same moment act in seat order.
    flip.bot_moves.sort(key=lambda move: move.due_ms)


def _flip(state: State, now_ms: int, seat: int | None, ch: Changes) -> None:
    """Turn the top card of the flip deck onto the discard pile and open its window."""
    config = state.config
    if not state.flip_deck:
        # RULES.md: when the public deck runs out, the discard pile is shuffled into a new one.
        state.flip_deck, state.discard = state.discard, []
        state.rng.shuffle(state.flip_deck)
        ch.event("reshuffle", cards=len(state.flip_deck))
    card = state.flip_deck.pop(0)
    state.discard.append(card)
    state.flips += 1
    state.round_flips += 1
    # Each seat's own window (extra time: longer for some); the card stays open for the
    # longest, and a seat's slap counts only inside its own.
    seat_closes = {now_ms + config.window_ms_for(s) for s in state.seats}
    closes = max(now_ms + _window_ms(config), *seat_closes)
    flip = Flip(
        number=state.flips,
        card=card,
        shown_ms=now_ms,
        closes_ms=closes,
        table={s: tuple(state.hands[s]) for s in state.seats},
        centre=tuple(state.centre),
        early_closes=sorted(at for at in seat_closes if at < closes),
    )
    state.current = flip
    _plan_bots(state, flip)
    state.next_flip_ms = (
        now_ms + round(config.auto_flip_s * 1000) if config.flip_pacing == "auto" else None
    )
    ch.event("flip", flip=flip.number, seat=seat, card=card_to_dict(card), closes_ms=flip.closes_ms)


# ============================================================================================
# Slaps, claims and the race


def _record(
    state: State,
    seat: int,
    rt_ms: int | None,
    rtt_ms: int,
    now_ms: int,
    ch: Changes,
    place: int | None = None,
    untimed: str | None = None,
) -> None:
    """Record one slap (or claim) on the open flip; it may open or join the grace window.
    ``rt_ms`` None: the tablet could not time it (``untimed`` says why); with no time to
    doubt it is plausible."""
    flip = state.current
    assert flip is not None
    config = state.config
    age = now_ms - flip.shown_ms
    plausible = rt_ms is None or rt_plausible(
        rt_ms, age_ms=age, rtt_ms=rtt_ms, floor_ms=MIN_PLAUSIBLE_RT_MS, slack_ms=PLAUSIBLE_SLACK_MS
    )
    response = Response(
        seat=seat,
        received_ms=now_ms,
        rt_ms=rt_ms,
        rtt_ms=rtt_ms,
        plausible=plausible,
        bot=_is_bot(state, seat),
        untimed=untimed if rt_ms is None else None,
    )
    if config.team_mode:
        assert place is not None
        # Judged against the centre as it was when the card flipped (what every tablet saw
        # while the window was open), so a right claim stays right after someone else's
        # claim has emptied or refilled that place.
        card = flip.centre[place]
        response.place = place
        response.card = card
        response.hit = card is not None and cards_match(flip.card, card, config.level)
    # Team mode: a claim on a card that does not match is a false alarm, not a contender.
    may_win = not flip.resolved and (response.hit or not config.team_mode)
    if may_win:
        if flip.grace_ends_ms is None:
            flip.grace_ends_ms = now_ms + config.grace_ms
            response.competing = True
        elif now_ms < flip.grace_ends_ms:
            response.competing = True
    flip.responses.append(response)
    if config.team_mode:
        # A wrong claim does not mark the flip: a right claim may still win the race, and
        # the flip's outcome is only known when the race is settled (or the window closes).
        ch.event(
            "claim" if response.hit else "false_claim",
            flip=flip.number,
            seat=seat,
            card=card_to_dict(response.card) if response.card is not None else None,
            plausible=plausible,
        )
    else:
        ch.event("slap", flip=flip.number, seat=seat, plausible=plausible)


def _take_card(state: State, seat: int, index: int, to_seat: int | None) -> Card:
    """Move one of ``seat``'s cards to another seat, or under the player deck."""
    card = state.hands[seat].pop(index)
    if to_seat is None:
        state.player_deck.append(card)
    else:
        state.hands[to_seat].append(card)
    return card


def _note_empty(state: State, seat: int) -> None:
    """The first player with no cards in front of them wins the round (at window close)."""
    if not state.config.team_mode and not state.hands[seat] and not state.round_winners:
        state.round_winners.append(seat)


def _settle_slap(state: State, seat: int, now_ms: int, ch: Changes) -> None:
    """Apply RULES.md's four cases for the slapper who won the race."""
    flip = state.current
    assert flip is not None
    config = state.config
    hand = state.hands[seat]
    found = judge(config.slap_scope, state.seats, flip.table, flip.card, config.level, seat)
    data: dict[str, Any] = {"flip": flip.number, "winner": seat}
    to_seat: int | None = None
    if found.own and found.others:
        flip.outcome = "both"
    elif found.own:
        flip.outcome = "own"
    elif found.others:
        flip.outcome = "other"
        to_seat = found.others[0]
    else:
        flip.outcome = "false"
    data["outcome"] = flip.outcome
    data["to_seat"] = to_seat
    if flip.outcome == "other" and len(found.others) > 1 and not _is_bot(state, seat):
        # RULES.md [digital]: several other players have a match, so the slapper picks whose
        # (tap the player), with the same time-out as other choices (first clockwise).
        data["to_seat"] = None
        state.choice = Choice(
            seat, "player", None, now_ms + CHOICE_TIMEOUT_MS, options=tuple(found.others)
        )
        ch.event("resolved", **data)
        ch.event("choice", seat=seat, reason="player", to_seat=None, flip=flip.number)
        return
    if flip.outcome == "own":
        # The matching card itself goes back under the player deck.
        index = next(
            (i for i, card in enumerate(hand) if cards_match(flip.card, card, config.level)), None
        )
        if index is not None:
            data["card"] = card_to_dict(_take_card(state, seat, index, None))
    elif flip.outcome == "false":
        # Penalty: the top player card, face up, in front of the slapper (none if the deck
        # is empty).
        if state.player_deck:
            card = state.player_deck.pop(0)
            hand.append(card)
            data["card"] = card_to_dict(card)
    elif len(hand) > 1:
        # "Any one of your cards": the slapper picks (bots after a short pause).
        delay = botlib.BOT_CHOICE_DELAY_MS if _is_bot(state, seat) else CHOICE_TIMEOUT_MS
        reason: Reason = "give" if flip.outcome == "other" else "return"
        state.choice = Choice(seat, reason, to_seat, now_ms + delay)
        ch.event("resolved", **data)
        ch.event("choice", seat=seat, reason=reason, to_seat=to_seat, flip=flip.number)
        return
    elif hand:
        data["card"] = card_to_dict(_take_card(state, seat, 0, to_seat))
    _note_empty(state, seat)
    ch.event("resolved", **data)


def _settle_claim(state: State, response: Response, ch: Changes) -> None:
    """Team mode: the winner takes the claimed centre card; B and C refill the place."""
    flip = state.current
    assert flip is not None
    assert response.place is not None
    config = state.config
    card = state.centre[response.place]
    assert card is not None
    state.hands[response.seat].append(card)
    refill = config.team_end != "centre_empty" and state.player_deck
    state.centre[response.place] = state.player_deck.pop(0) if refill else None
    flip.outcome = "claim"
    ch.event(
        "resolved", flip=flip.number, winner=response.seat, outcome="claim", card=card_to_dict(card)
    )


def _race_ms(flip: Flip, response: Response) -> int:
    """The time a response races with: the tablet's reaction time, or for one it could not
    time, the card's age when it arrived less the round trip (an estimate that can only be
    later than the tap, so an untimed slap never beats a timed one of the same speed)."""
    if response.rt_ms is not None:
        return response.rt_ms
    return max(0, response.received_ms - flip.shown_ms - response.rtt_ms)


def _end_grace(state: State, now_ms: int, ch: Changes) -> None:
    """The grace window is over: the earliest plausible reaction time wins the race."""
    flip = state.current
    assert flip is not None
    contenders = [
        (_race_ms(flip, response), response.received_ms, order, response)
        for order, response in enumerate(flip.responses)
        if response.competing and response.plausible
    ]
    if not contenders:
        # Only implausible slaps: nobody wins yet; the next slap opens a new grace window.
        flip.grace_ends_ms = None
        ch.event("race_void", flip=flip.number)
        return
    winner = min(contenders, key=lambda item: item[:3])[3]
    flip.resolved = True
    flip.winner = winner.seat
    if state.config.team_mode:
        _settle_claim(state, winner, ch)
    else:
        _settle_slap(state, winner.seat, now_ms, ch)


def _apply_player_choice(
    state: State, index: int, now_ms: int, ch: Changes, *, by_default: bool
) -> None:
    """The slapper picked whose matching card it was; now they give that player a card (a
    second choice when they have several, as in the one-match case)."""
    choice = state.choice
    assert choice is not None
    to_seat = choice.options[index]
    seat = choice.seat
    ch.event("chosen", seat=seat, reason="player", to_seat=to_seat, card=None, default=by_default)
    state.choice = None
    hand = state.hands[seat]
    if len(hand) > 1:
        state.choice = Choice(seat, "give", to_seat, now_ms + CHOICE_TIMEOUT_MS)
        flip = state.current
        number = flip.number if flip is not None else None
        ch.event("choice", seat=seat, reason="give", to_seat=to_seat, flip=number)
        return
    if hand:
        _take_card(state, seat, 0, to_seat)
    _note_empty(state, seat)
    _finish_flip(state, now_ms, ch)


def _apply_choice(state: State, index: int, now_ms: int, ch: Changes, *, by_default: bool) -> None:
    choice = state.choice
    assert choice is not None
    if choice.reason == "player":
        _apply_player_choice(state, index, now_ms, ch, by_default=by_default)
        return
    card = _take_card(state, choice.seat, index, choice.to_seat)
    state.choice = None
    _note_empty(state, choice.seat)
    ch.event(
        "chosen",
        seat=choice.seat,
        reason=choice.reason,
        to_seat=choice.to_seat,
        card=card_to_dict(card),
        default=by_default,
    )
    _finish_flip(state, now_ms, ch)


# ============================================================================================
# Closing a flip, rounds and the end


def _most_cards(state: State) -> list[int]:
    best = max(len(state.hands[seat]) for seat in state.seats)
    return [seat for seat in state.seats if len(state.hands[seat]) == best]


def _fewest_cards(state: State) -> list[int]:
    least = min(len(state.hands[seat]) for seat in state.seats)
    return [seat for seat in state.seats if len(state.hands[seat]) == least]


def _claimable(state: State, card: Card | None) -> bool:
    """Whether some card of the flip deck (all of it: deck and discard) can ever match it.

    In the normal game every white card can; in deck swap some orange cards match no white
    card at all (and congruent ones none above beginner level).
    """
    if card is None:
        return False
    level = state.config.level
    return any(cards_match(flipped, card, level) for flipped in state.flip_deck + state.discard)


def _team_winners(state: State) -> list[int] | None:
    """Team mode: the winners if the game is over now (RULES.md end conditions A, B, C).

    A ends when the centre is empty, C when all cards are claimed, B when someone has five.
    Refills only follow claims, so all three also end when no centre card can ever be
    claimed any more (only possible in deck swap); most cards wins then.
    """
    if state.config.team_end == "first_to_five":
        reached = [seat for seat in state.seats if len(state.hands[seat]) >= TEAM_TARGET]
        if reached:
            return reached
    if not any(_claimable(state, card) for card in state.centre):
        return _most_cards(state)
    if state.round_flips >= MAX_FLIPS_PER_ROUND:
        return _most_cards(state)
    return None


def _stalemate(state: State) -> bool:
    """Slap scope A: a card that no flip can ever match never leaves its owner, so once every
    player holds one nobody can win the round (only possible in deck swap)."""
    if state.config.slap_scope != "own":
        return False
    return all(
        any(not _claimable(state, card) for card in state.hands[seat]) for seat in state.seats
    )


def _end_game(state: State, winners: list[int], ch: Changes) -> None:
    state.game_over = True
    state.winners = list(winners)
    state.next_flip_ms = None
    state.next_round_ms = None
    scores = {str(seat): score for seat, score in state.scores.items()}
    ch.event("game_over", winners=list(winners), scores=scores)


def _end_round(state: State, now_ms: int, ch: Changes) -> None:
    """A round is over: score it (points variant) and either end the game or pause."""
    config = state.config
    winners = list(state.round_winners) or _fewest_cards(state)
    state.round_winners = winners
    ch.event("round_over", round=state.round, winners=winners)
    if config.points_target <= 0:
        _end_game(state, winners, ch)
        return
    for winner in winners:
        state.scores[winner] += sum(len(state.hands[s]) for s in state.seats if s != winner)
    reached = [seat for seat in state.seats if state.scores[seat] >= config.points_target]
    if reached:
        best = max(state.scores[seat] for seat in reached)
        _end_game(state, [s for s in reached if state.scores[s] == best], ch)
        return
    state.next_flip_ms = None
    state.next_round_ms = now_ms + ROUND_BREAK_MS


def _deal_round(state: State, now_ms: int, ch: Changes) -> None:
    """Points variant: gather every player card, shuffle and deal again."""
    cards = [card for seat in state.seats for card in state.hands[seat]] + state.player_deck
    state.rng.shuffle(cards)
    state.player_deck = cards
    state.hands = {seat: [] for seat in state.seats}
    _deal(state)
    state.round += 1
    state.round_flips = 0
    state.round_winners = []
    state.current = None
    state.next_round_ms = None
    if state.config.flip_pacing == "auto":
        state.next_flip_ms = now_ms + READY_MS
    else:
        _schedule_turn(state, now_ms)
    ch.event("round_started", round=state.round, active_seat=state.active_seat)


def _finish_flip(state: State, now_ms: int, ch: Changes) -> None:
    """Once the window is closed and no choice is pending: end, or move on to the next flip."""
    flip = state.current
    if flip is None or flip.open or state.choice is not None:
        return
    config = state.config
    if config.flip_pacing == "tap" and state.active_seat is not None:
        state.active_seat = next_seat(state.seats, state.active_seat)
    if config.team_mode:
        winners = _team_winners(state)
        if winners is not None:
            _end_game(state, winners, ch)
            return
    elif state.round_winners or state.round_flips >= MAX_FLIPS_PER_ROUND or _stalemate(state):
        _end_round(state, now_ms, ch)
        return
    if config.flip_pacing == "tap":
        _schedule_turn(state, now_ms)
        ch.event("turn", seat=state.active_seat)
    elif state.next_flip_ms is not None and state.next_flip_ms < now_ms:
        state.next_flip_ms = now_ms + RESUME_MS


def _close_seat_windows(state: State, now_ms: int, ch: Changes) -> None:
    """Extra time: the seats whose own window ends now can no longer slap; the card stays
    open for the seats with a longer one."""
    flip = state.current
    assert flip is not None
    flip.early_closes.pop(0)
    seats = [s for s in state.seats if flip.shown_ms + state.config.window_ms_for(s) == now_ms]
    ch.event("seat_window_closed", flip=flip.number, seats=seats)


def _close_window(state: State, now_ms: int, ch: Changes) -> None:
    flip = state.current
    assert flip is not None
    flip.open = False
    flip.bot_moves.clear()
    wrong_claims = any(not response.hit for response in flip.responses)
    if state.config.team_mode and flip.outcome is None and wrong_claims:
        flip.outcome = "false_claim"  # no claim won, and someone tapped a wrong card
    slappers = list(dict.fromkeys(response.seat for response in flip.responses))
    ch.event(
        "window_closed",
        flip=flip.number,
        winner=flip.winner,
        outcome=flip.outcome,
        slappers=slappers,
    )
    ch.add(trials=flip_trials(state, flip))
    _finish_flip(state, now_ms, ch)


# ============================================================================================
# Timers


def _next_timer(state: State) -> tuple[int, int, str] | None:
    """The earliest pending timer as (time, tie-break rank, name), or None.

    Same-moment timers run in rank order: the race is settled before a bot's slap at that
    moment (which then no longer competes), slaps before the window closes, the window
    before the next flip.
    """
    if state.game_over:
        return None
    timers: list[tuple[int, int, str]] = []
    flip = state.current
    if flip is not None and flip.open:
        grace_pending = flip.grace_ends_ms is not None and not flip.resolved
        if grace_pending:
            assert flip.grace_ends_ms is not None
            timers.append((flip.grace_ends_ms, 0, "grace"))
        if flip.bot_moves:
            timers.append((flip.bot_moves[0].due_ms, 1, "bot"))
        if flip.early_closes:
            timers.append((flip.early_closes[0], 3, "seat_close"))
        closes = flip.closes_ms
        if grace_pending and flip.grace_ends_ms is not None:
            closes = max(closes, flip.grace_ends_ms)
        timers.append((closes, 3, "close"))
    if state.choice is not None:
        timers.append((state.choice.deadline_ms, 2, "choice"))
    if state.next_round_ms is not None:
        timers.append((state.next_round_ms, 4, "deal"))
    elif (
        state.next_flip_ms is not None and state.choice is None and (flip is None or not flip.open)
    ):
        timers.append((state.next_flip_ms, 5, "flip"))
    return min(timers) if timers else None


def _run_timer(state: State, name: str, at_ms: int, ch: Changes) -> None:
    if name == "grace":
        _end_grace(state, at_ms, ch)
    elif name == "bot":
        flip = state.current
        assert flip is not None
        move = flip.bot_moves.pop(0)
        # A bot's late claim is recorded like a child's: judged on the centre as flipped.
        _record(state, move.seat, move.rt_ms, 0, at_ms, ch, move.place)
    elif name == "choice":
        _apply_choice(state, 0, at_ms, ch, by_default=True)
    elif name == "seat_close":
        _close_seat_windows(state, at_ms, ch)
    elif name == "close":
        _close_window(state, at_ms, ch)
    elif name == "deal":
        _deal_round(state, at_ms, ch)
    else:
        _flip(state, at_ms, state.active_seat, ch)


def _advance(state: State, now_ms: int, ch: Changes) -> int:
    """Run every timer due at or before ``now_ms``, each at its own time; count them."""
    count = 0
    while (timer := _next_timer(state)) is not None and timer[0] <= now_ms:
        _run_timer(state, timer[2], timer[0], ch)
        count += 1
    return count


def next_deadline(state: State) -> int | None:
    """The earliest server time at which :func:`tick` will change something.

    0 before the first tick (the first tick starts the clock); None when nothing will
    happen without an input (or the game is over).
    """
    if state.game_over:
        return None
    if not state.started:
        return 0
    timer = _next_timer(state)
    return timer[0] if timer is not None else None


def tick(state: State, now_ms: int) -> Outcome[State]:
    """Run the timers due at ``now_ms``: grace ends, bot slaps, choice time-outs, window
    closes, deals and automatic or bot flips.

    The first tick starts the clock: in auto pacing (or when a bot has the first turn) the
    first card flips ``READY_MS`` later. A tick with nothing to do returns ``state`` itself.
    """
    work = state.clone()
    ch = Changes()
    started = False
    if not work.started and not work.game_over:
        work.started = started = True
        if work.config.flip_pacing == "auto" or work.active_seat in work.bots:
            work.next_flip_ms = now_ms + READY_MS
        else:
            _schedule_turn(work, now_ms)
        ch.event("started", first_flip_ms=work.next_flip_ms)
    count = _advance(work, now_ms, ch)
    if not started and count == 0:
        return Outcome(state=state)
    return ch.outcome(work)


# ============================================================================================
# Player inputs


def _check_flip_open(state: State, seat: int, number: int, now_ms: int) -> Flip | Refusal:
    flip = state.current
    if number > state.flips:
        return Refusal(gettext_noop("That card has not been flipped yet."))
    if flip is None:
        return Refusal(gettext_noop("Too late: that card has already closed."))
    # The seat's own window: the table's, or longer with extra time.
    closes = min(flip.closes_ms, flip.shown_ms + state.config.window_ms_for(seat))
    if number != flip.number or not flip.open or now_ms >= closes:
        return Refusal(gettext_noop("Too late: that card has already closed."))
    return flip


def _act_flip(state: State, seat: int, now_ms: int, ch: Changes) -> Refusal | None:
    if state.config.flip_pacing == "auto":
        return Refusal(gettext_noop("Cards flip by themselves in this game."))
    if state.next_round_ms is not None:
        return Refusal(gettext_noop("Wait for the next round to be dealt."))
    if state.current is not None and state.current.open:
        return Refusal(gettext_noop("Wait until this card has closed."))
    if state.choice is not None:
        return Refusal(gettext_noop("Wait: a player is choosing a card."))
    if seat != state.active_seat:
        return Refusal(gettext_noop("It is not your turn to flip."))
    _flip(state, now_ms, seat, ch)
    return None


def _act_slap(
    state: State, seat: int, action: SlapAction, now_ms: int, ch: Changes
) -> Refusal | None:
    if state.config.team_mode:
        return Refusal(
            gettext_noop("In team mode, tap the card and then a matching card in the centre.")
        )
    flip = _check_flip_open(state, seat, action.flip, now_ms)
    if isinstance(flip, Refusal):
        return flip
    if any(response.seat == seat for response in flip.responses):
        return Refusal(gettext_noop("You already slapped this card."))
    rt_ms, untimed = reaction_ms(action), untimed_reason(action)
    _record(state, seat, rt_ms, action.rtt_ms, now_ms, ch, untimed=untimed)
    return None


def _act_claim(
    state: State, seat: int, action: ClaimAction, now_ms: int, ch: Changes
) -> Refusal | None:
    if not state.config.team_mode:
        return Refusal(gettext_noop("Claiming centre cards is only for team mode."))
    flip = _check_flip_open(state, seat, action.flip, now_ms)
    if isinstance(flip, Refusal):
        return flip
    if any(response.seat == seat for response in flip.responses):
        return Refusal(gettext_noop("You already tapped this card."))
    # Tablets number the centre cards they see, empty places left out (team end A); while a
    # flip is open they see the centre as it was flipped (view.py), so the flip number is
    # the version of the centre the index refers to.
    places = [place for place, card in enumerate(flip.centre) if card is not None]
    if action.card >= len(places):
        return Refusal(gettext_noop("There is no such card in the centre."))
    rt_ms, untimed = reaction_ms(action), untimed_reason(action)
    _record(state, seat, rt_ms, action.rtt_ms, now_ms, ch, places[action.card], untimed)
    return None


def _act_choose(
    state: State, seat: int, action: ChooseAction, now_ms: int, ch: Changes
) -> Refusal | None:
    choice = state.choice
    if choice is None or choice.seat != seat:
        return Refusal(gettext_noop("You have no card to choose right now."))
    if choice.reason == "player":
        # ``card`` is the index of the player among the choice's options (view: "players").
        if action.card >= len(choice.options):
            return Refusal(gettext_noop("That player has no matching card."))
    elif action.card >= len(state.hands[seat]):
        return Refusal(gettext_noop("You do not have that card."))
    _apply_choice(state, action.card, now_ms, ch, by_default=False)
    return None


def act(state: State, seat: int, action: ActionInput, now_ms: int) -> Outcome[State]:
    """One player input: flip, slap, choose or (team mode) claim.

    Any timer already due at ``now_ms`` runs first (on the copy), so the input is judged at
    the right moment. A refused input returns ``state`` itself and a sentence to show.
    """
    parsed: Action | Refusal = act_preamble(
        state, seat, action, actions=ACTIONS, over=state.game_over
    )
    if isinstance(parsed, Refusal):
        return refused(state, parsed)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    refusal: Refusal | None
    if work.game_over:
        refusal = Refusal(GAME_OVER)
    elif isinstance(parsed, FlipAction):
        refusal = _act_flip(work, seat, now_ms, ch)
    elif isinstance(parsed, SlapAction):
        refusal = _act_slap(work, seat, parsed, now_ms, ch)
    elif isinstance(parsed, ClaimAction):
        refusal = _act_claim(work, seat, parsed, now_ms, ch)
    else:
        refusal = _act_choose(work, seat, parsed, now_ms, ch)
    if refusal is not None:
        return refused(state, refusal)
    return ch.outcome(work)


def takeover(state: State, seat: int, level: str, now_ms: int) -> Outcome[State]:
    """From ``now_ms`` a bot of ``level`` plays ``seat`` (its child left the class mid-game).

    [digital] The seat keeps its cards and its place in the turn order, so nothing else at
    the table changes: the bot answers from the next flip on, and if it is the seat's turn to
    flip it flips after a bot's short pause instead of the long turn time-out. Timers due by
    ``now_ms`` run first. A seat already played by a bot (or a finished game) is left as is.
    """
    if seat not in state.seats or seat in state.bots or state.game_over:
        return Outcome(state=state)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    work.bots[seat] = botlib.BOT_LEVELS.get(level, botlib.BOT_LEVELS["steady"])
    if (
        work.config.flip_pacing == "tap"
        and work.active_seat == seat
        and work.next_flip_ms is not None
    ):
        work.next_flip_ms = min(work.next_flip_ms, now_ms + botlib.BOT_FLIP_DELAY_MS)
    ch.event("bot_takeover", seat=seat)
    return ch.outcome(work)


# ============================================================================================
# Replay


replay = replayer(setup=setup, act=act, tick=tick, takeover=takeover)


def retune(state: State, step: Mapping[str, Any]) -> State | None:
    """The state with new settings (an adaptive ladder's rung), or None while a flip is being
    judged or a slapper is choosing: a card's matching rule and window must not change under
    it. Raises SettingError if the settings are invalid together."""
    if (state.current is not None and state.current.open) or state.choice is not None:
        return None
    return adaptive.retune(state, step)
