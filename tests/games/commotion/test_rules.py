"""Commotion's rules: dealing, GO, plays, refills, the stock, the 6th card, OUT, the race,
scoring, the round flow, the stall rule, views, trials, refusals and replay."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.commotion.bots import BotSkill
from games.commotion.cards import card_to_dict
from games.commotion.config import COUNTDOWN_MS, ROUND_OVER_MS, Config
from games.commotion.rules import (
    TOO_LATE,
    act,
    next_deadline,
    replay,
    setup,
    state_fingerprint,
    tick,
    view,
)
from tests.games.commotion.support import (
    GO,
    accepted,
    arranged,
    do,
    filler,
    kinds,
    n,
    original_cards,
    pile,
    play,
    start,
    stop,
    where_cards_are,
)

VIEW_KEYS = {
    "game",
    "phase",
    "round",
    "you",
    "go_at_ms",
    "next_round_at_ms",
    "now_hint",
    "stock_turn",
    "target_score",
    "centre",
    "players",
    "you_can_out",
    "you_can_extra",
    "stuck",
    "playable",
    "rounds",
    "out_by",
    "ended_by",
    "winners",
}
PLAYER_KEYS = {
    "seat",
    "tableau",
    "waste_top",
    "waste",
    "stock",
    "refill",
    "refill_size",
    "total",
    "can_out",
    "bot",
}
TRIAL_KEYS = {
    "outcome",
    "pile",
    "onto",
    "level",
    "target",
    "responded",
    "congruent",
    "rt_ms",
    "plausible",
    "correct",
    "card",
    "source",
    "round",
    "bot",
}
ROW_KEYS = {"round", "seat", "centre_cards", "refill_left", "out_bonus", "round_score", "total"}

RED3_1, RED3_2 = n(1, "red", 3), n(2, "red", 3)


def _race_table() -> Any:
    """Seats 1 and 2 each hold a red 3 for the one red pile."""
    return arranged(
        {1: [RED3_1, *filler(1, 4)], 2: [RED3_2, *filler(2, 4)]},
        refills={1: filler(1, 2, "green"), 2: filler(2, 2, "green")},
        centre=[pile(1, "red", 2)],
    )


# ============================================================================================
# Setup and GO


def test_setup_deals_every_seat() -> None:
    state = setup(Config(), [0, 1, 2], seed=5)
    assert (state.phase, state.round, state.go_at_ms) == ("countdown", 1, COUNTDOWN_MS)
    for player in state.players.values():
        assert (len(player.tableau), len(player.refill), len(player.stock)) == (5, 13, 34)
        assert player.waste == []
        assert player.total == 0
    assert state.centre == []
    assert where_cards_are(state) == original_cards([0, 1, 2])
    assert next_deadline(state) == COUNTDOWN_MS
    seen = view(state, 0)
    assert (seen["phase"], seen["go_at_ms"], seen["playable"]) == ("countdown", 3000, [])
    # Seeded: the same seed deals the same cards, another seed others.
    assert setup(Config(), [0, 1, 2], seed=5) == state
    assert setup(Config(), [0, 1, 2], seed=6) != state


def test_per_seat_refill_sizes() -> None:
    config = Config(refill_size=10, refill_by_seat=((1, 5),))
    state = setup(config, [0, 1], seed=2)
    assert [len(state.players[s].refill) for s in (0, 1)] == [10, 5]
    assert [len(state.players[s].stock) for s in (0, 1)] == [37, 42]
    assert [p["refill_size"] for p in view(state, None)["players"]] == [10, 5]
    assert where_cards_are(state) == original_cards([0, 1])


@pytest.mark.parametrize("seats", [[1], [1, 2, 3, 4, 5, 6, 7], [1, 1], [1, True]])
def test_bad_tables_are_refused(seats: list[Any]) -> None:
    with pytest.raises(ValueError, match="seats"):
        setup(Config(), seats, seed=1)


def test_inputs_wait_for_go() -> None:
    state = setup(Config(), [1, 2], seed=3)
    refused = do(state, 1, "turn", GO - 1)
    assert refused.rejected == "Wait for GO!"
    assert refused.state is state
    # An input at GO is judged after GO, even before the host's tick.
    turned = accepted(do(state, 1, "turn", GO))
    assert turned.phase == "playing"
    assert len(turned.players[1].waste) == 3


def test_go_sends_dealt_starts_to_the_centre_and_refills_their_gaps() -> None:
    state = setup(Config(), [1, 2], seed=3)
    player = state.players[1]
    player.tableau = [n(1, "red", 9), start(1), n(1, "red", 8), start(1), n(1, "red", 7)]
    player.refill = [n(1, "blue", 9), n(1, "blue", 8), start(1)]  # top last: a START first
    state.players[2].tableau = filler(2, 5)
    outcome = tick(state, GO)
    after = outcome.state
    assert after.phase == "playing"
    assert after.centre == [[start(1)], [start(1)], [start(1)]]
    # Each gap refilled in place from the refill top; the START that came up went on too.
    assert after.players[1].tableau == [
        n(1, "red", 9),
        n(1, "blue", 8),
        n(1, "red", 8),
        n(1, "blue", 9),
        n(1, "red", 7),
    ]
    assert after.players[1].refill == []
    assert [e.kind for e in outcome.events] == ["go", "start", "start", "start"]
    assert view(after, 1)["centre"][0] == {
        "cards": 1,
        "top": card_to_dict(start(1)),
        "colour": None,
        "next": 2,
        "closed": False,
        "wants": "two",
    }


# ============================================================================================
# Playing cards


def test_a_play_refills_the_gap_in_place() -> None:
    top, under = n(1, "green", 9), n(1, "green", 8)
    state = arranged(
        {1: [n(1, "yellow", 11), n(1, "red", 2), *filler(1, 3)], 2: filler(2, 5)},
        refills={1: [under, top]},
        centre=[[start(2)]],
    )
    outcome = play(state, 1, 1, 0, GO + 500)
    after = accepted(outcome)
    assert after.centre == [[start(2), n(1, "red", 2)]]
    assert after.players[1].tableau[:2] == [n(1, "yellow", 11), top]
    assert after.players[1].refill == [under]
    assert outcome.events[0].kind == "play"
    assert outcome.events[0].data == {
        "seat": 1,
        "source": "tableau",
        "card": card_to_dict(n(1, "red", 2)),
        "pile": 0,
        "cards": 2,
        "closed": False,
    }
    assert view(after, None)["centre"][0]["colour"] == "red"
    assert view(after, None)["centre"][0]["wants"] == "number"
    assert view(after, None)["centre"][0]["next"] == 3


def test_a_start_that_comes_up_from_the_refill_opens_a_pile() -> None:
    state = arranged(
        {1: [n(1, "red", 2), *filler(1, 4)], 2: filler(2, 5)},
        refills={1: [n(1, "green", 5), start(1)]},
        centre=[[start(2)]],
    )
    outcome = play(state, 1, 0, 0, GO + 500)
    after = accepted(outcome)
    assert after.centre == [[start(2), n(1, "red", 2)], [start(1)]]
    assert after.players[1].tableau[0] == n(1, "green", 5)
    assert after.players[1].refill == []
    assert [e.kind for e in outcome.events] == ["play", "start"]


def test_playing_from_the_waste_and_a_start_begins_a_pile() -> None:
    state = arranged(
        {1: filler(1, 5), 2: filler(2, 5)},
        wastes={1: [start(1), n(1, "blue", 4), n(1, "red", 3)]},
        centre=[pile(2, "red", 2)],
    )
    after = accepted(play(state, 1, 0, 0, GO + 100, source="waste"))
    assert after.centre[0][-1] == n(1, "red", 3)
    assert after.players[1].waste == [start(1), n(1, "blue", 4)]
    refused = play(after, 1, 0, -1, GO + 200, source="waste")
    assert refused.rejected == "Only a START card can begin a new pile."
    assert kinds(refused.trials) == [(1, "false_alarm")]
    after = accepted(do(after, 1, "turn", GO + 300))  # stock empty: recycle
    after = accepted(do(after, 1, "turn", GO + 400))
    # Recycled: the former top (blue 4) went to the bottom, so the START shows first.
    assert after.players[1].waste == [n(1, "blue", 4), start(1)]
    after = accepted(play(after, 1, 0, -1, GO + 500, source="waste"))
    assert after.centre[1] == [start(1)]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        (
            {"source": "tableau", "card": 5, "pile": 0},
            "There is no card at that place in your row.",
        ),
        ({"source": "waste", "pile": 0}, "Your waste pile is empty."),
        ({"source": "tableau", "card": 0, "pile": 3}, "There is no such pile."),
    ],
)
def test_plays_of_nothing_are_refused_without_a_trial(action: dict[str, Any], reason: str) -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, centre=[[start(2)]])
    outcome = act(state, 1, {"kind": "play", **action}, GO + 100)
    assert outcome.rejected == reason
    assert outcome.state is state
    assert outcome.trials == ()


@pytest.mark.parametrize(
    ("card", "cards", "reason"),
    [
        (stop(1), [*pile(2, "red", 12), stop(2)], "That pile is closed."),
        (start(1), [start(2)], "A START card can only begin a new pile."),
        (n(1, "red", 4), [start(2)], "That pile needs a 2 first."),
        (n(1, "red", 4), pile(2, "blue", 12), "That pile needs a STOP card now."),
        (n(1, "red", 4), pile(2, "blue", 3), "That card does not fit on that pile."),
    ],
)
def test_a_card_that_does_not_fit_is_refused_with_a_reason(
    card: Any, cards: list[Any], reason: str
) -> None:
    state = arranged({1: [card, *filler(1, 4)], 2: filler(2, 5)}, centre=[cards])
    outcome = play(state, 1, 0, 0, GO + 100)
    assert outcome.rejected == reason
    assert outcome.state is state
    assert kinds(outcome.trials) == [(1, "false_alarm")]


# ============================================================================================
# The stock


def test_turning_three_then_fewer_then_recycling() -> None:
    s = [n(1, "blue", k) for k in range(2, 7)]  # top last: blue 6 is turned first
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, stocks={1: s})
    outcome = do(state, 1, "turn", GO + 10)
    state = accepted(outcome)
    assert outcome.events[0].data == {"seat": 1, "cards": 3}
    assert state.players[1].waste == [s[4], s[3], s[2]]
    assert view(state, 1)["players"][0]["waste_top"] == card_to_dict(s[2])
    state = accepted(do(state, 1, "turn", GO + 20))
    assert state.players[1].waste == [s[4], s[3], s[2], s[1], s[0]]
    assert state.players[1].stock == []
    outcome = do(state, 1, "turn", GO + 30)
    state = accepted(outcome)
    assert outcome.events[0].kind == "recycle"
    assert state.players[1].waste == []
    assert state.players[1].quiet_recycles == 1
    # The top waste card (blue 2) went to the bottom, then the pile turned over: it is on top.
    state = accepted(do(state, 1, "turn", GO + 40))
    assert state.players[1].waste == [s[0], s[4], s[3]]


def test_turning_one_at_a_time() -> None:
    s = [n(1, "blue", k) for k in range(2, 5)]
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, stocks={1: s}, config=Config(stock_turn=1))
    state = accepted(do(state, 1, "turn", GO + 10))
    assert state.players[1].waste == [s[2]]
    assert view(state, 1)["stock_turn"] == 1


def test_the_stock_turns_only_when_no_row_card_fits_the_centre() -> None:
    """Seed §2(2) 當…牌面區內卡牌皆無法堆疊至中央公區時: a row card that fits must be played
    first; a waste top that fits does not stop the turn (it is not in the row)."""
    state = arranged(
        {1: [n(1, "red", 3), *filler(1, 4)], 2: filler(2, 5)},
        stocks={1: [n(1, "blue", 7), n(1, "blue", 8)]},
        wastes={
            1: [
                n(
                    1,
                    "red",
                    3,
                )
            ]
        },
        centre=[pile(2, "red", 2)],
    )
    refused = do(state, 1, "turn", GO + 10)
    assert refused.rejected == "A card in your row fits a pile: play it first!"
    assert refused.state is state
    state = accepted(play(state, 1, 0, 0, GO + 20))
    assert state.players[1].tableau == filler(1, 4)
    turned = accepted(do(state, 1, "turn", GO + 30))
    assert len(turned.players[1].waste) == 3


def test_turning_with_nothing_to_turn_is_refused() -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 5)})
    outcome = do(state, 1, "turn", GO + 10)
    assert outcome.rejected == "Your stock and waste are both empty."
    assert outcome.state is state


# ============================================================================================
# The all-stuck 6th card and OUT


def test_an_extra_card_only_when_nobody_can_play_from_their_row() -> None:
    state = arranged(
        {1: filler(1, 5), 2: [n(2, "red", 3), *filler(2, 4)]},
        refills={1: [n(1, "green", 5), n(1, "red", 4)], 2: filler(2, 2, "green")},
        # Seat 1's waste top fits, but only row cards count for "stuck".
        wastes={1: [n(1, "blue", 3)]},
        centre=[pile(2, "red", 2), pile(2, "blue", 2)],
    )
    assert view(state, 1)["stuck"] is False
    refused = do(state, 1, "extra", GO + 10)
    assert refused.rejected == "Someone can still play a card from their row."
    assert refused.trials == ()
    # Seat 2 plays its red 3; now nobody's row fits anywhere.
    state = accepted(play(state, 2, 0, 0, GO + 20))
    seen = view(state, 1)
    assert (seen["stuck"], seen["you_can_extra"]) == (True, True)
    assert view(state, 2)["you_can_extra"] is True
    outcome = do(state, 1, "extra", GO + 30)
    state = accepted(outcome)
    assert outcome.events[0].data == {"seat": 1, "card": card_to_dict(n(1, "red", 4))}
    assert state.players[1].tableau[5] == n(1, "red", 4)
    assert state.players[1].refill == [n(1, "green", 5)]
    assert view(state, 1)["stuck"] is False
    assert do(state, 1, "extra", GO + 40).rejected == "You already have an extra card."
    # The 6th card is played back down to five without a refill.
    state = accepted(play(state, 1, 5, 0, GO + 50))
    assert state.players[1].tableau == filler(1, 5)
    assert state.players[1].refill == [n(1, "green", 5)]
    # The table is stuck again: a fresh right for everyone, seat 1 included.
    assert view(state, 1)["you_can_extra"] is True
    # A START drawn as the 6th card opens a pile and the row is back at five.
    state.players[1].refill.append(start(1))
    state = accepted(do(state, 1, "extra", GO + 60))
    assert state.players[1].tableau == filler(1, 5)
    assert state.centre[-1] == [start(1)]


def test_every_player_may_take_a_sixth_card_when_the_first_one_fits() -> None:
    """Seed §5(4) 允許所有玩家皆…多補充1張: the first seat's 6th card fits the centre, which makes
    the table playable again, yet the other seats keep their right to one."""
    state = arranged(
        {1: filler(1, 5), 2: [n(2, "red", 4), *filler(2, 4)], 3: filler(3, 5)},
        refills={
            1: [n(1, "green", 10), n(1, "red", 3)],
            2: [n(2, "green", 4)],
            3: [n(3, "blue", 9)],
        },
        centre=[pile(2, "red", 2)],
    )
    assert view(state, 2)["stuck"] is True  # the red 4 waits for a red 3
    state = accepted(do(state, 1, "extra", GO + 10))
    assert view(state, 1)["stuck"] is False  # seat 1's red 3 fits the red pile
    assert view(state, 2)["you_can_extra"] is True
    assert view(state, 3)["you_can_extra"] is True
    assert view(state, 1)["you_can_extra"] is False
    state = accepted(play(state, 1, 5, 0, GO + 20))
    # Seat 2's red 4 fits now, so the table is not stuck: seat 1, back at five, already had
    # its card; seat 2 may still take its own (or play its red 4).
    assert view(state, 1)["stuck"] is False
    assert do(state, 1, "extra", GO + 30).rejected == (
        "You took your extra card: the others may take theirs."
    )
    state = accepted(do(state, 2, "extra", GO + 40))
    assert state.players[2].tableau[5] == n(2, "green", 4)
    state = accepted(do(state, 3, "extra", GO + 50))
    assert state.players[3].tableau[5] == n(3, "blue", 9)
    # Every seat took its card: the spell is over.
    assert state.extra_taken == ()


def test_no_extra_card_without_a_refill_card_or_with_a_short_row() -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 4)}, refills={2: [n(2, "green", 4)]})
    assert do(state, 1, "extra", GO + 10).rejected == "Your refill pile is empty."
    # Only possible on an arranged table: a row below five with refill cards left.
    assert do(state, 2, "extra", GO + 10).rejected == "An extra card needs a full row of five."


def test_out_needs_an_empty_refill_pile_and_no_sixth_card() -> None:
    state = arranged(
        {1: filler(1, 5), 2: filler(2, 6), 3: filler(3, 4)},
        refills={1: [n(1, "green", 4)]},
    )
    assert view(state, 1)["you_can_out"] is False
    refused = do(state, 1, "out", GO + 10)
    assert refused.rejected == "You can call OUT once your refill pile is empty."
    refused = do(state, 2, "out", GO + 10)
    assert refused.rejected == "Play your extra card first: OUT needs five cards or fewer."
    # A row that shrank because the refill pile ran out may call OUT.
    assert [p["can_out"] for p in view(state, None)["players"]] == [False, False, True]
    outcome = do(state, 3, "out", GO + 10)
    after = accepted(outcome)
    assert after.phase == "round_over"
    assert (after.out_by, after.ended_by) == (3, "out")
    assert [e.kind for e in outcome.events] == ["out", "round_over"]


def test_out_with_five_cards() -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, refills={2: [n(2, "green", 4)]})
    assert view(state, 1)["you_can_out"] is True
    assert accepted(do(state, 1, "out", GO + 10)).phase == "round_over"


# ============================================================================================
# The race


def test_a_lost_race_is_too_late_and_a_wrong_card_is_a_false_alarm() -> None:
    state = accepted(play(_race_table(), 1, 0, 0, GO + 400))
    assert state.centre[0][-1] == RED3_1
    # Seat 2 saw the pile with 2 cards: its red 3 fitted then.
    late = play(state, 2, 0, 0, GO + 450, size=2, rt=380)
    assert late.rejected == TOO_LATE == "Too late! Someone played there first."
    assert late.state is state
    # Beaten, but the right card: seat 2 did spot it (counted as spotted by the site).
    assert kinds(late.trials) == [(2, "late")]
    (trial,) = late.trials
    assert trial.data["outcome"] == "late"
    assert (trial.data["correct"], trial.data["rt_ms"]) == (True, 380)
    assert trial.data["plausible"] is True
    assert (trial.data["pile"], trial.data["onto"]) == (0, card_to_dict(n(1, "red", 2)))
    # Having seen the red 3 already there, the same play is the player's mistake.
    wrong = play(state, 2, 0, 0, GO + 900, size=3)
    assert wrong.rejected == "That card does not fit on that pile."
    assert wrong.state is state
    assert kinds(wrong.trials) == [(2, "false_alarm")]
    # A card that never fitted is a mistake however stale the tablet's picture.
    stale = play(state, 2, 1, 0, GO + 900, size=2)
    assert stale.rejected == "That card does not fit on that pile."
    assert kinds(stale.trials) == [(2, "false_alarm")]


# ============================================================================================
# Scoring and rounds


def _ending_table(*, round_number: int = 1, config: Config | None = None) -> Any:
    state = arranged(
        {1: filler(1, 5), 2: filler(2, 5)},
        config=config,
        refills={2: [n(2, "green", 4), n(2, "green", 5)]},
        centre=[pile(1, "red", 3), [start(2), n(2, "blue", 2)], [start(1)]],
    )
    state.round = round_number
    return state


def test_round_one_scoring() -> None:
    outcome = do(_ending_table(), 1, "out", GO + 5000)
    state = accepted(outcome)
    assert state.rounds == [
        {
            "round": 1,
            "seat": 1,
            "centre_cards": 4,
            "refill_left": 0,
            "out_bonus": 5,
            "round_score": 9,
            "total": 9,
        },
        {
            "round": 1,
            "seat": 2,
            "centre_cards": 2,
            "refill_left": 2,
            "out_bonus": 0,
            "round_score": -2,
            "total": -2,
        },
    ]
    assert all(set(row) == ROW_KEYS for row in state.rounds)
    assert outcome.events[-1].data["rows"] == state.rounds
    seen = view(state, None)
    assert seen["rounds"] == state.rounds
    assert [p["total"] for p in seen["players"]] == [9, -2]
    assert (seen["phase"], seen["out_by"], seen["ended_by"]) == ("round_over", 1, "out")
    assert seen["next_round_at_ms"] == GO + 5000 + ROUND_OVER_MS


@pytest.mark.parametrize("seed", range(6))
def test_from_round_two_the_out_bonus_is_a_d8(seed: int) -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, seed=seed)
    state.round = 2
    die = random.Random()
    die.setstate(state.rng.getstate())
    expected = die.randint(1, 8)
    after = accepted(do(state, 1, "out", GO + 10))
    assert after.rounds[0]["out_bonus"] == expected
    assert after.rounds[0]["round_score"] == expected
    assert 1 <= expected <= 8


def test_the_d8_varies() -> None:
    bonuses = set()
    for seed in range(40):
        state = arranged({1: filler(1, 5), 2: filler(2, 5)}, seed=seed)
        state.round = 3
        bonuses.add(accepted(do(state, 2, "out", GO + 10)).rounds[1]["out_bonus"])
    assert bonuses == set(range(1, 9))


def test_rounds_follow_each_other_by_the_clock() -> None:
    state = accepted(do(_ending_table(), 1, "out", 10_000))
    assert next_deadline(state) == 10_000 + ROUND_OVER_MS
    assert tick(state, 10_000 + ROUND_OVER_MS - 1).state is state
    assert do(state, 1, "turn", 11_000).rejected == "The round is over."
    outcome = tick(state, 10_000 + ROUND_OVER_MS)
    state = outcome.state
    assert [e.kind for e in outcome.events] == ["deal"]
    assert (state.phase, state.round, state.go_at_ms) == ("countdown", 2, 21_000)
    assert state.centre == []
    assert where_cards_are(state) == original_cards([1, 2])
    assert view(state, None)["rounds"][0]["total"] == 9
    assert view(state, None)["out_by"] is None
    assert do(state, 1, "turn", 20_000).rejected == "Wait for GO!"
    state = tick(state, 21_000).state
    assert state.phase == "playing"
    assert view(state, None)["go_at_ms"] == 21_000


def test_the_game_ends_after_the_round_in_which_someone_reaches_the_target() -> None:
    outcome = do(_ending_table(config=Config(target_score=9)), 1, "out", GO + 10)
    state = accepted(outcome)
    assert state.phase == "game_over"
    assert state.winners == [1]
    assert outcome.events[-1].kind == "game_over"
    assert outcome.events[-1].data == {
        "winners": [1],
        "totals": {"1": 9, "2": -2},
        "reason": "target",
    }
    assert next_deadline(state) is None
    assert do(state, 2, "turn", GO + 20).rejected == "The game is over."
    assert view(state, 2)["winners"] == [1]
    # Reaching the target is what ends it; the highest total wins, all of them on a tie.
    tied = _ending_table(config=Config(target_score=5))
    tied.players[2].total = 11
    assert accepted(do(tied, 1, "out", GO + 10)).winners == [1, 2]


def test_below_the_target_the_game_goes_on() -> None:
    state = accepted(do(_ending_table(config=Config(target_score=10)), 1, "out", GO + 10))
    assert state.phase == "round_over"
    assert view(state, None)["winners"] is None


# ============================================================================================
# The stall rule


def test_the_round_ends_when_everyone_has_recycled_twice_without_a_play() -> None:
    # Rows of six with refill cards left: nobody may call OUT or take another extra card.
    state = arranged(
        {1: filler(1, 6), 2: filler(2, 6)},
        stocks={1: [n(1, "blue", 7)], 2: [n(2, "blue", 7)]},
        refills={1: [n(1, "green", 4)], 2: [n(2, "green", 4)]},
        centre=[[start(2)]],
    )
    now = GO
    for _ in range(4):  # turn, recycle, turn, recycle
        now += 10
        state = accepted(do(state, 1, "turn", now))
    assert state.players[1].quiet_recycles == 2
    assert state.phase == "playing"
    for _ in range(3):
        now += 10
        state = accepted(do(state, 2, "turn", now))
    outcome = do(state, 2, "turn", now + 10)
    state = accepted(outcome)
    assert state.phase == "round_over"
    assert (state.ended_by, state.out_by) == ("stall", None)
    assert [row["out_bonus"] for row in state.rounds] == [0, 0]
    assert [e.kind for e in outcome.events] == ["recycle", "stall", "round_over"]


def test_a_play_starts_the_stall_count_again() -> None:
    state = arranged(
        {1: filler(1, 5), 2: [n(2, "red", 2), *filler(2, 4)]},
        stocks={1: [n(1, "blue", 7)]},
        refills={1: [n(1, "green", 4)], 2: [n(2, "green", 4)]},
        centre=[[start(2)]],
    )
    for t in range(4):
        state = accepted(do(state, 1, "turn", GO + t))
    assert state.players[1].quiet_recycles == 2
    state = accepted(play(state, 2, 0, 0, GO + 10))
    assert state.players[1].quiet_recycles == 0


def test_a_player_with_nothing_to_cycle_counts_as_stalled() -> None:
    state = arranged(
        {1: filler(1, 6), 2: filler(2, 6)},
        stocks={1: [n(1, "blue", 7)]},
        refills={1: [n(1, "green", 4)], 2: [n(2, "green", 4)]},
        centre=[[start(2)]],
    )
    for t in range(3):
        state = accepted(do(state, 1, "turn", GO + t))
    assert state.phase == "playing"
    state = accepted(do(state, 1, "turn", GO + 3))
    assert state.ended_by == "stall"


@pytest.mark.parametrize(
    ("refill_2", "hint"),
    [([], "you_can_out"), ([n(2, "green", 4)], "you_can_extra")],
    ids=["out", "extra"],
)
def test_no_stall_while_someone_may_call_out_or_take_an_extra_card(
    refill_2: list[Any], hint: str
) -> None:
    state = arranged(
        {1: filler(1, 6), 2: filler(2, 5)},
        stocks={1: [n(1, "blue", 7)]},
        refills={1: [n(1, "green", 4)], 2: refill_2},
        centre=[[start(2)]],
    )
    for t in range(6):
        state = accepted(do(state, 1, "turn", GO + t))
    assert state.phase == "playing"
    assert view(state, 2)[hint] is True


# ============================================================================================
# Views


def test_view_shape_and_json() -> None:
    state = _race_table()
    for seat in (None, 1, 2):
        seen = view(state, seat)
        assert set(seen) == VIEW_KEYS
        assert seen["game"] == "commotion"
        assert seen["you"] == seat
        assert seen["now_hint"] is None
        assert all(set(player) == PLAYER_KEYS for player in seen["players"])
        json.dumps(seen)
    assert view(state, 1)["playable"] == [{"source": "tableau", "card": 0, "piles": [0]}]
    assert view(state, None)["playable"] == []
    assert (view(state, None)["you_can_out"], view(state, None)["you_can_extra"]) == (False, False)


def test_views_differ_only_in_the_seat_hints() -> None:
    state = _race_table()
    private = ("you", "you_can_out", "you_can_extra", "playable")
    teacher = {k: v for k, v in view(state, None).items() if k not in private}
    for seat in (1, 2):
        assert {k: v for k, v in view(state, seat).items() if k not in private} == teacher


def test_view_never_shows_stock_or_refill_cards() -> None:
    # Seed 1: no card of seat 1's row fits the centre at GO, so it may turn its stock.
    state = setup(Config(), [1, 2, 3], seed=1)
    state = tick(state, GO).state
    state = accepted(do(state, 1, "turn", GO + 10))
    text = json.dumps([view(state, seat) for seat in (None, 1, 2, 3)])
    hidden = [
        card
        for player in state.players.values()
        for card in (*player.stock, *player.refill, *player.waste[:-1])
        if card.kind == "number"
    ]
    assert len(hidden) > 100
    for card in hidden:
        assert json.dumps(card_to_dict(card)) not in text
    assert "rng" not in text
    seen = view(state, 2)["players"][0]
    assert (seen["stock"], seen["waste"], seen["refill"]) == (31, 3, len(state.players[1].refill))
    assert seen["waste_top"] == card_to_dict(state.players[1].waste[-1])
    assert seen["tableau"] == [card_to_dict(card) for card in state.players[1].tableau]


def test_view_of_a_closed_pile_and_a_waste_play() -> None:
    state = arranged(
        {1: filler(1, 5, "green"), 2: filler(2, 5, "green")},
        wastes={1: [n(1, "red", 4)]},
        centre=[[*pile(2, "blue", 12), stop(2)], pile(2, "red", 3)],
    )
    seen = view(state, 1)
    assert seen["centre"][0] == {
        "cards": 13,
        "top": card_to_dict(stop(2)),
        "colour": "blue",
        "next": None,
        "closed": True,
        "wants": "none",
    }
    assert seen["playable"] == [{"source": "waste", "card": 0, "piles": [1]}]


# ============================================================================================
# Trials


def _two_start_table() -> Any:
    return arranged(
        {1: [n(1, "red", 2), n(1, "blue", 2), *filler(1, 3)], 2: filler(2, 5)},
        refills={1: filler(1, 3, "green")},
        centre=[[start(2)]],
    )


def test_a_play_is_a_hit_timed_from_when_the_card_became_playable() -> None:
    outcome = play(_two_start_table(), 1, 0, 0, GO + 600, rt=500, rtt=40)
    assert len(outcome.trials) == 1
    trial = outcome.trials[0]
    assert (trial.seat, trial.kind) == (1, "commotion.play")
    assert set(trial.data) == TRIAL_KEYS
    assert trial.data == {
        "outcome": "spotted",
        "level": "refill_13_turn_3",
        "target": True,
        "responded": True,
        "congruent": None,
        "rt_ms": 500,
        "plausible": True,
        "correct": True,
        "card": card_to_dict(n(1, "red", 2)),
        "source": "tableau",
        "round": 1,
        "bot": False,
        "pile": 0,
        "onto": card_to_dict(start(2)),
    }
    json.dumps(dict(trial.data))


@pytest.mark.parametrize(
    ("after", "rt", "plausible"),
    [
        (300, 149, False),  # under the human floor
        (300, 150, True),
        (600, 740, True),  # played 600 ms after GO, round trip 40, slack 100: at most 740
        (600, 741, False),
        (600, 0, False),
        (600, 259, False),  # 600 - 40 - 300 ms lag slack: the arrival allows no less than 260
        (600, 260, True),
    ],
)
def test_plausible_reaction_times(after: int, rt: int, plausible: bool) -> None:
    trial = play(_two_start_table(), 1, 0, 0, GO + after, rt=rt, rtt=40).trials[0]
    assert trial.data["plausible"] is plausible
    assert trial.data["rt_ms"] == rt


def test_an_opportunity_opens_when_someone_else_makes_a_card_playable() -> None:
    state = arranged(
        {1: [RED3_1, *filler(1, 4)], 2: [n(2, "red", 2), *filler(2, 4)]},
        refills={2: filler(2, 2, "green")},
        centre=[[start(2)]],
    )
    outcome = play(state, 2, 0, 0, GO + 2000)
    # Seat 2's hit; seat 1's red 3 was not playable before, so it only opens now.
    assert kinds(outcome.trials) == [(2, "hit")]
    state = accepted(outcome)
    trial = play(state, 1, 0, 0, GO + 2300, rt=250, rtt=40).trials[0]
    assert trial.data["plausible"] is True
    trial = play(state, 1, 0, 0, GO + 2300, rt=600, rtt=40).trials[0]
    assert trial.data["plausible"] is False


def test_someone_else_taking_the_slot_is_beaten_not_a_miss() -> None:
    outcome = play(_race_table(), 2, 0, 0, GO + 700)
    assert kinds(outcome.trials) == [(2, "hit"), (1, "beaten")]
    beaten = outcome.trials[1].data
    assert (beaten["rt_ms"], beaten["plausible"], beaten["correct"]) == (None, True, None)
    assert (beaten["outcome"], beaten["target"]) == ("beaten", None)
    assert beaten["card"] == card_to_dict(RED3_1)
    assert outcome.trials[0].data["outcome"] == "spotted"


def test_answering_a_slot_with_another_card_is_no_miss() -> None:
    state = _two_start_table()
    outcome = play(state, 1, 0, 0, GO + 600)
    # The blue 2 no longer fits anywhere, but the seat answered that slot with its red 2.
    assert kinds(outcome.trials) == [(1, "hit")]
    state = accepted(outcome)
    assert state.opportunities[1] == []


def test_turning_the_stock_over_a_playable_card_is_a_miss() -> None:
    state = arranged(
        {1: filler(1, 5), 2: filler(2, 5)},
        wastes={1: [n(1, "red", 3)]},
        stocks={1: [n(1, "green", 6)]},
        centre=[pile(2, "red", 2)],
    )
    outcome = do(state, 1, "turn", GO + 3000)
    assert kinds(outcome.trials) == [(1, "miss")]
    assert outcome.trials[0].data["source"] == "waste"


def test_the_round_end_closes_open_opportunities_as_misses() -> None:
    state = arranged(
        {1: [RED3_1, *filler(1, 4)], 2: filler(2, 5)},
        refills={1: filler(1, 2, "green")},
        centre=[pile(2, "red", 2)],
    )
    outcome = do(state, 2, "out", GO + 1000)
    assert kinds(outcome.trials) == [(1, "miss")]


def test_refused_inputs_other_than_misplays_carry_no_trial() -> None:
    state = _race_table()
    for action in (
        {"kind": "extra"},
        {"kind": "out"},
        {"kind": "play", "source": "tableau", "card": 9, "pile": 0},
        {"kind": "play", "source": "sleeve", "card": 0, "pile": 0},
    ):
        outcome = act(state, 1, action, GO + 100)
        assert outcome.rejected is not None
        assert outcome.trials == ()


def test_bots_produce_no_trials() -> None:
    sure = BotSkill(move_every_ms=500, error_rate=0.0)
    state = arranged(
        {1: [RED3_1, *filler(1, 4)], 2: [RED3_2, *filler(2, 4)]},
        refills={1: filler(1, 2, "green"), 2: filler(2, 2, "green")},
        centre=[pile(1, "red", 2)],
        bots={2: sure},
    )
    deadline = next_deadline(state)
    assert deadline is not None
    outcome = tick(state, deadline)
    assert outcome.state.centre[0][-1] == RED3_2
    # Only the human's opportunity, beaten by the bot: the bot's play is not a trial.
    assert kinds(outcome.trials) == [(1, "beaten")]
    assert state.opportunities.keys() == {1}


def test_trials_name_the_seat_refill_size() -> None:
    config = Config(refill_by_seat=((1, 7),), stock_turn=1)
    state = arranged(
        {1: [n(1, "red", 2), *filler(1, 4)], 2: filler(2, 5)},
        config=config,
        centre=[[start(2)]],
    )
    assert play(state, 1, 0, 0, GO + 500).trials[0].data["level"] == "refill_7_turn_1"


# ============================================================================================
# Refusals never change anything


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "turn",
        {},
        {"kind": "dance"},
        {"kind": 3},
        {"kind": "play"},
        {"kind": "play", "source": "hand", "card": 0, "pile": 0},
        {"kind": "play", "source": "tableau", "pile": 0},
        {"kind": "play", "source": "tableau", "card": "0", "pile": 0},
        {"kind": "play", "source": "tableau", "card": True, "pile": 0},
        {"kind": "play", "source": "tableau", "card": -1, "pile": 0},
        {"kind": "play", "source": "tableau", "card": 0},
        {"kind": "play", "source": "tableau", "card": 0, "pile": -2},
        {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "pile_size": 1.5},
        {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "rt_ms": -5},
        {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "rtt_ms": 10**9},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action: Any) -> None:
    state = _race_table()
    before = state_fingerprint(state)
    outcome = act(state, 1, action, GO + 500)
    assert outcome.state is state
    assert isinstance(outcome.rejected, str)
    assert outcome.rejected.endswith(".")
    assert outcome.trials == ()
    assert state_fingerprint(state) == before


def test_unknown_kinds_are_not_part_of_this_game() -> None:
    outcome = act(_race_table(), 1, {"kind": "slap"}, GO + 1)
    assert outcome.rejected == "That move is not part of this game."


def test_strangers_and_bots_cannot_act() -> None:
    state = arranged({1: filler(1, 5), 2: filler(2, 5)}, bots={2: BotSkill()})
    stranger = do(state, 9, "turn", GO)
    assert stranger.rejected == "You do not have a seat at this table."
    bot = do(state, 2, "turn", GO)
    assert bot.rejected == "That seat is played by the computer."
    assert stranger.state is state
    assert bot.state is state


def test_act_and_tick_leave_their_input_alone() -> None:
    state = _race_table()
    before = state_fingerprint(state)
    after = accepted(play(state, 1, 0, 0, GO + 400))
    assert state_fingerprint(state) == before
    assert state.centre[0] == pile(1, "red", 2)
    assert after is not state
    fresh = setup(Config(), [1, 2], seed=1, bots={2: BotSkill()})
    before = state_fingerprint(fresh)
    ticked = tick(fresh, 10_000).state
    assert ticked is not fresh
    assert state_fingerprint(fresh) == before


def test_tick_with_nothing_due_returns_the_same_state() -> None:
    state = _race_table()
    assert next_deadline(state) is None  # no bots: nothing happens without an input
    outcome = tick(state, 60_000)
    assert outcome.state is state
    assert outcome.events == ()


# ============================================================================================
# Replay


def test_replay_reproduces_the_game() -> None:
    config = Config(refill_size=6, target_score=15)
    seats = [1, 2, 3]
    bots = {3: BotSkill(move_every_ms=700)}
    state = setup(config, seats, 21, bots)
    log: list[tuple[str, int | None, Any, int]] = []
    rnd = random.Random(4)
    now = 0
    while state.phase != "game_over" and now < 600_000:
        outcome = tick(state, now)
        if outcome.state is not state:
            log.append(("tick", None, None, now))
        state = outcome.state
        for seat in (1, 2):
            seen = view(state, seat)
            action: dict[str, Any]
            if seen["you_can_out"]:
                action = {"kind": "out"}
            elif seen["playable"] and rnd.random() < 0.8:
                option = rnd.choice(seen["playable"])
                target = rnd.choice(option["piles"])
                size = seen["centre"][target]["cards"] if target >= 0 else -1
                action = {
                    "kind": "play",
                    "source": option["source"],
                    "card": option["card"],
                    "pile": target,
                    "pile_size": size,
                    "rt_ms": 600,
                    "rtt_ms": 30,
                }
            elif seen["you_can_extra"]:
                action = {"kind": "extra"}
            else:
                action = {"kind": "turn"}
            outcome = act(state, seat, action, now)
            if outcome.accepted:
                log.append(("act", seat, action, now))
            state = outcome.state
        now += 433
    assert state.phase == "game_over"
    rebuilt = replay(config, seats, 21, bots, log)
    assert state_fingerprint(rebuilt) == state_fingerprint(state)
    assert rebuilt == state
    assert view(rebuilt, None) == view(state, None)
    assert len(log) > 100


def test_replay_rejects_a_broken_log() -> None:
    with pytest.raises(ValueError, match="log entry"):
        replay(Config(), [1, 2], 1, None, [("act", None, None, 5)])
