"""Riff Raff's engine: the round rules through the engine, falling and catching, the end of
the game, secret picks, refusals, views and frames, and physics time (ticks that are not
logged replay exactly from the logged ones)."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import TYPE_CHECKING, Any

import pytest

from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.cargo import rotated_width
from games.riff_raff.config import Config
from games.riff_raff.rules import (
    ROLL_STEPS,
    STEP_MS,
    act,
    frame,
    next_deadline,
    replay,
    setup,
    state_fingerprint,
    tick,
    view,
)
from games.riff_raff.ship import AREAS, within_band

if TYPE_CHECKING:
    from games.engine.contract import Event, Outcome, Trial
    from games.riff_raff.state import State

# A calm sea, few pieces, crates and sacks only: quick to settle and predictable.
CALM = Config(wave_strength=0.0, pieces_per_player=4, piece_shapes="boxes")
# Settles; a crate dropped here (the end of the lowest yardarm, area 5) tips into the sea.
YARD_END = -42.0


def accepted(outcome: Outcome[State]) -> State:
    assert outcome.rejected is None, outcome.rejected
    return outcome.state


def centre(area: int) -> float:
    zone = AREAS[area].zone
    return (zone.x_min + zone.x_max) / 2


def run_until_waiting(
    state: State, now: int, *, until: int | None = None
) -> tuple[State, int, list[Event], list[Trial]]:
    """Tick at every deadline until the table waits for a player (or ``until``)."""
    events: list[Event] = []
    trials: list[Trial] = []
    while (deadline := next_deadline(state)) is not None and (until is None or deadline <= until):
        outcome = tick(state, deadline)
        assert outcome.rejected is None
        events += outcome.events
        trials += outcome.trials
        state, now = outcome.state, deadline
    return state, now, events, trials


def kinds(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [event.kind for event in events]


def choose(
    state: State, cards: dict[int, int], now: int = 0, *, settle: bool = True
) -> tuple[State, list[Event]]:
    """Everyone picks; with ``settle``, a round-1 tie for captain is settled by the first
    captain naming the first tied seat."""
    events: list[Event] = []
    for seat, card in cards.items():
        outcome = act(state, seat, {"kind": "choose_card", "card": card}, now)
        state = accepted(outcome)
        events += outcome.events
    if settle and state.phase == "captain_tie" and state.round == 1:
        assert state.previous_captain is not None
        pick = {"kind": "pick_captain", "seat": state.tied[0]}
        outcome = act(state, state.previous_captain, pick, now)
        state = accepted(outcome)
        events += outcome.events
    return state, events


def drop(state: State, seat: int, x: float, now: int, angle: float = 0.0) -> Outcome[State]:
    return act(state, seat, {"kind": "drop", "x": x, "angle": angle}, now)


def place_and_settle(state: State, seat: int, x: float, now: int) -> tuple[State, int, list[str]]:
    outcome = drop(state, seat, x, now)
    state = accepted(outcome)
    state, now, events, _trials = run_until_waiting(state, now)
    return state, now, kinds(outcome.events) + kinds(events)


def supply_ids(state: State, seat: int) -> list[int]:
    return [piece.id for piece in state.players[seat].supply]


def fall_scene(seed: int = 3) -> tuple[State, int, int, int]:
    """Two seats both play 5: the first places safely in area 5; the second (area 5 now
    holds cargo) declares 2 and drops its first crate off the yardarm's end. Returns the
    state just after that drop, the time, the first and the second seat."""
    state = setup(CALM, [0, 1], seed)
    state, _events = choose(state, {0: 5, 1: 5})
    first = state.active
    assert first is not None
    state, now, _ = place_and_settle(state, first, centre(5), 0)
    second = state.active
    assert state.phase == "declaring"
    assert second is not None
    assert second != first
    state = accepted(act(state, second, {"kind": "declare", "pieces": 2}, now))
    state = accepted(drop(state, second, YARD_END, now))
    return state, now, first, second


def until_fall(state: State, now: int) -> tuple[State, int, list[Event], list[Trial]]:
    """Tick until the first piece leaves the ship."""
    events: list[Event] = []
    trials: list[Trial] = []
    while state.phase == "settling":
        deadline = next_deadline(state)
        assert deadline is not None
        outcome = tick(state, deadline)
        events += outcome.events
        trials += outcome.trials
        state, now = outcome.state, deadline
    return state, now, events, trials


# --------------------------------------------------------------------------------------------
# Setup


def test_setup_deals_cards_and_cargo() -> None:
    state = setup(Config(), [0, 1, 2], 1)
    assert state.phase == "choosing"
    assert state.round == 1
    assert state.rounds_total == 10
    ids = [piece.id for player in state.players.values() for piece in player.supply]
    assert len(ids) == len(set(ids)) == 24
    for seat in (0, 1, 2):
        player = state.players[seat]
        assert player.cards == list(range(1, 11))
        assert [p.shape for p in player.supply] == [
            "crate",
            "barrel",
            "sack",
            "plank",
            "keg",
            "crate",
            "barrel",
            "sack",
        ]
        assert all(p.owner == seat for p in player.supply)
    assert next_deadline(state) is None  # humans only: waiting for picks


def test_boxes_only_and_the_piece_count_setting() -> None:
    state = setup(Config(piece_shapes="boxes", pieces_per_player=5), [3, 7, 9, 11], 1)
    assert state.rounds_total == 10
    assert {p.shape for player in state.players.values() for p in player.supply} == {
        "crate",
        "sack",
    }
    assert all(len(player.supply) == 5 for player in state.players.values())


@pytest.mark.parametrize(
    ("seats", "bots"),
    [([0], {}), ([0, 1, 2, 3, 4], {}), ([0, 0], {}), ([0, 1], {5: BOT_LEVELS["steady"]})],
)
def test_bad_tables_are_refused(seats: list[int], bots: dict[int, Any]) -> None:
    with pytest.raises(ValueError, match=r"seats|bots"):
        setup(Config(), seats, 1, bots)


# --------------------------------------------------------------------------------------------
# Captain and placing order


def test_the_highest_card_is_captain_and_seats_place_in_descending_order() -> None:
    state = setup(CALM, [0, 1, 2], 1)
    state, events = choose(state, {0: 3, 1: 9, 2: 5})
    assert kinds(events) == ["chosen", "chosen", "chosen", "reveal", "captain", "order", "turn"]
    assert events[3].data == {"cards": {"0": 3, "1": 9, "2": 5}}
    assert events[4].data == {"seat": 1, "by": "card"}
    assert state.captain == 1
    assert state.order == [1, 2, 0]
    assert state.phase == "placing"  # area 9 holds no cargo: no declaration
    assert state.active == 1
    assert all(state.players[s].cards == [c for c in range(1, 11) if c != card]
               for s, card in {0: 3, 1: 9, 2: 5}.items())  # fmt: skip


def test_the_first_seat_is_captain_before_round_1_and_settles_a_round_1_tie() -> None:
    """Seed: 由年紀最長的玩家擔任首回合開始前的船長 (the oldest player is captain before
    round 1). Unless the teacher set another place, that is the first seat."""
    state = setup(CALM, [0, 1, 2], 5)
    assert state.captain == 0
    assert view(state, 2)["captain"] == 0
    assert view(state, 2)["first_captain"] == 0
    state, events = choose(state, {0: 2, 1: 7, 2: 7}, settle=False)
    assert state.phase == "captain_tie"
    tie = next(e for e in events if e.kind == "captain_tie").data
    assert tie == {"seats": [1, 2], "chooser": 0}
    assert act(state, 1, {"kind": "pick_captain", "seat": 1}, 0).rejected
    outcome = act(state, 0, {"kind": "pick_captain", "seat": 2}, 0)
    state = accepted(outcome)
    assert next(e for e in outcome.events if e.kind == "captain").data == {
        "seat": 2,
        "by": "previous_captain",
    }
    assert state.order == [2, 1, 0]


def test_the_teacher_may_name_another_first_captain() -> None:
    config = dataclasses.replace(CALM, first_captain=3)
    state = setup(config, [4, 6, 9], 5)
    assert state.captain == 9
    state, events = choose(state, {4: 7, 6: 7, 9: 1}, settle=False)
    assert next(e for e in events if e.kind == "captain_tie").data["chooser"] == 9
    # A place beyond a smaller table is its last seat.
    assert setup(dataclasses.replace(CALM, first_captain=4), [1, 2], 5).captain == 2


def test_played_cards_lie_face_up_for_everyone() -> None:
    """Seed: 棄牌堆 正面朝上. Every seat sees every seat's played cards, last on top."""
    state, now = _round_one_done({0: 3, 1: 9})
    for seat in (None, 0, 1):
        seen = view(state, seat)["players"]
        assert [p["played"] for p in seen] == [[3], [9]]
    # A pick not yet revealed stays secret.
    state = accepted(act(state, 1, {"kind": "choose_card", "card": 4}, now))
    assert [p["played"] for p in view(state, 0)["players"]] == [[3], [9]]


def _round_one_done(cards: dict[int, int], seed: int = 1) -> tuple[State, int]:
    """Humans play round 1 with ``cards`` (no ties), each placing mid-area; round 2 waits."""
    state = setup(CALM, list(cards), seed)
    state, _ = choose(state, cards)
    now = 0
    while state.phase != "choosing":
        seat = state.active
        assert seat is not None
        if state.phase == "declaring":
            state = accepted(act(state, seat, {"kind": "declare", "pieces": 1}, now))
        area = state.area_of_turn()
        assert area is not None
        state, now, _ = place_and_settle(state, seat, centre(area), now)
    assert state.round == 2
    return state, now


def test_a_later_tie_for_captain_is_settled_by_the_last_captain() -> None:
    state, now = _round_one_done({0: 2, 1: 9, 2: 4})
    assert state.captain == 1
    state, events = choose(state, {0: 8, 1: 3, 2: 8}, now)
    assert state.phase == "captain_tie"
    assert kinds(events)[-1] == "captain_tie"
    assert events[-1].data == {"seats": [0, 2], "chooser": 1}
    assert view(state, 0)["tie_chooser"] == 1
    assert view(state, 0)["tied"] == [0, 2]
    # Only the last captain may pick, and only a tied seat.
    assert act(state, 0, {"kind": "pick_captain", "seat": 0}, now).rejected
    assert act(state, 1, {"kind": "pick_captain", "seat": 1}, now).rejected
    outcome = act(state, 1, {"kind": "pick_captain", "seat": 2}, now)
    state = accepted(outcome)
    assert kinds(outcome.events) == ["captain", "order", "turn"]
    assert outcome.events[0].data == {"seat": 2, "by": "previous_captain"}
    assert state.captain == 2
    assert state.order == [2, 0, 1]  # the captain first of the two 8s


def test_the_captain_orders_tied_seats() -> None:
    state = setup(CALM, [0, 1, 2, 3], 1)
    state, events = choose(state, {0: 9, 1: 4, 2: 4, 3: 4})
    assert state.phase == "order_tie"
    assert events[-1].data == {"seats": [1, 2, 3], "captain": 0}
    assert act(state, 1, {"kind": "order", "seats": [2]}, 0).rejected  # not the captain
    assert act(state, 0, {"kind": "order", "seats": [0]}, 0).rejected  # not tied
    assert act(state, 0, {"kind": "order", "seats": [2, 2]}, 0).rejected  # twice
    # Naming one of three leaves two to order; naming one of two settles it.
    outcome = act(state, 0, {"kind": "order", "seats": [3]}, 0)
    state = accepted(outcome)
    assert kinds(outcome.events) == ["ordered", "order_tie"]
    assert state.tied == [1, 2]
    state = accepted(act(state, 0, {"kind": "order", "seats": [2]}, 0))
    assert state.order == [0, 3, 2, 1]
    assert state.phase == "placing"
    assert state.active == 0


def test_a_three_way_tie_for_captain_leaves_the_captain_to_order_the_other_two() -> None:
    state = setup(CALM, [0, 1, 2], 5)
    state, _ = choose(state, {0: 6, 1: 6, 2: 6})
    captain = state.captain
    assert captain is not None
    assert state.phase == "order_tie"
    others = [s for s in (0, 1, 2) if s != captain]
    assert state.tied == others
    state = accepted(act(state, captain, {"kind": "order", "seats": [others[1], others[0]]}, 0))
    assert state.order == [captain, others[1], others[0]]


# --------------------------------------------------------------------------------------------
# Declaring


def test_a_loaded_yardarm_asks_for_a_declaration_of_one_or_two() -> None:
    state = setup(CALM, [0, 1], 3)
    state, _ = choose(state, {0: 5, 1: 5})
    first = state.active
    assert first is not None
    assert state.phase == "placing"  # area 5 still empty
    assert act(state, first, {"kind": "declare", "pieces": 2}, 0).rejected
    state, now, events = place_and_settle(state, first, centre(5), 0)
    assert events[:2] == ["drop", "settled"]
    assert state.phase == "declaring"
    second = state.active
    assert second is not None
    assert view(state, second)["to_place"] == 1
    assert act(state, second, {"kind": "drop", "x": centre(5)}, now).rejected
    assert act(state, first, {"kind": "declare", "pieces": 2}, now).rejected
    assert act(state, second, {"kind": "declare", "pieces": 3}, now).rejected
    outcome = act(state, second, {"kind": "declare", "pieces": 2}, now)
    state = accepted(outcome)
    assert outcome.events[0].data == {"seat": second, "pieces": 2}
    assert (state.phase, state.declared, state.to_place) == ("placing", 2, 2)
    state, now, events = place_and_settle(state, second, -18.0, now)
    assert events == ["drop", "settled"]
    assert (state.phase, state.to_place) == ("placing", 1)
    state, now, events = place_and_settle(state, second, -30.0, now)
    assert events[:3] == ["drop", "settled", "turn_over"]
    assert state.players[second].placed == 2
    assert len(state.players[second].supply) == CALM.pieces_for(2) - 2 == 6


def test_a_deck_area_or_an_empty_yardarm_never_asks_for_a_declaration() -> None:
    state = setup(CALM, [0, 1], 3)
    state, _ = choose(state, {0: 2, 1: 2})
    first = state.active
    assert first is not None
    state, _now, _ = place_and_settle(state, first, centre(2), 0)
    assert state.phase == "placing"  # area 2 holds cargo, but it is on the deck


def test_with_a_single_piece_left_there_is_nothing_to_declare() -> None:
    state = setup(CALM, [0, 1], 3)
    state, _ = choose(state, {0: 5, 1: 5})
    first = state.active
    assert first is not None
    second = 1 - first
    state.players[second].supply = state.players[second].supply[:1]
    state, _now, _ = place_and_settle(state, first, centre(5), 0)
    assert state.active == second
    assert state.phase == "placing"


# --------------------------------------------------------------------------------------------
# Falling and catching


def test_a_fall_ends_the_placing_at_once_and_a_declared_second_piece_is_not_placed() -> None:
    state, now, _first, second = fall_scene()
    assert state.phase == "settling"
    before = len(state.players[second].supply)
    state, now, events, trials = until_fall(state, now)
    assert kinds(events)[-1] == "fall"
    assert state.phase == "catching"
    assert state.to_place == 0
    # The failed drop is a placement trial of a human seat, not correct.
    assert [(t.kind, t.data["correct"]) for t in trials] == [("riff_raff.placement", False)]
    assert trials[0].data["area"] == 5
    fallen = events[-1].data["piece"]
    assert [c["piece"] for c in view(state, 0)["catchable"]] == [fallen]
    assert frame(state)["falling"] == [fallen]
    # Nobody catches: the window closes, the piece goes back to the active seat's supply.
    state, now, events, trials = run_until_waiting(state, now)
    assert "lost" in kinds(events)
    assert [(t.kind, t.data["responded"], t.data["plausible"]) for t in trials] == [
        ("riff_raff.catch", False, True)
    ]
    assert trials[0].data["rt_ms"] is None
    assert len(state.players[second].supply) == before + 1
    assert fallen in supply_ids(state, second)
    assert state.players[second].placed == 1  # the declared second piece never went down
    assert fallen not in state.ship.world().pieces()


def test_catching_takes_the_piece_out_of_the_game() -> None:
    state, now, first, second = fall_scene()
    state, now, events, _ = until_fall(state, now)
    fallen = events[-1].data["piece"]
    left_ms = events[-1].data["left_ms"]
    until_ms = events[-1].data["until_ms"]
    assert until_ms - left_ms == CALM.catch_window_ms
    before = supply_ids(state, second)
    catch = {"kind": "catch", "piece": fallen, "rt_ms": 420, "rtt_ms": 60}
    assert act(state, first, catch, now + 100).rejected == "It is not your turn."
    assert act(state, second, {**catch, "piece": 999}, now + 100).rejected
    assert act(state, second, catch, until_ms).rejected  # the window has closed
    outcome = act(state, second, catch, now + 500)
    state = accepted(outcome)
    assert "caught" in kinds(outcome.events)
    [trial] = outcome.trials
    assert trial.kind == "riff_raff.catch"
    assert trial.seat == second
    assert {k: trial.data[k] for k in ("target", "responded", "correct", "rt_ms", "plausible")} == {
        "target": True,
        "responded": True,
        "correct": True,
        "rt_ms": 420,
        "plausible": True,
    }
    assert trial.data["level"] == "wave_0"
    assert trial.data["piece"] == fallen
    assert trial.data["round"] == 1
    assert trial.data["bot"] is False
    assert trial.data["congruent"] is None
    assert fallen not in state.ship.world().pieces()
    assert fallen not in [c["piece"] for c in view(state, None)["catchable"]]
    state, now, events, _ = run_until_waiting(state, now + 500)
    assert "lost" not in kinds(events)
    assert supply_ids(state, second) == before
    assert all(fallen not in supply_ids(state, s) for s in (0, 1))


def test_a_catch_time_is_plausible_only_within_human_limits() -> None:
    state, now, _first, second = fall_scene()
    state, now, events, _ = until_fall(state, now)
    fallen = events[-1].data["piece"]
    for rt, plausible in [(100, False), (149, False), (150, True), (600, True), (900, False)]:
        outcome = act(state, second, {"kind": "catch", "piece": fallen, "rt_ms": rt}, now + 400)
        # 400 ms falling + 0 round trip + 150 slack: up to 550 is believable.
        assert outcome.trials[0].data["plausible"] is (plausible and rt <= 550), rt
    for rt, plausible in [(599, False), (600, True)]:
        catch = {"kind": "catch", "piece": fallen, "rt_ms": rt, "rtt_ms": 100}
        outcome = act(state, second, catch, now + 1000)
        # Caught 1000 ms after the fall over a 100 ms round trip, 300 ms lag slack: at least
        # 600 ms of that was the child's.
        assert outcome.trials[0].data["plausible"] is plausible, rt


def test_a_piece_in_the_sea_can_still_be_caught_until_the_window_closes() -> None:
    state, now, _first, second = fall_scene()
    state, now, events, _ = until_fall(state, now)
    fallen = events[-1].data["piece"]
    state, now, _, _ = run_until_waiting(state, now, until=now + 1500)
    assert state.ship.world().in_sea(fallen)
    assert state.phase == "catching"
    accepted(act(state, second, {"kind": "catch", "piece": fallen, "rt_ms": 1400}, now))


def test_deadlines_follow_the_physics_and_the_catch_window() -> None:
    state, now, _first, _second = fall_scene()
    assert next_deadline(state) == now + STEP_MS
    state, now, events, _ = until_fall(state, now)
    until_ms = events[-1].data["until_ms"]
    while state.physics:
        deadline = next_deadline(state)
        assert deadline == state.sim_ms + STEP_MS
        state = tick(state, deadline).state
    assert next_deadline(state) == until_ms
    state, _now, _, _ = run_until_waiting(state, until_ms)
    assert next_deadline(state) is None  # the next round's picks


# --------------------------------------------------------------------------------------------
# The end of the game


def test_a_player_who_places_all_their_cargo_wins_at_once() -> None:
    state = setup(CALM, [0, 1, 2], 2)
    state.players[1].supply = state.players[1].supply[:1]
    state, _ = choose(state, {0: 3, 1: 2, 2: 4})
    assert state.order == [2, 0, 1]
    now = 0
    for seat, area in ((2, 4), (0, 3)):
        state, now, _ = place_and_settle(state, seat, centre(area), now)
    outcome = drop(state, 1, centre(2), now)
    state, now, events, _ = run_until_waiting(accepted(outcome), now)
    assert kinds(events)[-2:] == ["turn_over", "game_over"]
    assert events[-1].data == {
        "winners": [1],
        "reason": "cargo_out",
        "pieces_left": {"0": 3, "1": 0, "2": 3},
    }
    assert state.phase == "game_over"
    assert state.winners == [1]
    assert next_deadline(state) is None
    assert act(state, 0, {"kind": "choose_card", "card": 1}, now).rejected == "The game is over."


def test_after_the_last_round_the_fewest_pieces_win_and_ties_share() -> None:
    state = setup(CALM, [0, 1, 2], 2)
    state.round = 10
    for who, keep in ((0, 3), (1, 3), (2, 4)):
        state.players[who].supply = state.players[who].supply[:keep]
    state, _ = choose(state, {0: 1, 1: 2, 2: 3})
    now = 0
    events: list[str] = []
    while state.phase != "game_over":
        seat, area = state.active, state.area_of_turn()
        assert seat is not None
        assert area is not None
        state, now, more = place_and_settle(state, seat, centre(area), now)
        events += more
    assert events[-2:] == ["round_over", "game_over"]
    assert state.winners == [0, 1]
    assert state.end_reason == "rounds"
    assert view(state, None)["winners"] == [0, 1]


def test_the_two_player_variant_doubles_the_cargo_and_plays_twenty_rounds() -> None:
    state = setup(Config(), [0, 1], 1)
    assert state.rounds_total == 20
    assert all(len(p.supply) == 16 for p in state.players.values())
    assert Config(pieces_per_player=4).pieces_for(2) == 8
    assert Config(pieces_per_player=12).pieces_for(2) == 16
    assert Config(pieces_per_player=16).pieces_for(2) == 16
    assert Config(pieces_per_player=12).pieces_for(3) == 12
    # After ten rounds both take their ten cards back.
    state = setup(CALM, [0, 1], 1)
    state.round = 10
    for player in state.players.values():
        player.cards = [4]
    state, _ = choose(state, {0: 4, 1: 4})
    # The tie for captain: seat 0, the first captain, settles it.
    state = accepted(act(state, 0, {"kind": "pick_captain", "seat": 0}, 0))
    now = 0
    events: list[str] = []
    spots = iter([36.0, 50.0])  # area 4, side by side
    while state.phase != "choosing":
        seat = state.active
        assert seat is not None
        state, now, more = place_and_settle(state, seat, next(spots), now)
        events += more
    assert events[-3:] == ["round_over", "cards_back", "round"]
    assert state.round == 11
    assert all(p.cards == list(range(1, 11)) for p in state.players.values())
    assert view(state, 0)["rounds_total"] == 20


# --------------------------------------------------------------------------------------------
# Secret picks and views


def test_nobody_sees_another_seats_pick_before_all_have_picked() -> None:
    state = setup(CALM, [0, 1, 2], 1)
    before = {seat: view(state, seat) for seat in (None, 0, 1, 2)}
    outcome = act(state, 0, {"kind": "choose_card", "card": 7}, 0)
    state = accepted(outcome)
    assert [e.data for e in outcome.events] == [{"seat": 0}]  # no card in the event
    for seat in (None, 1, 2):
        after = view(state, seat)
        changed = {key for key in after if after[key] != before[seat][key]}
        assert changed == {"chosen"}, seat
        assert after["chosen"] == {"0": True, "1": False, "2": False}
        assert after["revealed"] is None
        assert after["your_card"] is None
    mine = view(state, 0)
    assert mine["your_card"] == 7
    assert act(state, 0, {"kind": "choose_card", "card": 3}, 0).rejected
    state = accepted(act(state, 1, {"kind": "choose_card", "card": 2}, 0))
    assert view(state, 2)["revealed"] is None
    state = accepted(act(state, 2, {"kind": "choose_card", "card": 9}, 0))
    assert view(state, 1)["revealed"] == {"0": 7, "1": 2, "2": 9}


def test_the_view_format() -> None:
    state = setup(CALM, [0, 1], 3, {1: BOT_LEVELS["steady"]})
    state, _ = choose(state, {0: 6})
    state, _now, _, _ = run_until_waiting(state, 0)
    seen = view(state, 0)
    json.dumps(seen)
    assert set(seen) == {
        "game",
        "phase",
        "round",
        "rounds_total",
        "you",
        "captain",
        "first_captain",
        "tie_chooser",
        "tied",
        "order",
        "active",
        "area",
        "cards_left",
        "your_card",
        "chosen",
        "revealed",
        "declared",
        "to_place",
        "players",
        "drop_zone",
        "catchable",
        "pieces",
        "shapes",
        "ship",
        "frame",
        "winners",
        "end_reason",
    }
    assert seen["game"] == "riff_raff"
    assert seen["cards_left"] == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    me, bot = seen["players"]
    assert me["supply"] == [
        {"id": p.id, "shape": p.shape, "owner": 0} for p in state.players[0].supply
    ]
    assert bot["supply"] == len(state.players[1].supply)
    assert bot["bot"] is True
    assert set(me) == {"seat", "bot", "pieces_left", "supply", "placed", "cards_left", "played"}
    if seen["active"] == 0:
        zone = AREAS[6].zone
        assert seen["drop_zone"] == {
            "area": 6,
            "x_min": zone.x_min,
            "x_max": zone.x_max,
            "y": zone.y,
        }
    assert seen["pieces"]["0"] == {"shape": "crate", "owner": 0}
    teacher = view(state, None)
    assert teacher["cards_left"] is None
    assert all(isinstance(p["supply"], int) for p in teacher["players"])


def test_the_frame_is_the_same_for_everyone_and_is_in_every_view() -> None:
    state, now, _first, _second = fall_scene()
    state, now, _events, _ = until_fall(state, now)
    motion = frame(state)
    assert set(motion) == {"ship", "pieces", "falling", "moving", "sim_ms"}
    assert len(motion["ship"]) == 3
    assert all(len(p) == 4 for p in motion["pieces"])
    assert motion["moving"] is True
    assert motion["sim_ms"] == now
    json.dumps(motion)
    assert all(view(state, seat)["frame"] == motion for seat in (None, 0, 1))


# --------------------------------------------------------------------------------------------
# Refusals


def test_refused_inputs_change_nothing() -> None:
    state, now, first, second = fall_scene()
    probes: list[tuple[int, Any]] = [
        (second, None),
        (second, {"kind": "fly"}),
        (second, {"kind": "drop", "x": "left"}),
        (second, {"kind": "drop", "x": float("nan")}),
        (second, {"kind": "drop", "x": 0.0, "angle": 9.0}),
        (second, {"kind": "choose_card", "card": 11}),
        (second, {"kind": "choose_card", "card": 4}),
        (second, {"kind": "declare", "pieces": 2}),
        (second, {"kind": "drop", "x": -20.0}),
        (first, {"kind": "drop", "x": -20.0}),
        (second, {"kind": "catch", "piece": 0, "rt_ms": 300}),
        (second, {"kind": "pick_captain", "seat": 0}),
        (second, {"kind": "order", "seats": [0]}),
        (7, {"kind": "choose_card", "card": 3}),
    ]
    for seat, action in probes:
        before = state_fingerprint(state)
        outcome = act(state, seat, action, now + 50)
        assert outcome.rejected, action
        assert outcome.state is state
        assert outcome.events == ()
        assert outcome.trials == ()
        assert state_fingerprint(state) == before


def test_a_drop_outside_the_zone_is_refused_and_may_be_tried_again() -> None:
    state = setup(CALM, [0, 1], 3)
    state, _ = choose(state, {0: 2, 1: 1})
    zone = AREAS[2].zone
    for x in (zone.x_min - 0.1, zone.x_max + 0.1, 0.0, 45.0):
        outcome = drop(state, 0, x, 0)
        assert outcome.rejected == "Drop the piece over your area of the ship."
        assert outcome.state is state
    state = accepted(drop(state, 0, zone.x_max, 0))
    assert state.phase == "settling"


def test_a_drop_with_no_room_goes_to_the_nearest_spot_that_has_room() -> None:
    state = setup(Config(wave_strength=0.0, pieces_per_player=4), [0, 1], 3)
    state.players[0].supply = [p for p in state.players[0].supply if p.shape == "plank"]
    state, _ = choose(state, {0: 5, 1: 1})
    # A plank (36 long) centred by the mast does not fit: it slides out along the yardarm.
    outcome = drop(state, 0, AREAS[5].zone.x_max, 0, angle=0.0)
    state = accepted(outcome)
    [dropped] = [e for e in outcome.events if e.kind == "drop"]
    assert dropped.data["moved"] is True
    assert dropped.data["x"] < AREAS[5].zone.x_max - 10


def test_a_plank_on_area_2_never_reaches_into_area_1() -> None:
    """Seed §3(1)B 不可進入其它區域: the whole piece is checked. Area 2 is 30 cm wide, so a
    36 cm plank dropped flat there is turned up (or tilted) to stay inside it."""
    state = setup(Config(wave_strength=0.0, pieces_per_player=4), [0, 1], 3)
    state.players[0].supply = [p for p in state.players[0].supply if p.shape == "plank"]
    state, _ = choose(state, {0: 2, 1: 1})
    outcome = drop(state, 0, -15.0, 0, angle=0.0)
    state = accepted(outcome)
    [dropped] = [e for e in outcome.events if e.kind == "drop"]
    assert dropped.data["moved"] is True
    assert within_band(2, "plank", dropped.data["x"], dropped.data["angle"])
    left, right = rotated_width("plank", dropped.data["angle"])
    assert dropped.data["x"] + left >= -30.0
    assert dropped.data["x"] + right <= 0.0


def test_a_release_far_above_the_area_is_refused() -> None:
    """Areas 5, 7 and 9 share x ranges: the release height tells them apart."""
    state, _ = choose(setup(CALM, [0, 1], 3), {0: 5, 1: 1})
    x = (AREAS[5].zone.x_min + AREAS[5].zone.x_max) / 2
    for y in (AREAS[5].zone.y + 120, AREAS[9].zone.y, AREAS[5].zone.y - 20):
        outcome = act(state, 0, {"kind": "drop", "x": x, "y": y, "angle": 0.0}, 0)
        assert outcome.rejected == "Drop the piece over your area of the ship."
        assert outcome.state is state
    state = accepted(act(state, 0, {"kind": "drop", "x": x, "y": AREAS[5].zone.y + 10}, 0))
    assert state.phase == "settling"


def test_a_piece_with_no_room_anywhere_stays_in_the_supply() -> None:
    state = setup(CALM, [0, 1], 3)
    # Two of seat 1's crates fill area 8 (26 wide, 23 cm under the top yardarm: a crate
    # does not fit beside them nor on top).
    crates = [p for p in state.players[1].supply if p.shape == "crate"][:2]
    for piece, x in zip(crates, (12.0, 25.5), strict=True):
        state.players[1].supply.remove(piece)
        assert (
            state.ship.place(piece_id=piece.id, owner=1, shape="crate", area=8, x=x, angle=0.0)
            is None
        )
    state, _ = choose(state, {0: 8, 1: 1})
    state = accepted(act(state, 0, {"kind": "declare", "pieces": 2}, 0))
    piece = state.players[0].supply[0]
    outcome = drop(state, 0, centre(8), 0)
    state = accepted(outcome)
    assert kinds(outcome.events) == ["no_room", "turn_over", "turn"]
    assert outcome.events[0].data == {"seat": 0, "piece": piece.id, "area": 8}
    assert state.players[0].supply[0] == piece
    assert state.players[0].placed == 0
    assert outcome.trials == ()
    assert state.active == 1


# --------------------------------------------------------------------------------------------
# Physics time: unlogged ticks replay exactly


def test_a_tick_that_only_moves_things_is_not_logged() -> None:
    state = setup(CALM, [0, 1], 3)
    state, _ = choose(state, {0: 2, 1: 1})
    same = tick(state, 10_000)
    assert same.state is state
    assert same.logged is False
    state = accepted(drop(state, 0, centre(2), 0))
    motion = tick(state, STEP_MS)
    assert motion.logged is False
    assert motion.events == ()
    assert motion.state.sim_ms == STEP_MS
    assert motion.state is not state
    assert state.sim_ms == 0  # the input is untouched
    state, _now, events, _ = run_until_waiting(state, 0)
    assert kinds(events)[:1] == ["settled"]


def test_a_drop_in_a_rough_sea_rolls_the_ship_for_a_wave_period_before_it_settles() -> None:
    for wave, at_least in ((0.0, 15), (0.5, ROLL_STEPS)):
        state = setup(Config(wave_strength=wave, pieces_per_player=4), [0, 1], 3)
        state, _ = choose(state, {0: 2, 1: 1})
        state = accepted(drop(state, 0, centre(2), 0))
        state, _now, events, _ = run_until_waiting(state, 0, until=60_000)
        settled = next(e for e in events if e.kind == "settled")
        assert settled.data == {"seat": 0, "piece": 0}
        assert state.active == 1
        assert state.sim_ms // STEP_MS >= at_least  # steps from the drop at 0 to rest


def test_an_old_state_keeps_its_own_ship_after_later_states_moved_on() -> None:
    """States share one pymunk world; one that is looked at after its successors moved the
    world on rebuilds its own from its history, exactly."""
    state, now, _first, _second = fall_scene()
    state = tick(state, now + 20 * STEP_MS).state
    old_frame, old_snapshot = frame(state), state.ship.world().snapshot()
    later, _now, _, _ = run_until_waiting(state, now)
    assert frame(later) != old_frame
    assert frame(state) == old_frame
    assert state.ship.world().snapshot() == old_snapshot
    # And the rebuilt world goes on exactly as the original did.
    assert state_fingerprint(run_until_waiting(state, now)[0]) == state_fingerprint(later)
    assert run_until_waiting(state, now)[0].ship.world().snapshot() == later.ship.world().snapshot()


def _human_move(rnd: random.Random, state: State, seat: int) -> dict[str, Any] | None:
    seen = view(state, seat)
    phase = seen["phase"]
    if phase == "choosing" and not seen["chosen"][str(seat)]:
        return {"kind": "choose_card", "card": rnd.choice(seen["cards_left"])}
    if phase == "captain_tie" and seen["tie_chooser"] == seat:
        return {"kind": "pick_captain", "seat": rnd.choice(seen["tied"])}
    if phase == "order_tie" and seen["captain"] == seat:
        return {"kind": "order", "seats": [rnd.choice(seen["tied"])]}
    if seen["active"] != seat:
        return None
    if phase == "declaring":
        return {"kind": "declare", "pieces": rnd.choice([1, 2])}
    if phase == "placing":
        zone = seen["drop_zone"]
        x = rnd.choice([zone["x_min"], zone["x_max"], rnd.uniform(zone["x_min"], zone["x_max"])])
        return {"kind": "drop", "x": x, "angle": rnd.uniform(-0.3, 0.3)}
    if phase == "catching" and seen["catchable"] and rnd.random() < 0.5:
        piece = seen["catchable"][0]["piece"]
        return {"kind": "catch", "piece": piece, "rt_ms": rnd.randint(100, 900), "rtt_ms": 40}
    return None


@pytest.mark.parametrize(("seed", "wave"), [(11, 0.6), (4, 0.3)])
def test_ticking_every_16_ms_and_replaying_only_the_logged_entries_gives_the_same_game(
    seed: int, wave: float
) -> None:
    """The host ticks about every 16 ms (a little jitter), acts come in between; it logs
    accepted inputs and logged ticks only. Replaying that log gives, after every entry, the
    live state (fingerprint: every rule field and the ship's whole call history) and the
    very same pymunk world, bit for bit."""
    config = Config(wave_strength=wave, pieces_per_player=4)
    seats = [0, 1, 2]
    bots = {1: BOT_LEVELS["quick"], 2: BOT_LEVELS["gentle"]}
    live = setup(config, seats, seed, bots)
    rebuilt = setup(config, seats, seed, bots)
    rnd = random.Random(seed)
    log: list[tuple[str, int | None, Any, int]] = []
    now = 0
    unlogged = 0
    while live.phase != "game_over":
        assert now < 900_000, "the game did not end"
        now += STEP_MS if rnd.random() < 0.9 else rnd.randint(1, 40)
        move = _human_move(rnd, live, 0) if rnd.random() < 0.05 else None
        if move is not None:
            outcome = act(live, 0, move, now)
            if outcome.rejected is not None:
                continue
            log.append(("act", 0, move, now))
            rebuilt = act(rebuilt, 0, move, now).state
        else:
            outcome = tick(live, now)
            if not outcome.logged:
                assert outcome.events == ()
                assert outcome.trials == ()
                unlogged += outcome.state is not live
                live = outcome.state
                continue
            log.append(("tick", None, None, now))
            rebuilt = tick(rebuilt, now).state
        live = outcome.state
        assert state_fingerprint(rebuilt) == state_fingerprint(live), log[-1]
        assert rebuilt.ship.world().snapshot() == live.ship.world().snapshot()
    assert unlogged > 10 * len(log)  # most ticks were pure motion
    assert any(entry[0] == "act" for entry in log)
    final = replay(config, seats, seed, bots, log)
    assert state_fingerprint(final) == state_fingerprint(live)
    assert view(final, 0) == view(live, 0)


def test_how_often_the_host_ticks_never_changes_the_game() -> None:
    config = Config(wave_strength=0.5, pieces_per_player=4)
    seats = [0, 1, 2]
    bots = dict.fromkeys(seats, BOT_LEVELS["quick"])
    results = []
    for every in (None, 16, 250, 1000):
        state = setup(config, seats, 21, bots)
        now = 0
        while state.phase != "game_over":
            deadline = next_deadline(state)
            assert deadline is not None
            now = deadline if every is None else now + every
            state = tick(state, now).state
        results.append(state_fingerprint(state))
    assert len(set(results)) == 1
