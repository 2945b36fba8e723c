"""Riff Raff's engine (RULES.md §3): setup, player inputs, timers and physics, replay.

The engine contract (ARCHITECTURE.md): pure functions of a :class:`State`, with time only
from ``now_ms`` arguments and randomness only from the state's seeded generator (the ship's
wave phases come from the seed too). ``act`` and ``tick`` never change the state they are
given; a refused input returns that very state with a readable reason.

Phases, round by round (``rounds_total``: 10, or 20 for two players, who take their ten
cards back after round 10):

* ``choosing``: every seat secretly picks one of its remaining cards (``choose_card``);
  nobody else sees a pick until all are in, then all are revealed at once.
* ``captain_tie``: the highest card is captain; a tie for highest is settled by last
  round's captain (``pick_captain``). Before round 1 the captain is the seat the teacher
  set (``Config.first_captain``; the first seat unless changed), as the seed's oldest
  player, so a round-1 tie is settled by that seat too.
* ``order_tie``: seats place in descending card order; the captain orders tied seats
  (``order``: the named seats go first, in that order; one left over needs no naming). The
  captain always goes first among seats that tie with the captain's own card.
* ``declaring``: a seat whose card is 5-10 and whose area already holds cargo declares 1
  or 2 pieces (``declare``); with a single piece left it places that one without declaring.
  Every other turn places one piece.
* ``placing``: the active seat drops its next piece (``drop``) over its area's drop zone.
* ``settling``: the ship rolls on the wave (one wave period, ``ROLL_STEPS``; none in a calm
  sea) and is stepped until nothing moves. Then the next declared piece, or the next seat.
* ``catching``: the moment a piece leaves the ship the active seat's placing ends (a
  declared second piece is not placed) and every piece that leaves the ship during the turn
  can be caught (``catch``) by the active seat for the catch window. Caught pieces leave the
  game; uncaught ones go to the active seat's supply when the window closes. The turn ends
  when no piece is catchable any more and the ship is still.
* ``game_over``: a seat whose supply is empty at the end of its turn wins at once;
  otherwise after the last round the fewest pieces left win (ties share the win).

Physics time. The ship moves only in fixed steps of ``STEP_MS`` on a grid that starts at
the drop: ``sim_ms`` is the game time the ship has reached. ``tick(state, now)`` runs every
timer due at or before ``now`` in time order (a physics step, a bot's catch, a catch window
closing, a bot's decision; at the same moment in that order) and checks the rules after
every single step (pieces leaving the ship via ``off_ship()``, the ship coming to rest via
``moving()``). ``act`` runs them too before it applies the input. Timers run at their own
scheduled times, so how often a host ticks never changes the game, and a tick that only
moved things (physics steps, no event, no trial) returns ``logged=False``: replaying the
next logged entry recomputes it exactly (tests/games/riff_raff/test_game.py proves this
against a live table ticking every 16 ms).

Checkpoints. When a placement is over (the piece settled, or the turn of a fall ends) the
world's snapshot is due: every body's position, angle and velocities and the wave's
counters (``Ship.snapshot``), recorded in the ship's history (games.riff_raff.state). A
tick that takes one ends right there and returns it as ``Outcome.checkpoint`` (the host
logs it with the tick; what was also due runs on the next tick, at its own time). Replay
``restore``s the logged one after that tick, so a restart puts the bodies where the live
table had them rather than trusting float replay alone. A placement that ends in an input
(a catch of the last falling piece) has its checkpoint due at once, for the next tick; only
if another input comes first does that input take it, unlogged.

[digital] decisions beyond RULES.md, all deliberate:

* the catch window is the only end of a catch chance. With real gravity a piece reaches the
  water 0.1-0.5 s after leaving the ship, well inside any catch window (1-5 s), so the
  moment it reaches the sea does not end the chance: the tablet shows it falling for the
  window and the physics keeps it where it hit the water until it is caught or lost;
* a drop whose spot has no room (a plank by the mast, a stack up to the yardarm above) goes
  to the nearest spot over the area that has room (same angle first, then flat, then on
  end); only when nothing fits anywhere over the area does the piece stay in the supply,
  and the turn ends (event ``no_room``). A drop outside the zone is refused;
* the site seats bots at its standard level ("steady"); those play at the table's
  ``bot_skill`` setting instead. Bots given any other skill keep it;
* no turn timers: a phase that waits for a human waits (the teacher can pause or end).

Events (``Outcome.events``) by kind: ``chosen`` {seat}, ``reveal`` {cards}, ``captain_tie``
{seats, chooser}, ``captain`` {seat, by: card | previous_captain | random}, ``order_tie``
{seats, captain}, ``ordered`` {captain, seats}, ``order`` {seats}, ``turn`` {seat, area,
declare}, ``declared`` {seat, pieces}, ``drop`` {seat, piece, shape, area, x, angle,
moved}, ``no_room`` {seat, piece, area}, ``fall`` {seat, piece, left_ms, until_ms},
``settled`` {seat, piece}, ``still`` {seat}, ``caught`` {seat, piece}, ``lost`` {seat,
piece}, ``turn_over`` {seat, pieces_left}, ``round_over`` {round}, ``cards_back`` {round},
``round`` {round}, ``game_over`` {winners, reason, pieces_left}.
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import TYPE_CHECKING, Any

from games.engine import adaptive
from games.engine.changes import Changes
from games.engine.contract import Bots, Outcome
from games.engine.fingerprint import state_fingerprint as state_fingerprint
from games.engine.refusals import Refusal, act_preamble, refused
from games.engine.replay import replayer
from games.engine.table import seats_check
from games.engine.translation import gettext_noop
from games.riff_raff import bots as botlib
from games.riff_raff import trials as triallib
from games.riff_raff.actions import (
    ACTIONS,
    Action,
    Catch,
    ChooseCard,
    Declare,
    Drop,
    Order,
    PickCaptain,
)
from games.riff_raff.captaincy import TieUndecided, captain_of, first_captain, placing_order
from games.riff_raff.config import CARDS, DECLARE_FROM_AREA, MAX_SETTLE_MS, ROUNDS, Config
from games.riff_raff.ship import (
    AREAS,
    WAVE_PERIOD_STEPS,
    release_height_ok,
)
from games.riff_raff.ship import (
    STEP_MS as STEP_MS,
)
from games.riff_raff.state import Falling, Piece, Player, ShipLine
from games.riff_raff.state import State as State
from games.riff_raff.view import frame as frame
from games.riff_raff.view import view as view

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.actions import ActionInput
    from games.riff_raff.bots import BotSkill
    from games.riff_raff.ship import DropZone
    from games.riff_raff.state import EndReason

MIN_SEATS, MAX_SEATS = 2, 4
# One wave period (about 3 s) of rolling after every drop, unless the sea is calm.
ROLL_STEPS = WAVE_PERIOD_STEPS
# A drop with no room at its spot tries this many spots across the zone per angle.
SPOTS = 13

# Timer kinds, in the order they run when due at the same moment.
_CHECKPOINT, _STEP, _BOT_CATCH, _EXPIRE, _BOT = 0, 1, 2, 3, 4
_TURN_PHASES = ("declaring", "placing", "settling", "catching")


# ============================================================================================
# Setup


def _check_seats(seats: tuple[int, ...], bots: Mapping[int, BotSkill]) -> None:
    seats_check(seats, bots, low=MIN_SEATS, high=MAX_SEATS, skill_type=botlib.BotSkill)


def _table_skill(config: Config, skill: BotSkill) -> BotSkill:
    """Bots at the site's standard level play at the table's ``bot_skill`` setting."""
    if skill == botlib.BOT_LEVELS["steady"]:
        return botlib.BOT_LEVELS[config.bot_skill]
    return skill


def setup(config: Config, seats: Sequence[int], seed: int, bots: Bots[BotSkill] = None) -> State:
    """A new table in round 1's card choice (the host's game clock starts at 0).

    Each seat gets cards 1-10 and ``config.pieces_for(players)`` pieces whose shapes cycle
    through ``config.shapes`` (every seat the same assortment); piece ids are unique at the
    table. Raises :class:`SettingError` (a ValueError) for a bad table.
    """
    seat_order = tuple(seats)
    given = dict(bots or {})
    _check_seats(seat_order, given)
    count = config.pieces_for(len(seat_order))
    shapes = config.shapes
    players: dict[int, Player] = {}
    cargo: dict[int, Piece] = {}
    for seat in seat_order:
        supply = []
        for k in range(count):
            piece = Piece(len(cargo), shapes[k % len(shapes)], seat)
            cargo[piece.id] = piece
            supply.append(piece)
        players[seat] = Player(seat, cards=list(CARDS), supply=supply)
    state = State(
        config=config,
        seats=seat_order,
        bots={seat: _table_skill(config, skill) for seat, skill in given.items()},
        rng=random.Random(seed),
        players=players,
        cargo=cargo,
        ship=ShipLine(seed=seed, wave_strength=config.wave_strength),
        rounds_total=Config.rounds_for(len(seat_order)),
        captain=first_captain(config, seat_order),
    )
    _wake_bots(state, 0)
    return state


# ============================================================================================
# Rounds: cards, captain, order


def _choose(state: State, seat: int, card: int, at: int, ch: Changes) -> None:
    state.chosen[seat] = card
    ch.event("chosen", seat=seat)
    if len(state.chosen) == len(state.seats):
        _reveal(state, at, ch)


def _reveal(state: State, at: int, ch: Changes) -> None:
    cards = dict(state.chosen)
    state.revealed = cards
    for seat, card in cards.items():
        state.players[seat].cards.remove(card)
        state.players[seat].played.append(card)
    ch.event("reveal", cards={str(seat): card for seat, card in sorted(cards.items())})
    state.previous_captain = state.captain
    state.captain = None
    try:
        captain = captain_of(cards, previous_captain=state.previous_captain)
    except TieUndecided as tie:
        tied = sorted(tie.seats)
        if state.previous_captain is None:
            # Round 1: no last captain to ask; the table's generator decides.
            _set_captain(state, state.rng.choice(tied), "random", at, ch)
            return
        state.phase = "captain_tie"
        state.tied = tied
        ch.event("captain_tie", seats=list(tied), chooser=state.previous_captain)
        return
    _set_captain(state, captain, "card", at, ch)


def _set_captain(state: State, seat: int, how: str, at: int, ch: Changes) -> None:
    state.captain = seat
    state.tied = []
    ch.event("captain", seat=seat, by=how)
    # The captain goes first among the seats that showed the captain's card.
    state.order_choice = [seat]
    _settle_order(state, at, ch)


def _settle_order(state: State, at: int, ch: Changes) -> None:
    assert state.revealed is not None
    try:
        order = placing_order(state.revealed, state.order_choice)
    except TieUndecided as tie:
        state.phase = "order_tie"
        state.tied = [seat for seat in tie.seats if seat not in state.order_choice]
        ch.event("order_tie", seats=list(state.tied), captain=state.captain)
        return
    state.order = order
    state.tied = []
    state.turn = 0
    ch.event("order", seats=list(order))
    _start_turn(state, at, ch)


def _end_round(state: State, at: int, ch: Changes) -> None:
    ch.event("round_over", round=state.round)
    if state.round >= state.rounds_total:
        left = {seat: len(state.players[seat].supply) for seat in state.seats}
        fewest = min(left.values())
        _game_over(state, [seat for seat in state.seats if left[seat] == fewest], "rounds", ch)
        return
    state.round += 1
    if (state.round - 1) % ROUNDS == 0:
        # Two-player variant: after ten rounds everyone takes their ten cards back.
        for player in state.players.values():
            player.cards = list(CARDS)
            player.played = []
        ch.event("cards_back", round=state.round)
    state.phase = "choosing"
    state.chosen = {}
    state.revealed = None
    state.tied = []
    state.order_choice = []
    state.order = []
    state.turn = -1
    ch.event("round", round=state.round)


def _game_over(state: State, winners: list[int], reason: EndReason, ch: Changes) -> None:
    state.phase = "game_over"
    state.winners = winners
    state.end_reason = reason
    state.bot_due = {}
    state.physics = False
    ch.event(
        "game_over",
        winners=list(winners),
        reason=reason,
        pieces_left={str(seat): len(state.players[seat].supply) for seat in state.seats},
    )


# ============================================================================================
# Turns: declaring, dropping, settling, catching


def _start_turn(state: State, at: int, ch: Changes) -> None:
    seat = state.order[state.turn]
    assert state.revealed is not None
    area = state.revealed[seat]
    supply = state.players[seat].supply
    state.declared = None
    state.to_place = 1
    state.current = None
    loaded = bool(state.ship.world().pieces_in_area(area))
    declare = area >= DECLARE_FROM_AREA and loaded and len(supply) >= 2
    state.phase = "declaring" if declare else "placing"
    ch.event("turn", seat=seat, area=area, declare=declare)
    if not supply:  # pragma: no cover - a seat with no cargo has already won
        _end_turn(state, at, ch)


def _end_turn(state: State, at: int, ch: Changes) -> None:
    seat = state.active
    assert seat is not None
    if state.phase == "catching":
        state.checkpoint_ms = at  # the fall is resolved: this placement is over
    supply = state.players[seat].supply
    ch.event("turn_over", seat=seat, pieces_left=len(supply))
    state.declared = None
    state.to_place = 0
    state.current = None
    if not supply:
        _game_over(state, [seat], "cargo_out", ch)
        return
    state.turn += 1
    if state.turn < len(state.order):
        _start_turn(state, at, ch)
    else:
        _end_round(state, at, ch)


def _declare(state: State, seat: int, pieces: int, ch: Changes) -> None:
    state.declared = pieces
    state.to_place = pieces
    state.phase = "placing"
    ch.event("declared", seat=seat, pieces=pieces)


def _spots(zone: DropZone, x: float, angle: float) -> list[tuple[float, float]]:
    """Where a drop may go, best first: the spot asked for, then spots across the zone
    nearest first, at the asked angle, flat, then on end."""
    width = zone.x_max - zone.x_min
    xs = sorted(
        (zone.x_min + width * k / (SPOTS - 1) for k in range(SPOTS)),
        key=lambda c: (abs(c - x), c),
    )
    spots = [(x, angle)]
    for turn in dict.fromkeys((angle, 0.0, math.pi / 2)):
        spots += [(round(c, 3), turn) for c in xs if (round(c, 3), turn) != (x, angle)]
    return spots


def _release(
    state: State, piece: Piece, area: int, x: float, angle: float
) -> tuple[float, float] | None:
    """Put ``piece`` on the ship at the first spot with room; where, or None (no room)."""
    for spot_x, spot_angle in _spots(AREAS[area].zone, x, angle):
        refusal = state.ship.place(
            piece_id=piece.id,
            owner=piece.owner,
            shape=piece.shape,
            area=area,
            x=spot_x,
            angle=spot_angle,
        )
        if refusal is None:
            return spot_x, spot_angle
    return None


def _drop(
    state: State, seat: int, piece: Piece, x: float, angle: float, at: int, ch: Changes
) -> None:
    area = state.area_of_turn()
    assert area is not None
    spot = _release(state, piece, area, x, angle)
    if spot is None:
        ch.event("no_room", seat=seat, piece=piece.id, area=area)
        state.to_place = 0
        _end_turn(state, at, ch)
        return
    player = state.players[seat]
    player.supply.remove(piece)
    player.placed += 1
    state.to_place -= 1
    state.current = piece
    # The physics grid starts at the drop.
    start = max(at, state.sim_ms)
    steps = ROLL_STEPS if state.config.wave_strength > 0 else 0
    if steps:
        state.ship.roll(steps)
    state.sim_ms = start
    state.physics = True
    state.settle_limit_ms = start + steps * STEP_MS + MAX_SETTLE_MS
    state.phase = "settling"
    ch.event(
        "drop",
        seat=seat,
        piece=piece.id,
        shape=piece.shape,
        area=area,
        x=spot[0],
        angle=spot[1],
        moved=spot != (x, angle),
    )


def _placement_trial(state: State, seat: int, piece: Piece, stayed: bool, ch: Changes) -> None:
    if seat in state.bots:
        return
    area = state.area_of_turn()
    assert area is not None
    ch.trials.append(
        triallib.placement(
            state.config, seat, piece, area=area, round_number=state.round, stayed=stayed
        )
    )


def _physics_step(state: State, at: int, ch: Changes) -> None:
    state.sim_ms = at
    for piece_id in state.ship.step():
        _fell(state, piece_id, at, ch)
    if not state.ship.world().moving() or at >= state.settle_limit_ms:
        state.physics = False
        _came_to_rest(state, at, ch)


def _fell(state: State, piece_id: int, at: int, ch: Changes) -> None:
    seat = state.active
    assert seat is not None
    piece = state.cargo[piece_id]
    falling = Falling(piece, at, at + state.config.catch_window_ms_for(seat))
    if seat in state.bots:
        rt = botlib.plan_catch(state.bots[seat], state.rng)
        if rt is not None and at + rt < falling.until_ms:
            falling = dataclasses.replace(falling, bot_catch_ms=at + rt)
    state.falling.append(falling)
    ch.event("fall", seat=seat, piece=piece_id, left_ms=at, until_ms=falling.until_ms)
    if state.phase == "settling":
        # RULES.md §3 "Falling": the active player's placing ends at once.
        if state.current is not None:
            _placement_trial(state, seat, state.current, False, ch)
        state.phase = "catching"
        state.to_place = 0
        state.current = None


def _came_to_rest(state: State, at: int, ch: Changes) -> None:
    seat = state.active
    assert seat is not None
    if state.phase == "settling":
        piece = state.current
        assert piece is not None
        state.checkpoint_ms = at  # the piece stayed: this placement is over
        _placement_trial(state, seat, piece, True, ch)
        ch.event("settled", seat=seat, piece=piece.id)
        state.current = None
        if state.to_place > 0:
            state.phase = "placing"
        else:
            _end_turn(state, at, ch)
    else:
        ch.event("still", seat=seat)
        if not state.falling:
            _end_turn(state, at, ch)


def _take_falling(state: State, piece_id: int) -> tuple[int, int, Falling]:
    """The falling piece ``piece_id`` leaves the ship, caught or lost: the seat whose turn it
    is, the area of that turn, and the piece's fall."""
    seat = state.active
    area = state.area_of_turn()
    assert seat is not None
    assert area is not None
    index = next(i for i, f in enumerate(state.falling) if f.piece.id == piece_id)
    falling = state.falling.pop(index)
    state.ship.remove(piece_id)
    return seat, area, falling


def _after_falling(state: State, at: int, ch: Changes) -> None:
    if state.phase == "catching" and not state.physics and not state.falling:
        _end_turn(state, at, ch)


def _catch(
    state: State, piece_id: int, at: int, ch: Changes, *, rt_ms: int = 0, rtt_ms: int = 0
) -> None:
    seat, area, falling = _take_falling(state, piece_id)
    ch.event("caught", seat=seat, piece=piece_id)
    if seat not in state.bots:
        ch.trials.append(
            triallib.caught(
                state.config,
                seat,
                falling.piece,
                area=area,
                round_number=state.round,
                rt_ms=rt_ms,
                rtt_ms=rtt_ms,
                elapsed_ms=at - falling.left_ms,
            )
        )
    _after_falling(state, at, ch)


def _lose(state: State, piece_id: int, at: int, ch: Changes) -> None:
    """The catch window closed: the piece goes to the active seat's supply."""
    seat, area, falling = _take_falling(state, piece_id)
    state.players[seat].supply.append(falling.piece)
    ch.event("lost", seat=seat, piece=piece_id)
    if seat not in state.bots:
        ch.trials.append(
            triallib.missed(state.config, seat, falling.piece, area=area, round_number=state.round)
        )
    _after_falling(state, at, ch)


# ============================================================================================
# Inputs: checking and applying (shared by players and bots)


def _supply_piece(player: Player, piece_id: int | None) -> Piece | None:
    if piece_id is None:
        return player.supply[0] if player.supply else None
    return next((piece for piece in player.supply if piece.id == piece_id), None)


def _turn_refusal(state: State, seat: int, phase: str) -> str | None:
    """Why ``seat`` may not make a turn move of ``phase`` now (None: it may)."""
    if state.active is None:
        return gettext_noop("Wait until the cards are revealed and the order is set.")
    if seat != state.active:
        return gettext_noop("It is not your turn.")
    if state.phase == phase:
        return None
    if phase == "catching":
        return gettext_noop("Nothing is falling.")
    if state.phase == "settling":
        return gettext_noop("Wait until the ship is still.")
    if state.phase == "declaring":
        return gettext_noop("First say whether you place 1 or 2 pieces.")
    if state.phase == "catching":
        return gettext_noop("Catch the falling cargo first!")
    return gettext_noop("There is nothing to declare now.")


@dataclasses.dataclass(frozen=True)
class _Tie:
    """A tie one player settles by naming tied players, and what anyone else is told."""

    phase: str
    no_tie: str
    not_yours: str
    not_tied: str


_CAPTAIN_TIE = _Tie(
    "captain_tie",
    no_tie=gettext_noop("There is no tie for captain to settle."),
    not_yours=gettext_noop("The last captain settles the tie."),
    not_tied=gettext_noop("Pick one of the tied players."),
)
_ORDER_TIE = _Tie(
    "order_tie",
    no_tie=gettext_noop("There is no tie to order."),
    not_yours=gettext_noop("The captain decides who goes first."),
    not_tied=gettext_noop("Name only the tied players."),
)


def _tie_refusal(
    state: State, seat: int, named: Sequence[int], tie: _Tie, *, settler: int | None
) -> str | None:
    """Why ``seat`` may not settle ``tie`` by naming ``named`` now (None: it may)."""
    if state.phase != tie.phase:
        return tie.no_tie
    if seat != settler:
        return tie.not_yours
    if not set(named) <= set(state.tied):
        return tie.not_tied
    return None


def _check(state: State, seat: int, action: Action, now_ms: int) -> str | None:
    """Why ``action`` is not allowed now, or None. Changes nothing."""
    player = state.players[seat]
    if isinstance(action, ChooseCard):
        if state.phase != "choosing":
            return gettext_noop("Cards are picked at the start of a round.")
        if seat in state.chosen:
            return gettext_noop("You have already picked your card.")
        if action.card not in player.cards:
            return gettext_noop("You have already played that card.")
        return None
    if isinstance(action, PickCaptain):
        return _tie_refusal(
            state, seat, [action.seat], _CAPTAIN_TIE, settler=state.previous_captain
        )
    if isinstance(action, Order):
        return _tie_refusal(state, seat, action.seats, _ORDER_TIE, settler=state.captain)
    if isinstance(action, Declare):
        refusal = _turn_refusal(state, seat, "declaring")
        if refusal is None and action.pieces > len(player.supply):
            refusal = gettext_noop("You have only one piece left.")
        return refusal
    if isinstance(action, Drop):
        refusal = _turn_refusal(state, seat, "placing")
        if refusal is not None:
            return refusal
        if _supply_piece(player, action.piece_id) is None:
            return gettext_noop("That piece is not in your supply.")
        area = state.area_of_turn()
        assert area is not None
        zone = AREAS[area].zone
        if not zone.x_min <= action.x <= zone.x_max or (
            action.y is not None and not release_height_ok(area, action.y)
        ):
            return gettext_noop("Drop the piece over your area of the ship.")
        return None
    assert isinstance(action, Catch)
    refusal = _turn_refusal(state, seat, "catching")
    if refusal is not None:
        return refusal
    falling = next((f for f in state.falling if f.piece.id == action.piece), None)
    if falling is None or now_ms >= falling.until_ms:
        return gettext_noop("That piece can no longer be caught.")
    return None


def _apply(state: State, seat: int, action: Action, now_ms: int, ch: Changes) -> None:
    """Carry out an allowed action (``_check`` said None)."""
    if isinstance(action, ChooseCard):
        _choose(state, seat, action.card, now_ms, ch)
    elif isinstance(action, PickCaptain):
        assert state.revealed is not None
        captain = captain_of(
            state.revealed, previous_captain=state.previous_captain, tie_pick=action.seat
        )
        _set_captain(state, captain, "previous_captain", now_ms, ch)
    elif isinstance(action, Order):
        state.order_choice.extend(action.seats)
        ch.event("ordered", captain=seat, seats=list(action.seats))
        _settle_order(state, now_ms, ch)
    elif isinstance(action, Declare):
        _declare(state, seat, action.pieces, ch)
    elif isinstance(action, Drop):
        piece = _supply_piece(state.players[seat], action.piece_id)
        assert piece is not None
        _drop(state, seat, piece, action.x, action.angle, now_ms, ch)
    else:
        assert isinstance(action, Catch)
        _catch(state, action.piece, now_ms, ch, rt_ms=action.rt_ms, rtt_ms=action.rtt_ms)


# ============================================================================================
# Bots and timers


def _bots_needed(state: State) -> list[int]:
    """The bot seats that owe the table a decision now."""
    if state.phase == "choosing":
        return [seat for seat in state.seats if seat in state.bots and seat not in state.chosen]
    if state.phase == "captain_tie":
        decider = state.previous_captain
    elif state.phase == "order_tie":
        decider = state.captain
    elif state.phase in ("declaring", "placing"):
        decider = state.active
    else:
        decider = None
    return [decider] if decider is not None and decider in state.bots else []


def _wake_bots(state: State, at: int) -> None:
    """Bots that owe a decision get a time for it; bots that no longer do lose theirs."""
    needed = _bots_needed(state)
    for seat in list(state.bot_due):
        if seat not in needed:
            del state.bot_due[seat]
    for seat in state.seats:
        if seat in needed and seat not in state.bot_due:
            state.bot_due[seat] = at + botlib.think_delay(state.bots[seat], state.rng)


def _bot_action(state: State, seat: int) -> Action:
    skill, rng = state.bots[seat], state.rng
    player = state.players[seat]
    if state.phase == "choosing":
        return ChooseCard(botlib.choose_card(skill, player.cards, rng))
    if state.phase == "captain_tie":
        return PickCaptain(botlib.pick_captain(seat, state.tied, rng))
    if state.phase == "order_tie":
        return Order(botlib.order_tied(state.tied, rng))
    if state.phase == "declaring":
        return Declare(botlib.declare(skill, len(player.supply), rng))
    area = state.area_of_turn()
    assert area is not None
    x, angle = botlib.aim(skill, AREAS[area].zone, rng)
    return Drop(piece=player.supply[0].id, x=x, angle=angle)


def _bot_decides(state: State, seat: int, at: int, ch: Changes) -> None:
    del state.bot_due[seat]
    action = _bot_action(state, seat)
    refusal = _check(state, seat, action, at)
    assert refusal is None, f"bot {seat} chose a move that is not allowed: {refusal}"
    _apply(state, seat, action, at, ch)


def _next_timer(state: State) -> tuple[int, int, int] | None:
    """The earliest pending timer as (time, kind, key), or None when all wait for input."""
    timers: list[tuple[int, int, int]] = []
    if state.checkpoint_ms is not None:
        timers.append((state.checkpoint_ms, _CHECKPOINT, 0))
    if state.phase == "game_over":
        return min(timers) if timers else None
    if state.physics:
        timers.append((state.sim_ms + STEP_MS, _STEP, 0))
    for falling in state.falling:
        if falling.bot_catch_ms is not None:
            timers.append((falling.bot_catch_ms, _BOT_CATCH, falling.piece.id))
        timers.append((falling.until_ms, _EXPIRE, falling.piece.id))
    for index, seat in enumerate(state.seats):
        due = state.bot_due.get(seat)
        if due is not None:
            timers.append((due, _BOT, index))
    return min(timers) if timers else None


def _take_checkpoint(state: State) -> dict[str, Any]:
    snapshot: dict[str, Any] = _plain(state.ship.world().snapshot())
    state.ship.checkpoint(snapshot)
    state.checkpoint_ms = None
    return snapshot


def _plain(value: Any) -> Any:
    """``value`` as any JSON store gives it back, so a replay finds the very checkpoint it
    recorded: -0.0 as 0.0 (jsonb keeps numbers as PostgreSQL numerics, which have no
    negative zero; the physics treats both alike)."""
    if isinstance(value, float):
        return value + 0.0
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _run_timer(state: State, timer: tuple[int, int, int], ch: Changes) -> None:
    at, kind, key = timer
    if kind == _STEP:
        _physics_step(state, at, ch)
    elif kind == _BOT_CATCH:
        _catch(state, key, at, ch)
    elif kind == _EXPIRE:
        _lose(state, key, at, ch)
    else:
        _bot_decides(state, state.seats[key], at, ch)
    _wake_bots(state, at)


def _advance(
    state: State, now_ms: int, ch: Changes, *, stop_at_checkpoint: bool = False
) -> dict[str, Any] | None:
    """Run every timer due at or before ``now_ms``, each at its own time, in time order
    (or up to and including a checkpoint, which is returned)."""
    while (timer := _next_timer(state)) is not None and timer[0] <= now_ms:
        if timer[1] == _CHECKPOINT:
            checkpoint = _take_checkpoint(state)
            if stop_at_checkpoint:
                return checkpoint
        else:
            _run_timer(state, timer, ch)
    return None


def next_deadline(state: State) -> int | None:
    """The earliest game time at which :func:`tick` has something to do: the next physics
    step while anything moves, a catch window's end, a bot's decision or catch, a due
    checkpoint; None when the table waits for a player."""
    timer = _next_timer(state)
    return timer[0] if timer is not None else None


def tick(state: State, now_ms: int) -> Outcome[State]:
    """Run everything due at ``now_ms`` (see the module doc), or up to a placement's
    checkpoint, which the outcome carries. Nothing due: ``state`` itself. Only physics
    steps and nothing else: ``logged=False`` (stream it, do not log it)."""
    timer = _next_timer(state)
    if timer is None or timer[0] > now_ms:
        return Outcome(state=state, logged=False)
    work = state.clone()
    ch = Changes()
    checkpoint = _advance(work, now_ms, ch, stop_at_checkpoint=True)
    return Outcome(
        state=work,
        events=tuple(ch.events),
        trials=tuple(ch.trials),
        logged=bool(ch.events or ch.trials or checkpoint is not None),
        checkpoint=checkpoint,
    )


# ============================================================================================
# Player inputs


def act(state: State, seat: int, action: ActionInput, now_ms: int) -> Outcome[State]:
    """One player input (see :mod:`games.riff_raff.actions`).

    The input is checked against ``state`` as it stands, then everything due by ``now_ms``
    runs (on a copy) and the input applies at ``now_ms``. Checking first keeps a refusal
    from moving the shared ship world on (see games.riff_raff.state): no timer can make an
    allowed input refused, because every phase that waits for a player waits for them.
    """
    parsed: Action | Refusal = act_preamble(
        state, seat, action, actions=ACTIONS, over=state.phase == "game_over"
    )
    if isinstance(parsed, Refusal):
        return refused(state, parsed)
    refusal = _check(state, seat, parsed, now_ms)
    if refusal is not None:
        return refused(state, Refusal(refusal))
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    refusal = _check(work, seat, parsed, now_ms)
    if refusal is not None:  # pragma: no cover - see the docstring
        return refused(state, Refusal(refusal))
    _apply(work, seat, parsed, now_ms, ch)
    _wake_bots(work, now_ms)
    return Outcome(state=work, events=tuple(ch.events), trials=tuple(ch.trials))


# ============================================================================================
# Replay


def takeover(state: State, seat: int, level: str, now_ms: int) -> Outcome[State]:
    """From ``now_ms`` a bot of ``level`` plays ``seat`` (its child left the class mid-game).

    [digital] The seat keeps its cards and cargo and its place in the placing order; a
    decision the seat owes now (a card to choose, a piece to place) the bot makes after its
    usual thinking time. Timers due by ``now_ms`` run first. A seat already played by a bot
    (or a finished game) is left as is.
    """
    if seat not in state.players or seat in state.bots or state.phase == "game_over":
        return Outcome(state=state)
    work = state.clone()
    ch = Changes()
    _advance(work, now_ms, ch)
    work.bots[seat] = _table_skill(
        work.config, botlib.BOT_LEVELS.get(level, botlib.BOT_LEVELS["steady"])
    )
    _wake_bots(work, now_ms)
    ch.event("bot_takeover", seat=seat)
    return Outcome(state=work, events=tuple(ch.events), trials=tuple(ch.trials))


def restore(state: State, checkpoint: Mapping[str, Any]) -> State:
    """``state`` (just after the tick that took ``checkpoint``) with the ship's bodies where
    ``checkpoint`` puts them, recorded in its history. Where they are there already (replay
    on the platform that played the game) nothing changes. ValueError for a malformed
    checkpoint."""
    work = state.clone()
    work.ship.restore(checkpoint)
    return work


def retune(state: State, step: Mapping[str, Any]) -> State | None:
    """The state with new settings (an adaptive ladder's rung). The catch window applies to
    the next piece that falls; the sea keeps the strength it started the game with, since
    the ship's motion is replayed from its history (the next game starts at the new one)."""
    return adaptive.retune(state, {**step, "wave_strength": state.config.wave_strength})


# Rebuild a table from its seed and its log; a tick's logged checkpoint is restored after it.
replay = replayer(setup=setup, act=act, tick=tick, takeover=takeover, restore=restore)
