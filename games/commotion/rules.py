"""Commotion's rule set (RULES.md §2): setup, player inputs, timers, replay.

The engine contract (ARCHITECTURE.md): pure functions of a :class:`State`, with time only
from ``now_ms`` arguments and randomness only from the state's seeded generator. A state is
never changed in place: ``act`` and ``tick`` return a changed copy, and a refused input
returns the very state it was given with a readable reason.

Phases: ``countdown`` (cards dealt, GO at ``go_at_ms``) → ``playing`` (everyone at once, no
turns) → ``round_over`` (scores shown for ``ROUND_OVER_MS``, then the next round's countdown
starts by itself) … → ``game_over`` after the round in which someone reaches the target.
``setup`` deals round 1 with GO at ``COUNTDOWN_MS`` (the host's game clock starts at 0).

``act`` first runs every timer already due at ``now_ms`` (on its own copy), so a host that
ticks a little late still judges inputs against the right moment; ``tick`` runs them
without an input. Timers run at their own scheduled times, so how often a host ticks never
changes the game.

Inputs (parsed by :mod:`games.commotion.actions`): ``play`` a row card or the waste top onto
a centre pile (or a START onto a new pile, ``pile`` -1); ``turn`` the stock (recycling the
waste when the stock is used up; only when no card of the player's row fits the centre, seed
§2(2)); ``out``; ``extra`` (the all-stuck 6th card).

Trials (see :mod:`games.commotion.trials`): hits and misses come on accepted outcomes of
``act`` and ``tick``; a false alarm (a real card that does not fit where it was played)
comes on the *rejected* outcome of that ``act``, which otherwise changes nothing.

[digital] decisions beyond RULES.md, all deliberate:

* conflicts: the first input the host takes wins; a play that no longer fits because the
  pile grew since the tablet drew it (``pile_size``) is refused with "Too late! Someone
  played there first." (no penalty, no trial: the slot's miss was recorded when it filled);
* a gap refills in the same place in the row, so the other cards keep their positions; a
  START appearing in a row goes to the centre at GO and at once whenever it shows later;
* the 6th card (seed §5(4)): once the table is stuck every seat may take one, and keeps that
  right even when an earlier seat's 6th card made the table playable again; the spell
  ends when every seat has taken its card (or has no refill card left), and a table stuck
  anew gives every seat a fresh right (never more than one 6th card at a time). A play from a row
  of six does not refill the gap (the player plays back down to five); a START drawn
  as the 6th card opens a pile and the row is back at five;
* OUT needs an empty refill pile and no 6th card; a row that shrank below five because the
  refill pile ran out may still call it (RULES.md: "back at 5" means not holding a 6th);
* the stall rule: when every player has recycled their stock ``STALL_RECYCLES`` times since
  the last play (or 6th card) anywhere, and nobody may call OUT or take a 6th card, the
  round ends as if OUT was called by nobody (no bonus). A player with no stock and no waste
  who cannot play counts as having recycled. This guarantees that a table of bots always
  finishes;
* as a last safety net the game ends after ``MAX_ROUNDS`` rounds (highest total wins), so
  a table whose scores never reach the target still finishes.

Events (``Outcome.events``) by kind: ``go`` {round}, ``start`` {seat, pile, card} (a START
from a row opened a pile), ``play`` {seat, source, card, pile, cards, closed}, ``turn``
{seat, cards}, ``recycle`` {seat}, ``extra`` {seat, card}, ``out`` {seat}, ``stall`` {},
``round_over`` {round, out_by, ended_by, rows}, ``deal`` {round, go_at_ms}, ``game_over``
{winners, totals, reason}.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from games.commotion import bots as botlib
from games.commotion import scoring
from games.commotion import trials as triallib
from games.commotion.actions import (
    ACTIONS,
    ExtraAction,
    OutAction,
    PlayAction,
    TurnAction,
)
from games.commotion.cards import card_to_dict
from games.commotion.config import COUNTDOWN_MS as COUNTDOWN_MS
from games.commotion.config import ROUND_OVER_MS as ROUND_OVER_MS
from games.commotion.piles import can_play as can_play
from games.commotion.piles import is_closed, wants
from games.commotion.state import Player
from games.commotion.state import State as State
from games.commotion.tableau import (
    TABLEAU_SIZE,
    can_extra,
    can_out,
    can_turn,
    close_extra_spell,
    deal,
    draw_extra,
    legal_plays,
    may_turn,
    open_starts,
    row_can_play,
    take_from_tableau,
    turn_stock,
)
from games.commotion.view import view as view
from games.engine import adaptive
from games.engine.changes import Changes
from games.engine.contract import Bots, Outcome
from games.engine.fingerprint import state_fingerprint as state_fingerprint
from games.engine.refusals import GAME_OVER, Refusal, act_preamble, refused
from games.engine.replay import replayer
from games.engine.table import seats_check
from games.engine.translation import gettext_noop

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.commotion.bots import BotSkill
    from games.commotion.cards import Card
    from games.commotion.config import Config
    from games.commotion.state import EndReason, Source
    from games.engine.actions import ActionInput

MIN_SEATS, MAX_SEATS = 2, 6
# See the module doc: the stall rule and the game's safety net.
STALL_RECYCLES = 2
MAX_ROUNDS = 40

TOO_LATE = gettext_noop("Too late! Someone played there first.")
ROW_FIRST = gettext_noop("A card in your row fits a pile: play it first!")
EXTRA_TAKEN = gettext_noop("You took your extra card: the others may take theirs.")

# ============================================================================================
# Setup


def _check_seats(seats: tuple[int, ...], bots: Mapping[int, BotSkill]) -> None:
    seats_check(seats, bots, low=MIN_SEATS, high=MAX_SEATS, skill_type=botlib.BotSkill)


def setup(config: Config, seats: Sequence[int], seed: int, bots: Bots[BotSkill] = None) -> State:
    """A new table: round 1 dealt, counting down to GO at ``COUNTDOWN_MS``.

    ``seats`` are seat numbers (each seat's deck has its own back colour; a card's owner is
    its seat); ``bots`` maps the seats played by the computer to their skill. Raises
    :class:`SettingError` (a ValueError) for a bad table.
    """
    seat_order = tuple(seats)
    bot_skills = dict(bots or {})
    _check_seats(seat_order, bot_skills)
    state = State(
        config=config,
        seats=seat_order,
        bots=bot_skills,
        rng=random.Random(seed),
        players={seat: Player(seat) for seat in seat_order},
        phase="countdown",
        round=1,
        go_at_ms=COUNTDOWN_MS,
        bot_due={seat: None for seat in seat_order if seat in bot_skills},
        opportunities={seat: [] for seat in seat_order if seat not in bot_skills},
    )
    deal(state)
    return state


# ============================================================================================
# After every change


def _seat_stalled(state: State, seat: int) -> bool:
    """This seat cannot (or will not) move the game on: see the stall rule."""
    player = state.players[seat]
    recycled = player.quiet_recycles >= STALL_RECYCLES
    # Nothing to cycle and nothing to play counts as having recycled.
    if not recycled and (can_turn(player) or legal_plays(state, seat)):
        return False
    return not can_out(state, seat) and not can_extra(state, seat)


def _stalled(state: State) -> bool:
    return state.phase == "playing" and all(_seat_stalled(state, s) for s in state.seats)


def _schedule_bot(state: State, seat: int, now_ms: int) -> None:
    tempo = state.config.bot_speed
    state.bot_due[seat] = now_ms + botlib.move_delay(state.bots[seat], tempo, state.rng)


def _after_change(
    state: State, now_ms: int, ch: Changes, *, own_play: int | None = None, progress: bool = False
) -> None:
    """What follows any move: the stall counters, trials, the stall rule, idle bots wake."""
    if progress:
        for player in state.players.values():
            player.quiet_recycles = 0
    close_extra_spell(state)
    ch.add(trials=triallib.sync(state, now_ms, own_play=own_play))
    if _stalled(state):
        ch.event("stall")
        _end_round(state, now_ms, None, "stall", ch)
        return
    # Bots with nothing to do sleep; any change may have given them something.
    for seat in state.seats:
        if seat in state.bots and state.bot_due.get(seat) is None:
            _schedule_bot(state, seat, now_ms)


# ============================================================================================
# Rounds


def _go(state: State, now_ms: int, ch: Changes) -> None:
    """GO: play starts for everyone; STARTs dealt into rows open piles at once."""
    state.phase = "playing"
    ch.event("go", round=state.round)
    for seat in state.seats:
        ch.add(open_starts(state, seat))
    for seat in state.seats:
        if seat in state.bots:
            _schedule_bot(state, seat, now_ms)
    _after_change(state, now_ms, ch)


def _end_round(
    state: State, now_ms: int, out_by: int | None, reason: EndReason, ch: Changes
) -> None:
    """Score the round; then the game ends, or the scores show until the next deal."""
    ch.add(trials=triallib.close_all(state))
    bonus = scoring.out_bonus(state.round, state.rng) if out_by is not None else 0
    rows = scoring.score_round(state, out_by, bonus)
    state.rounds += rows
    state.out_by = out_by
    state.ended_by = reason
    state.bot_due = {seat: None for seat in state.bot_due}
    state.go_at_ms = None
    ch.event("round_over", round=state.round, out_by=out_by, ended_by=reason, rows=rows)
    totals = {seat: state.players[seat].total for seat in state.seats}
    reached = scoring.reached_target(totals, state.config.target_score)
    if reached or state.round >= MAX_ROUNDS:
        state.phase = "game_over"
        state.next_round_at_ms = None
        state.winners = scoring.leaders(totals)
        ch.event(
            "game_over",
            winners=list(state.winners),
            totals={str(seat): total for seat, total in totals.items()},
            reason="target" if reached else "round_limit",
        )
    else:
        state.phase = "round_over"
        state.next_round_at_ms = now_ms + ROUND_OVER_MS


def _new_round(state: State, now_ms: int, ch: Changes) -> None:
    state.round += 1
    deal(state)
    state.phase = "countdown"
    state.go_at_ms = now_ms + COUNTDOWN_MS
    state.next_round_at_ms = None
    state.out_by = None
    state.ended_by = None
    ch.event("deal", round=state.round, go_at_ms=state.go_at_ms)


# ============================================================================================
# Moves (shared by players and bots)


def _misfit_reason(card: Card, pile: Sequence[Card]) -> str:
    if is_closed(pile):
        return gettext_noop("That pile is closed.")
    if card.is_start:
        return gettext_noop("A START card can only begin a new pile.")
    need = wants(pile)
    if need == "two":
        return gettext_noop("That pile needs a 2 first.")
    if need == "stop":
        return gettext_noop("That pile needs a STOP card now.")
    return gettext_noop("That card does not fit on that pile.")


def _do_play(
    state: State,
    seat: int,
    source: Source,
    index: int,
    pile: int,
    now_ms: int,
    ch: Changes,
    *,
    pile_size: int = -1,
    rt_ms: int = 0,
    rtt_ms: int = 0,
) -> Refusal | None:
    player = state.players[seat]
    if source == "tableau":
        if index >= len(player.tableau):
            return Refusal(gettext_noop("There is no card at that place in your row."))
        card = player.tableau[index]
    else:
        if not player.waste:
            return Refusal(gettext_noop("Your waste pile is empty."))
        card = player.waste[-1]
    play = triallib.Play(seat, (source, card), rt_ms, rtt_ms)
    if pile == -1:
        if not card.is_start:
            return Refusal(
                gettext_noop("Only a START card can begin a new pile."),
                triallib.false_alarm(state, play, pile=len(state.centre)),
            )
    elif pile >= len(state.centre):
        return Refusal(gettext_noop("There is no such pile."))
    else:
        target = state.centre[pile]
        if not can_play(card, target):
            # The race: it fitted the pile as the tablet showed it, and someone got there
            # first. Not the player's mistake, so no false alarm.
            if 0 <= pile_size < len(target) and can_play(card, target[:pile_size]):
                seen_top = target[pile_size - 1] if pile_size else None
                return Refusal(TOO_LATE, triallib.late(state, play, pile=pile, top=seen_top))
            return Refusal(
                _misfit_reason(card, target),
                triallib.false_alarm(state, play, pile=pile, top=target[-1]),
            )
    hit = triallib.hit(
        state,
        play,
        now_ms,
        pile=len(state.centre) if pile == -1 else pile,
        top=None if pile == -1 else state.centre[pile][-1],
    )
    if hit is not None:
        ch.trials.append(hit)
    if source == "tableau":
        take_from_tableau(state, seat, index)
    else:
        player.waste.pop()
    if pile == -1:
        state.centre.append([card])
        pile = len(state.centre) - 1
    else:
        state.centre[pile].append(card)
    ch.event(
        "play",
        seat=seat,
        source=source,
        card=card_to_dict(card),
        pile=pile,
        cards=len(state.centre[pile]),
        closed=is_closed(state.centre[pile]),
    )
    if source == "tableau":
        ch.add(open_starts(state, seat))
    _after_change(state, now_ms, ch, own_play=seat, progress=True)
    return None


def _do_turn(state: State, seat: int, now_ms: int, ch: Changes) -> Refusal | None:
    player = state.players[seat]
    if not can_turn(player):
        return Refusal(gettext_noop("Your stock and waste are both empty."))
    if row_can_play(state, seat):
        return Refusal(ROW_FIRST)
    turned, recycled = turn_stock(player, state.config.stock_turn)
    if recycled:
        player.quiet_recycles += 1
        ch.event("recycle", seat=seat)
    else:
        ch.event("turn", seat=seat, cards=turned)
    _after_change(state, now_ms, ch)
    return None


def _do_extra(state: State, seat: int, now_ms: int, ch: Changes) -> Refusal | None:
    player = state.players[seat]
    if not can_extra(state, seat):
        if state.phase != "playing":
            return Refusal(gettext_noop("Wait for GO!"))
        if not player.refill:
            return Refusal(gettext_noop("Your refill pile is empty."))
        if len(player.tableau) > TABLEAU_SIZE:
            return Refusal(gettext_noop("You already have an extra card."))
        if len(player.tableau) < TABLEAU_SIZE:
            return Refusal(gettext_noop("An extra card needs a full row of five."))
        if seat in state.extra_taken:
            return Refusal(EXTRA_TAKEN)
        return Refusal(gettext_noop("Someone can still play a card from their row."))
    card = draw_extra(state, seat)
    ch.event("extra", seat=seat, card=card_to_dict(card))
    ch.add(open_starts(state, seat))
    # A new card in play is progress: the stall counters start again.
    _after_change(state, now_ms, ch, progress=True)
    return None


def _do_out(state: State, seat: int, now_ms: int, ch: Changes) -> Refusal | None:
    player = state.players[seat]
    if not can_out(state, seat):
        if player.refill:
            return Refusal(gettext_noop("You can call OUT once your refill pile is empty."))
        return Refusal(gettext_noop("Play your extra card first: OUT needs five cards or fewer."))
    ch.event("out", seat=seat)
    _end_round(state, now_ms, seat, "out", ch)
    return None


# ============================================================================================
# Bots and timers


def _bot_move(state: State, seat: int, now_ms: int, ch: Changes) -> None:
    """One move of the bot at ``seat``, due now; it then schedules its next one."""
    skill = state.bots[seat]
    options = botlib.BotOptions(
        plays=tuple(legal_plays(state, seat)),
        can_out=can_out(state, seat),
        can_extra=can_extra(state, seat),
        can_turn=may_turn(state, seat),
    )
    move = botlib.choose_move(skill, state.rng, options)
    if move is None:
        state.bot_due[seat] = None  # asleep until something changes
        return
    _schedule_bot(state, seat, now_ms)
    if move.kind == "out":
        refusal = _do_out(state, seat, now_ms, ch)
    elif move.kind == "extra":
        refusal = _do_extra(state, seat, now_ms, ch)
    elif move.kind == "turn":
        refusal = _do_turn(state, seat, now_ms, ch)
    else:
        refusal = _do_play(state, seat, move.source, move.card, move.pile, now_ms, ch)
    # Bots choose among legal moves only (botlib.BotOptions), so none is ever refused.
    assert refusal is None, refusal.message


def _next_timer(state: State) -> tuple[int, int] | None:
    """The earliest pending timer as (time, seat order), or None.

    Bots due at the same moment move in seat order; phase changes have no seat (-1).
    """
    if state.phase == "countdown" and state.go_at_ms is not None:
        return (state.go_at_ms, -1)
    if state.phase == "round_over" and state.next_round_at_ms is not None:
        return (state.next_round_at_ms, -1)
    if state.phase != "playing":
        return None
    due = [
        (at, order)
        for order, seat in enumerate(state.seats)
        if (at := state.bot_due.get(seat)) is not None
    ]
    return min(due) if due else None


def _run_timer(state: State, at_ms: int, order: int, ch: Changes) -> None:
    if state.phase == "countdown":
        _go(state, at_ms, ch)
    elif state.phase == "round_over":
        _new_round(state, at_ms, ch)
    else:
        _bot_move(state, state.seats[order], at_ms, ch)


def _advance(state: State, now_ms: int, ch: Changes) -> None:
    """Run every timer due at or before ``now_ms``, each at its own time."""
    while (timer := _next_timer(state)) is not None and timer[0] <= now_ms:
        _run_timer(state, *timer, ch)


def next_deadline(state: State) -> int | None:
    """The earliest game time at which :func:`tick` will change something: GO, the next
    round's deal, or a bot's move; None when nothing happens without an input."""
    timer = _next_timer(state)
    return timer[0] if timer is not None else None


def tick(state: State, now_ms: int) -> Outcome[State]:
    """Run the timers due at ``now_ms``: GO, bot moves, the next deal. A tick with nothing
    to do returns ``state`` itself."""
    timer = _next_timer(state)
    if timer is None or timer[0] > now_ms:
        return Outcome(state=state)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    return ch.outcome(work)


# ============================================================================================
# Player inputs


def _check_phase(state: State) -> Refusal | None:
    if state.phase == "countdown":
        return Refusal(gettext_noop("Wait for GO!"))
    if state.phase == "round_over":
        return Refusal(gettext_noop("The round is over."))
    if state.phase == "game_over":
        return Refusal(GAME_OVER)
    return None


def act(state: State, seat: int, action: ActionInput, now_ms: int) -> Outcome[State]:
    """One player input: play, turn, out or extra.

    Any timer already due at ``now_ms`` runs first (on the copy), so the input is judged at
    the right moment. A refused input returns ``state`` itself and a sentence to show; a
    refused play of a card that does not fit also carries its false-alarm trial.
    """
    parsed = act_preamble(state, seat, action, actions=ACTIONS, over=state.phase == "game_over")
    if isinstance(parsed, Refusal):
        return refused(state, parsed)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    refusal = _check_phase(work)
    if refusal is None:
        if isinstance(parsed, PlayAction):
            refusal = _do_play(
                work,
                seat,
                parsed.source,
                parsed.index,
                parsed.pile,
                now_ms,
                ch,
                pile_size=parsed.pile_size,
                rt_ms=parsed.rt_ms,
                rtt_ms=parsed.rtt_ms,
            )
        elif isinstance(parsed, TurnAction):
            refusal = _do_turn(work, seat, now_ms, ch)
        elif isinstance(parsed, ExtraAction):
            refusal = _do_extra(work, seat, now_ms, ch)
        else:
            assert isinstance(parsed, OutAction)
            refusal = _do_out(work, seat, now_ms, ch)
    if refusal is not None:
        return refused(state, refusal)
    return ch.outcome(work)


def takeover(state: State, seat: int, level: str, now_ms: int) -> Outcome[State]:
    """From ``now_ms`` a bot of ``level`` plays ``seat`` (its child left the class mid-game).

    [digital] The seat keeps its piles and its score, and the race goes on: during play the
    bot makes its first move after its usual thinking time. Timers due by ``now_ms`` run
    first. A seat already played by a bot (or a finished game) is left as is.
    """
    if seat not in state.seats or seat in state.bots or state.phase == "game_over":
        return Outcome(state=state)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    work.bots[seat] = botlib.BOT_LEVELS.get(level, botlib.BOT_LEVELS["steady"])
    if work.phase == "playing":
        _schedule_bot(work, seat, now_ms)
    ch.event("bot_takeover", seat=seat)
    return ch.outcome(work)


# ============================================================================================
# Replay


replay = replayer(setup=setup, act=act, tick=tick, takeover=takeover)


def retune(state: State, step: Mapping[str, Any]) -> State | None:
    """The state with new settings (an adaptive ladder's rung): the stock turn applies from
    the next turn, the refill size from the next deal. Raises SettingError if invalid."""
    return adaptive.retune(state, step)
