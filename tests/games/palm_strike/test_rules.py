"""Palm Strike's rules: matching, the four slap cases, the race, scopes, variants, team mode,
pacing, refusals, trials and views."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from games.engine.settings import SettingError
from games.palm_strike import rules
from games.palm_strike.bots import BotSkill
from games.palm_strike.cards import PlayerCard, PublicCard, card_to_dict
from games.palm_strike.config import Config
from games.palm_strike.rules import (
    MAX_FLIPS_PER_ROUND,
    TURN_TIMEOUT_MS,
    act,
    matches,
    next_deadline,
    replay,
    setup,
    state_fingerprint,
    tick,
    view,
)
from games.palm_strike.seating import neighbours
from tests.games.palm_strike.support import (
    BG,
    GB,
    GP,
    O_NONE,
    O_RY,
    PB,
    PG,
    Q_GP,
    Q_NONE,
    Q_RY,
    RY,
    RY2,
    YR,
    accepted,
    advance,
    arranged,
    choose,
    claim,
    flip,
    original_decks,
    slap,
    where_cards_are,
)

TRIAL_KEYS = {
    "flip",
    "level",
    "public",
    "target",
    "responded",
    "congruent",
    "response",
    "rt_ms",
    "plausible",
    "correct",
    "first",
    "bot",
}
VIEW_KEYS = {
    "game",
    "phase",
    "level",
    "team_mode",
    "deck_swap",
    "round",
    "flip",
    "public",
    "window_closes_ms",
    "active_seat",
    "players",
    "centre",
    "claims",
    "deck_count",
    "discard_count",
    "player_deck_count",
    "you",
    "chooser",
    "choice",
    "last",
    "mine",
    "glow",
    "winners",
    "target",
}


def _last(state: rules.State) -> Any:
    return view(state, None)["last"]


def _phase(state: rules.State) -> Any:
    return view(state, None)["phase"]


# ============================================================================================
# matches()

P = PlayerCard("red", "yellow")  # red background, yellow picture
# A single round: the first player with no cards wins the game.
ONE_ROUND = Config(points_target=0)


@pytest.mark.parametrize(
    ("public", "beginner", "intermediate", "advanced"),
    [
        # word = picture colour, ink = background colour: a match at every level.
        (PublicCard(bg="blue", word="yellow", ink="red"), True, True, True),
        # Word and ink swapped: intermediate accepts either order, advanced does not.
        (PublicCard(bg="blue", word="red", ink="yellow"), True, True, False),
        # Both colours among bg/word/ink, but not as word and ink: beginner only.
        (PublicCard(bg="yellow", word="red", ink="blue"), True, False, False),
        (PublicCard(bg="red", word="blue", ink="yellow"), True, False, False),
        # Congruent card on a matching background: beginner only.
        (PublicCard(bg="red", word="yellow", ink="yellow"), True, False, False),
        # Only one of the two colours: never.
        (PublicCard(bg="green", word="red", ink="blue"), False, False, False),
        (PublicCard(bg="yellow", word="yellow", ink="green"), False, False, False),
        # Neither colour.
        (PublicCard(bg="purple", word="green", ink="blue"), False, False, False),
    ],
)
def test_matches_worked_examples(
    public: PublicCard, beginner: bool, intermediate: bool, advanced: bool
) -> None:
    assert matches(public, P, "beginner") is beginner
    assert matches(public, P, "intermediate") is intermediate
    assert matches(public, P, "advanced") is advanced


def test_matches_ignores_the_motif() -> None:
    public = PublicCard("blue", "yellow", "red")
    assert matches(public, PlayerCard("red", "yellow", "fish"), "advanced")


def test_matches_unknown_level_is_an_error() -> None:
    with pytest.raises(ValueError, match="level"):
        matches(Q_RY, P, "expert")


# ============================================================================================
# Setup


def test_setup_deals_each_seat_its_cards_face_up() -> None:
    state = setup(Config(cards_per_player=3), [4, 7, 9], seed=1)
    assert [len(state.hands[seat]) for seat in (4, 7, 9)] == [3, 3, 3]
    assert len(state.player_deck) == 21
    assert len(state.flip_deck) == 30
    assert state.active_seat in (4, 7, 9)
    dealt, flipped = original_decks(Config(), 1)
    assert where_cards_are(state) == (dealt, flipped)


def test_setup_is_seeded() -> None:
    one = setup(Config(), [1, 2, 3], seed=5)
    assert state_fingerprint(one) == state_fingerprint(setup(Config(), [1, 2, 3], seed=5))
    starters = {setup(Config(), [1, 2, 3], seed=s).active_seat for s in range(30)}
    assert starters == {1, 2, 3}


@pytest.mark.parametrize(
    ("config", "seats", "bots"),
    [
        (Config(), [1], None),
        (Config(), list(range(9)), None),
        (Config(), [1, 1], None),
        (Config(), [1, True], None),
        (Config(team_mode=True), list(range(41)), None),
        (Config(), [1, 2], {3: BotSkill()}),
    ],
)
def test_setup_refuses_a_bad_table(
    config: Config, seats: list[int], bots: dict[int, BotSkill] | None
) -> None:
    with pytest.raises(SettingError):
        setup(config, seats, 1, bots)


def test_team_mode_lays_the_centre() -> None:
    state = setup(Config(team_mode=True, centre_cards=6), [1], seed=2)
    assert len(state.centre) == 6
    assert state.hands == {1: []}
    assert len(state.player_deck) == 24


# ============================================================================================
# The four cases


def test_own_match_sends_that_card_under_the_player_deck() -> None:
    state = flip(arranged(Config(), {1: [GP, RY], 2: [PG, GB]}, [Q_RY]), 1, 0)
    state = slap(state, 1, 600, rt=550)
    assert _last(state)["winner"] is None  # still inside the grace window
    state, events, _ = advance(state, 750)
    assert state.hands[1] == [GP]
    assert state.player_deck[-1] == RY
    assert _last(state) == {"flip": 1, "winner": 1, "outcome": "own", "slappers": [1]}
    assert any(e.kind == "resolved" and e.data["outcome"] == "own" for e in events)


def test_match_with_another_player_gives_them_a_card_of_your_choice() -> None:
    state = flip(arranged(Config(), {1: [GP, PG], 2: [RY, GB]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    assert view(state, 1)["phase"] == "choosing"
    assert view(state, 1)["choice"] == {
        "reason": "give",
        "to_seat": 2,
        "deadline_ms": 5750,
        "players": [],
    }
    state = choose(state, 1, 1, 1000)
    assert state.hands == {1: [GP], 2: [RY, GB, PG]}
    assert _last(state)["outcome"] == "other"


def test_match_with_another_player_and_one_card_gives_it_and_wins() -> None:
    state = flip(arranged(ONE_ROUND, {1: [GP], 2: [RY, GB]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    assert state.hands == {1: [], 2: [RY, GB, GP]}
    # The window stays open for everyone's responses; the game ends when it closes.
    assert _phase(state) == "open"
    state, events, trials = advance(state, 2500)
    assert state.game_over
    assert view(state, None)["winners"] == [1]
    assert _phase(state) == "game_over"
    assert len(trials) == 2
    assert [e.kind for e in events][-1] == "game_over"


def test_both_returns_a_card_of_your_choice_to_the_deck() -> None:
    state = flip(arranged(Config(), {1: [RY, GP], 2: [RY2]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    assert view(state, 1)["choice"] == {
        "reason": "return",
        "to_seat": None,
        "deadline_ms": 5750,
        "players": [],
    }
    state = choose(state, 1, 1, 900)
    assert state.hands == {1: [RY], 2: [RY2]}
    assert state.player_deck[-1] == GP
    assert _last(state)["outcome"] == "both"


def test_false_slap_draws_the_top_player_card() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [GB]}, [Q_NONE], deck=[BG, PB]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    assert state.hands[1] == [GP, BG]
    assert state.player_deck == [PB]
    assert _last(state)["outcome"] == "false"


def test_false_slap_with_an_empty_player_deck_draws_nothing() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [GB]}, [Q_NONE], deck=[]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    assert state.hands[1] == [GP]
    assert _last(state)["outcome"] == "false"


# ============================================================================================
# Choices


def _choosing() -> rules.State:
    state = flip(arranged(Config(), {1: [GP, PG], 2: [RY, GB]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 1, 600), 750)
    return state


def test_choice_defaults_to_the_first_card_after_five_seconds() -> None:
    state, _, _ = advance(_choosing(), 5749)
    assert _phase(state) == "choosing"  # the window has closed; the choice has not
    state, events, _ = advance(state, 5750)
    assert state.hands == {1: [PG], 2: [RY, GB, GP]}
    chosen = next(e for e in events if e.kind == "chosen")
    assert chosen.data["default"] is True


def test_only_the_chooser_sees_the_choice() -> None:
    state = _choosing()
    assert view(state, 1)["choice"] is not None
    assert view(state, 2)["choice"] is None
    assert view(state, None)["choice"] is None
    assert view(state, 2)["chooser"] == 1


@pytest.mark.parametrize(
    ("seat", "card", "reason"),
    [
        (2, 0, "no card to choose"),
        (1, 2, "do not have that card"),
    ],
)
def test_bad_choices_are_refused(seat: int, card: int, reason: str) -> None:
    state = _choosing()
    outcome = act(state, seat, {"kind": "choose", "card": card}, 1000)
    assert outcome.state is state
    assert outcome.rejected is not None
    assert reason in outcome.rejected


def test_turn_passes_only_when_the_window_is_closed_and_the_choice_made() -> None:
    state, _, _ = advance(_choosing(), 3000)
    assert state.active_seat == 1
    refused = act(state, 2, {"kind": "flip"}, 3000)
    assert refused.rejected is not None
    assert "choosing" in refused.rejected
    state = choose(state, 1, 0, 3100)
    assert state.active_seat == 2
    assert _phase(state) == "waiting_flip"
    flip(state, 2, 3200)


# ============================================================================================
# The race


def _race_table() -> rules.State:
    hands = {1: [GP, GB], 2: [PG, BG], 3: [RY, PB], 4: [GB, PB]}
    return flip(arranged(Config(), hands, [Q_RY]), 1, 0)


def test_earliest_reaction_time_wins_not_earliest_arrival() -> None:
    state = slap(_race_table(), 1, 1000, rt=700)
    # Arrives later, inside the grace window: a slower link (the server measured 250 ms).
    state = slap(state, 2, 1100, rt=600, rtt=250)
    state = slap(state, 4, 1200, rt=300, rtt=600)  # after the grace window: cannot win
    state, _, trials = advance(state, 2500)
    assert _last(state)["winner"] == 2
    assert _last(state)["slappers"] == [1, 2, 4]
    firsts = {trial.seat: trial.data["first"] for trial in trials}
    assert firsts == {1: False, 2: True, 3: False, 4: False}
    assert {trial.seat: trial.data["rt_ms"] for trial in trials} == {
        1: 700,
        2: 600,
        3: None,
        4: 300,
    }


def test_an_implausibly_fast_slap_cannot_win_but_is_recorded() -> None:
    state = slap(_race_table(), 1, 1000, rt=50)
    state = slap(state, 2, 1050, rt=700, rtt=100)
    state, _, trials = advance(state, 2500)
    assert _last(state)["winner"] == 2
    by_seat = {trial.seat: trial.data for trial in trials}
    assert by_seat[1]["plausible"] is False
    assert by_seat[1]["response"] == "slap"
    assert by_seat[1]["rt_ms"] == 50
    assert by_seat[2]["plausible"] is True


@pytest.mark.parametrize(
    ("rt", "plausible"),
    [
        (99, False),
        (100, True),
        (390, True),  # age 300 + round trip 40 + 50 ms slack
        (391, False),  # longer than the card has been shown
    ],
)
def test_plausibility_bounds(rt: int, plausible: bool) -> None:
    state = slap(_race_table(), 1, 300, rt=rt, rtt=40)
    state, _, trials = advance(state, 2500)
    assert next(t for t in trials if t.seat == 1).data["plausible"] is plausible
    assert (_last(state)["winner"] == 1) is plausible


@pytest.mark.parametrize(
    ("rt", "plausible"),
    [
        (659, False),  # age 1000 - round trip 40 - 300 ms lag slack: a claimed speed
        (660, True),
        (900, True),
    ],
)
def test_a_reaction_time_the_arrival_cannot_explain_is_implausible(
    rt: int, plausible: bool
) -> None:
    # The slap reached the server 1000 ms after the flip over a 40 ms round trip: at least
    # 660 ms of that was the child's (games.engine.reaction.LAG_SLACK_MS).
    state = slap(_race_table(), 1, 1000, rt=rt, rtt=40)
    state, _, trials = advance(state, 2500)
    assert next(t for t in trials if t.seat == 1).data["plausible"] is plausible
    assert (_last(state)["winner"] == 1) is plausible


def _untimed_slap(state: rules.State, seat: int, now: int, why: str = "hidden") -> rules.State:
    # A page that could not time the tap (hidden, or the card not yet painted) says why.
    action = {"kind": "slap", "flip": state.flips, "rtt_ms": 40, "untimed": why}
    outcome = act(state, seat, action, now)
    assert outcome.rejected is None
    return outcome.state


def test_an_untimed_slap_is_judged_and_its_trial_says_why_it_has_no_rt() -> None:
    state = _untimed_slap(_race_table(), 1, 800, "hidden")
    state = _untimed_slap(state, 3, 900, "unpainted")
    state, _, trials = advance(state, 2500)
    by_seat = {trial.seat: trial.data for trial in trials}
    assert by_seat[1]["response"] == "slap"
    assert by_seat[1]["rt_ms"] is None
    assert by_seat[1]["untimed"] == "hidden"
    assert by_seat[1]["plausible"] is True
    assert by_seat[3]["untimed"] == "unpainted"
    assert "untimed" not in by_seat[2]


def test_an_untimed_slap_alone_wins_the_race() -> None:
    state = _untimed_slap(_race_table(), 1, 800)
    state, _, _ = advance(state, 2500)
    assert _last(state)["winner"] == 1


@pytest.mark.parametrize(("rt", "winner"), [(700, 2), (800, 1)])
def test_an_untimed_slap_races_with_the_cards_age_less_the_round_trip(rt: int, winner: int) -> None:
    # Seat 1's slap arrives at 800 over a 40 ms round trip: it races with 760 ms.
    state = _untimed_slap(_race_table(), 1, 800)
    state = slap(state, 2, 850, rt=rt, rtt=40)
    state, _, _ = advance(state, 2500)
    assert _last(state)["winner"] == winner


def test_a_slap_with_neither_a_time_nor_a_reason_is_refused() -> None:
    state = _race_table()
    outcome = act(state, 1, {"kind": "slap", "flip": state.flips, "rtt_ms": 40}, 800)
    assert outcome.rejected == "The reaction time is missing."
    assert outcome.state is state
    wrong = {"kind": "slap", "flip": state.flips, "untimed": "asleep"}
    assert act(state, 1, wrong, 800).rejected == (
        "Say why the reaction time is missing: hidden or unpainted."
    )


def test_a_timed_slap_keeps_its_time_whatever_else_it_says() -> None:
    action = {"kind": "slap", "flip": 1, "rt_ms": 500, "rtt_ms": 40, "untimed": "hidden"}
    state = accepted(act(_race_table(), 1, action, 800))
    state, _, trials = advance(state, 2500)
    data = next(t.data for t in trials if t.seat == 1)
    assert data["rt_ms"] == 500
    assert "untimed" not in data


def test_a_race_of_only_implausible_slaps_stays_open() -> None:
    state = slap(_race_table(), 1, 500, rt=20)
    state, events, _ = advance(state, 650)
    assert _last(state)["winner"] is None
    assert any(e.kind == "race_void" for e in events)
    state = slap(state, 2, 900, rt=800)  # opens a new grace window
    state, _, _ = advance(state, 1050)
    assert _last(state)["winner"] == 2


def test_slaps_after_the_race_are_recorded_but_move_nothing() -> None:
    state, _, _ = advance(slap(_race_table(), 3, 500), 650)
    hands = {seat: list(cards) for seat, cards in state.hands.items()}
    state = slap(state, 1, 900, rt=850)
    state, _, trials = advance(state, 2500)
    assert state.hands == hands
    assert next(t for t in trials if t.seat == 1).data["response"] == "slap"


def test_a_slap_on_an_old_flip_is_too_late() -> None:
    state, _, _ = advance(_race_table(), 2500)
    state = flip(state, 2, 3000)
    outcome = act(state, 3, {"kind": "slap", "flip": 1, "rt_ms": 400, "rtt_ms": 30}, 3100)
    assert outcome.state is state
    assert outcome.rejected is not None
    assert "too late" in outcome.rejected.lower()


def test_a_slap_when_the_window_has_closed_is_too_late() -> None:
    state = _race_table()
    # No tick has run yet: the input itself is judged at its own time.
    outcome = act(state, 3, {"kind": "slap", "flip": 1, "rt_ms": 400, "rtt_ms": 30}, 2500)
    assert outcome.state is state
    assert outcome.rejected is not None
    assert "too late" in outcome.rejected.lower()


def test_a_slap_on_a_card_not_yet_flipped_is_refused() -> None:
    state = _race_table()
    outcome = act(state, 3, {"kind": "slap", "flip": 2, "rt_ms": 400, "rtt_ms": 30}, 100)
    assert outcome.state is state
    assert outcome.rejected == "That card has not been flipped yet."


def test_one_slap_per_seat_per_flip() -> None:
    state = slap(_race_table(), 1, 500)
    outcome = act(state, 1, {"kind": "slap", "flip": 1, "rt_ms": 450, "rtt_ms": 30}, 550)
    assert outcome.state is state
    assert outcome.rejected == "You already slapped this card."


def test_an_act_runs_due_timers_first() -> None:
    # The host is late with its tick: the grace window ended at 650, and a slap at 700 must
    # not join a race that was already decided.
    state = slap(_race_table(), 3, 500, rt=450)
    state = slap(state, 1, 700, rt=100)
    assert _last(state)["winner"] == 3


# ============================================================================================
# Slap scopes


def test_neighbours_wrap_round_the_table() -> None:
    seats = [5, 6, 7, 8]
    assert neighbours(seats, 5) == (6, 8)
    assert neighbours(seats, 8) == (5, 7)
    assert neighbours([1, 2], 1) == (2, 2)


def _scoped(scope: str, hands: dict[int, list[Any]], slapper: int) -> Any:
    state = flip(arranged(Config(slap_scope=scope), hands, [Q_RY]), 1, 0)  # type: ignore[arg-type]
    state, _, trials = advance(slap(state, slapper, 500), 2500)
    by_seat = {trial.seat: trial.data["target"] for trial in trials}
    return _last(state)["outcome"], by_seat, state


@pytest.mark.parametrize(
    ("scope", "slapper", "outcome"),
    [
        ("own", 1, "own"),
        ("own", 2, "false"),  # the match is someone else's
        ("others", 1, "false"),  # the match is your own
        ("others", 2, "other"),
        ("neighbours", 2, "other"),
        ("any", 1, "own"),
        ("any", 2, "other"),
    ],
)
def test_slap_scope_two_players(scope: str, slapper: int, outcome: str) -> None:
    result, _, _ = _scoped(scope, {1: [RY], 2: [GP]}, slapper)
    assert result == outcome


def test_scope_neighbours_only_counts_left_and_right() -> None:
    hands = {1: [GP], 2: [PG], 3: [RY, GB], 4: [BG]}
    outcome, in_scope, _ = _scoped("neighbours", hands, 1)
    assert outcome == "false"  # seat 3 sits opposite seat 1
    assert in_scope == {1: False, 2: True, 3: False, 4: True}


def test_scope_neighbours_wraps_round() -> None:
    hands = {1: [GP], 2: [PG], 3: [BG], 4: [RY, GB]}
    outcome, in_scope, state = _scoped("neighbours", hands, 1)
    assert outcome == "other"
    assert state.hands[4] == [RY, GB, GP]  # seat 1's right neighbour, round the corner
    assert in_scope == {1: True, 2: False, 3: True, 4: False}


def test_scope_others_gives_to_the_first_matching_seat_clockwise() -> None:
    hands = {1: [GP], 2: [GB], 3: [RY], 4: [RY2]}
    state = flip(arranged(Config(slap_scope="others"), hands, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 4, 500), 650)
    # From seat 4 clockwise: 1, 2, 3 -> seat 3 is the first with a match.
    assert state.hands[3] == [RY, RY2]


# ============================================================================================
# Levels, deck swap, reshuffle


def test_level_decides_the_match() -> None:
    hands = {1: [YR], 2: [GP]}
    for level, outcome in (("intermediate", "own"), ("advanced", "false")):
        state = flip(arranged(Config(level=level), hands, [Q_RY]), 1, 0)  # type: ignore[arg-type]
        state, _, _ = advance(slap(state, 1, 500), 650)
        assert _last(state)["outcome"] == outcome


def test_deck_swap_deals_orange_and_flips_white() -> None:
    state = setup(Config(deck_swap=True), [1, 2], seed=3)
    assert all(isinstance(c, PublicCard) for cards in state.hands.values() for c in cards)
    assert all(isinstance(c, PlayerCard) for c in state.flip_deck)


def test_deck_swap_matches_with_roles_swapped() -> None:
    config = Config(deck_swap=True)
    state = flip(arranged(config, {1: [O_RY, O_NONE], 2: [O_NONE]}, [RY]), 1, 0)
    state, _, trials = advance(slap(state, 1, 500), 2500)
    assert state.hands[1] == [O_NONE]
    assert _last(state)["outcome"] == "own"
    assert trials[0].data["congruent"] is None
    assert trials[0].data["public"] == card_to_dict(RY)


def test_the_discard_is_reshuffled_when_the_deck_runs_out() -> None:
    state = setup(Config(), [1, 2], seed=5)
    state.started = True
    state.active_seat = 1
    state.discard, state.flip_deck = state.flip_deck[1:], state.flip_deck[:1]
    state, _, _ = advance(flip(state, 1, 0), 2500)
    assert view(state, None)["deck_count"] == 0
    outcome = act(state, 2, {"kind": "flip"}, 3000)
    assert next(e.kind for e in outcome.events) == "reshuffle"
    after = view(outcome.state, None)
    assert (after["deck_count"], after["discard_count"]) == (29, 1)
    assert where_cards_are(outcome.state) == original_decks(Config(), 5)


# ============================================================================================
# Winning and the points variant


def test_first_player_with_no_cards_wins() -> None:
    state = flip(arranged(ONE_ROUND, {1: [GP, PB], 2: [RY], 3: [GB]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 2, 500), 2500)
    assert state.game_over
    assert state.winners == [2]
    outcome = act(state, 1, {"kind": "flip"}, 3000)
    assert outcome.rejected == "The game is over."
    assert outcome.state is state
    assert tick(state, 9000).state is state
    assert next_deadline(state) is None


def test_points_round_winner_scores_everyone_elses_cards() -> None:
    config = Config(points_target=10)
    state = flip(arranged(config, {1: [GP, PB], 2: [RY], 3: [GB, BG, PG]}, [Q_RY]), 1, 0)
    state, _, _ = advance(slap(state, 2, 500), 2500)
    seen = view(state, None)
    assert seen["phase"] == "round_over"
    assert seen["winners"] == [2]
    assert [p["score"] for p in seen["players"]] == [0, 5, 0]
    assert next_deadline(state) == 2500 + rules.ROUND_BREAK_MS
    cards_before = Counter(where_cards_are(state)[0])
    state, events, _ = advance(state, 6500)
    assert "round_started" in [e.kind for e in events]
    seen = view(state, None)
    assert (seen["round"], seen["phase"], seen["public"]) == (2, "waiting_flip", None)
    assert [p["card_count"] for p in seen["players"]] == [2, 2, 2]
    assert Counter(where_cards_are(state)[0]) == cards_before
    assert state.active_seat == 2  # the turn went on clockwise


def test_points_game_ends_at_the_target() -> None:
    config = Config(points_target=5)
    state = flip(arranged(config, {1: [GP, PB], 2: [RY], 3: [GB, BG, PG]}, [Q_RY]), 1, 0)
    state.scores[1] = 4  # seat 1 is close, but seat 2 wins the round with 5 points
    state, _, _ = advance(slap(state, 2, 500), 2500)
    assert state.game_over
    assert view(state, None)["winners"] == [2]
    assert view(state, None)["target"] == 5


def test_safety_net_ends_an_endless_round_with_the_fewest_cards() -> None:
    state = arranged(ONE_ROUND, {1: [GP, PB], 2: [GB], 3: [BG, PG]}, [Q_NONE])
    state.round_flips = MAX_FLIPS_PER_ROUND - 1
    state, _, _ = advance(flip(state, 1, 0), 2500)
    assert state.game_over
    assert state.winners == [2]


def test_deck_swap_stalemate_in_scope_own_ends_the_round() -> None:
    # O_NONE (yellow / blue / blue) matches no card of this flip deck, and each player has
    # one: in scope A nobody can ever empty their area.
    config = Config(deck_swap=True, slap_scope="own", points_target=0)
    state = arranged(config, {1: [O_NONE, O_RY], 2: [O_NONE]}, [GP, RY])
    state, _, _ = advance(flip(state, 1, 0), 2500)
    assert state.game_over
    assert state.winners == [2]


# ============================================================================================
# Team mode

TEAM = Config(team_mode=True)


def _team(config: Config = TEAM, **kwargs: Any) -> rules.State:
    kwargs.setdefault("centre", [GP, RY, PG])
    hands = kwargs.pop("hands", {1: [], 2: [], 3: []})
    return flip(arranged(config, hands, [Q_RY, Q_GP], **kwargs), 1, 0)


def test_team_claim_takes_the_centre_card() -> None:
    state = claim(_team(), 2, 1, 600)
    state, _, _ = advance(state, 750)
    assert state.hands[2] == [RY]
    assert state.centre == [GP, None, PG]  # A: no refill
    # While the window is open tablets keep the centre as flipped (claims are judged on it).
    assert view(state, None)["centre"] == [card_to_dict(GP), card_to_dict(RY), card_to_dict(PG)]
    state, _, _ = advance(state, 2500)
    assert view(state, None)["centre"] == [card_to_dict(GP), card_to_dict(PG)]
    assert view(state, None)["claims"] == {"1": 0, "2": 1, "3": 0}
    assert _last(state)["outcome"] == "claim"


def test_team_wrong_claim_is_a_false_alarm() -> None:
    state = claim(_team(), 3, 0, 500)
    assert _last(state)["outcome"] is None  # the race is not settled by a wrong claim
    state = claim(state, 2, 1, 900, rt=850)  # no grace window was opened by the false alarm
    state, _, trials = advance(state, 2500)
    assert _last(state)["outcome"] == "claim"
    assert _last(state)["winner"] == 2
    assert state.hands == {1: [], 2: [RY], 3: []}
    by_seat = {trial.seat: trial for trial in trials}
    assert by_seat[3].kind == "palm_strike.team_flip"
    assert by_seat[3].data["correct"] is False
    assert by_seat[3].data["claimed_card"] == card_to_dict(GP)
    assert by_seat[2].data["correct"] is True
    assert by_seat[2].data["first"] is True
    assert by_seat[1].data["claimed_card"] is None
    assert by_seat[1].data["correct"] is False  # a match existed and seat 1 missed it
    assert set(by_seat[1].data) == TRIAL_KEYS | {"claimed_card"}


def test_team_a_ends_when_the_centre_is_empty() -> None:
    state = claim(_team(centre=[RY]), 2, 0, 600)
    state, _, _ = advance(state, 2500)
    assert state.game_over
    assert state.winners == [2]


def test_team_b_refills_and_first_to_five_wins() -> None:
    config = Config(team_mode=True, team_end="first_to_five")
    hands = {1: [GB, BG, PB, GB], 2: [BG], 3: []}
    state = claim(_team(config, hands=hands, deck=[PB, GB]), 1, 1, 600)
    state, _, _ = advance(state, 750)
    assert state.centre == [GP, PB, PG]  # refilled in place
    assert state.player_deck == [GB]
    state, _, _ = advance(state, 2500)
    assert state.game_over
    assert state.winners == [1]


def test_team_c_ends_when_every_card_is_claimed() -> None:
    config = Config(team_mode=True, team_end="all_claimed")
    state = claim(_team(config, centre=[RY, GP], deck=[RY2]), 2, 0, 600)
    state, _, _ = advance(state, 2500)
    assert not state.game_over  # RY2 refilled the centre
    assert state.centre == [RY2, GP]
    state = flip(state, 2, 3000)  # Q_GP
    state, _, _ = advance(claim(state, 3, 1, 3500), 5500)
    state = flip(state, 3, 6000)  # Q_NONE
    state.flip_deck = [Q_RY]
    state, _, _ = advance(state, 8500)
    state = flip(state, 1, 9000)
    state, _, _ = advance(claim(state, 3, 0, 9500), 11500)
    assert state.game_over
    assert state.winners == [3]
    assert state.centre == [None, None]


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"kind": "slap", "flip": 1, "rt_ms": 300, "rtt_ms": 20}, "team mode"),
        ({"kind": "claim", "flip": 1, "card": 3, "rt_ms": 300, "rtt_ms": 20}, "no such card"),
    ],
)
def test_team_refusals(action: dict[str, Any], reason: str) -> None:
    state = _team()
    outcome = act(state, 2, action, 500)
    assert outcome.state is state
    assert outcome.rejected is not None
    assert reason in outcome.rejected


def test_team_claim_numbers_the_cards_the_tablet_sees() -> None:
    # Empty places are not shown, so card 0 is the first card actually there.
    state = _team(centre=[None, RY])
    assert view(state, 2)["centre"] == [card_to_dict(RY)]
    state, _, _ = advance(claim(state, 2, 0, 600), 750)
    assert state.hands[2] == [RY]
    state = _team(centre=[None, RY])
    outcome = act(state, 2, {"kind": "claim", "flip": 1, "card": 1, "rt_ms": 3, "rtt_ms": 0}, 5)
    assert outcome.state is state
    assert outcome.rejected == "There is no such card in the centre."


def test_claims_are_only_for_team_mode() -> None:
    state = _race_table()
    outcome = act(state, 2, {"kind": "claim", "flip": 1, "card": 0, "rt_ms": 300, "rtt_ms": 0}, 5)
    assert outcome.state is state
    assert outcome.rejected is not None
    assert "team mode" in outcome.rejected


# ============================================================================================
# Pacing


def test_auto_pacing_flips_by_itself() -> None:
    state = setup(Config(flip_pacing="auto", auto_flip_s=5.0), [1, 2], seed=3)
    assert next_deadline(state) == 0
    assert view(state, None)["active_seat"] is None
    state, events, _ = advance(state, 100)
    assert [e.kind for e in events] == ["started"]
    assert next_deadline(state) == 1600
    assert tick(state, 1599).state is state
    state, events, _ = advance(state, 1600)
    assert view(state, None)["flip"] == 1
    assert view(state, None)["window_closes_ms"] == 4100
    assert next_deadline(state) == 4100
    state, _, trials = advance(state, 4100)
    assert len(trials) == 2
    assert next_deadline(state) == 6600
    refused = act(state, 1, {"kind": "flip"}, 5000)
    assert refused.rejected == "Cards flip by themselves in this game."
    state, _, _ = advance(state, 6600)
    assert view(state, None)["flip"] == 2


def test_a_late_tick_catches_up_at_the_scheduled_times() -> None:
    state = setup(Config(flip_pacing="auto", auto_flip_s=5.0), [1, 2], seed=3)
    state, _, _ = advance(state, 0)
    stepwise = state
    for moment in (1500, 4000, 6500, 9000, 11500, 14000):
        stepwise, _, _ = advance(stepwise, moment)
    at_once, _, trials = advance(state, 14000)
    assert len(trials) == 6
    assert state_fingerprint(at_once) == state_fingerprint(stepwise)


def test_tap_pacing_out_of_turn_flip_is_refused() -> None:
    state = arranged(Config(), {1: [GP], 2: [PG], 3: [GB]}, [Q_NONE], active=2)
    outcome = act(state, 1, {"kind": "flip"}, 0)
    assert outcome.state is state
    assert outcome.rejected == "It is not your turn to flip."
    state = flip(state, 2, 0)
    again = act(state, 2, {"kind": "flip"}, 100)
    assert again.rejected == "Wait until this card has closed."
    state, _, _ = advance(state, 2500)
    assert state.active_seat == 3
    # A human's turn: the card waits for them, turning over by itself only after a long pause.
    assert next_deadline(state) == 2500 + TURN_TIMEOUT_MS


def test_tick_with_nothing_due_returns_the_same_state() -> None:
    state = arranged(Config(), {1: [GP], 2: [PG]}, [Q_NONE])
    outcome = tick(state, 10_000)
    assert outcome.state is state
    assert outcome.events == ()
    assert outcome.rejected is None


# ============================================================================================
# Refusals never change anything


@pytest.mark.parametrize(
    "action",
    [
        None,
        [],
        "flip",
        {},
        {"kind": "dance"},
        {"kind": 3},
        {"kind": "slap"},
        {"kind": "slap", "flip": "1", "rt_ms": 300, "rtt_ms": 20},
        {"kind": "slap", "flip": 1, "rt_ms": True, "rtt_ms": 20},
        {"kind": "slap", "flip": 1, "rt_ms": -5, "rtt_ms": 20},
        {"kind": "slap", "flip": 1, "rt_ms": 300.5, "rtt_ms": 20},
        {"kind": "slap", "flip": 1, "rt_ms": 300, "rtt_ms": 10**9},
        {"kind": "slap", "flip": 0, "rt_ms": 300, "rtt_ms": 20},
        {"kind": "choose"},
        {"kind": "choose", "card": -1},
        {"kind": "choose", "card": None},
        {"kind": "claim", "flip": 1, "card": 0, "rt_ms": 300},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action: Any) -> None:
    state = _race_table()
    before = state_fingerprint(state)
    outcome = act(state, 1, action, 500)
    assert outcome.state is state
    assert isinstance(outcome.rejected, str)
    assert outcome.rejected.endswith(".")
    assert state_fingerprint(state) == before


def test_strangers_and_bots_cannot_act() -> None:
    state = arranged(Config(), {1: [GP], 2: [PG]}, [Q_NONE], bots={2: BotSkill()})
    stranger = act(state, 9, {"kind": "flip"}, 0)
    assert stranger.rejected == "You do not have a seat at this table."
    bot = act(state, 2, {"kind": "flip"}, 0)
    assert bot.rejected == "That seat is played by the computer."
    assert stranger.state is state
    assert bot.state is state


def test_act_and_tick_leave_their_input_alone() -> None:
    state = _race_table()
    before = state_fingerprint(state)
    after_slap = slap(state, 3, 500)
    after_tick, _, _ = advance(after_slap, 2500)
    assert state_fingerprint(state) == before
    assert after_slap is not state
    assert after_tick is not after_slap
    assert state.current is not None
    assert state.current.responses == []


# ============================================================================================
# Trials


def test_one_trial_per_seat_when_the_window_closes() -> None:
    state = flip(arranged(Config(), {1: [RY, GP], 2: [PG], 3: [GB]}, [Q_RY]), 1, 0)
    state = slap(state, 1, 500, rt=450)
    state, _, early = advance(state, 2499)
    assert early == []
    state = slap(state, 2, 2400, rt=850)
    state, _, trials = advance(state, 2500)
    assert [trial.seat for trial in trials] == [1, 2, 3]
    assert all(trial.kind == "palm_strike.flip" for trial in trials)
    assert all(set(trial.data) == TRIAL_KEYS for trial in trials)
    one, two, three = (trial.data for trial in trials)
    # Judged on the table as flipped: seat 1's RY had already left when the window closed.
    assert [one["target"], two["target"], three["target"]] == [True] * 3
    assert (one["correct"], one["first"], one["rt_ms"]) == (True, True, 450)
    assert (two["correct"], two["first"], two["rt_ms"]) == (True, False, 850)
    assert (three["correct"], three["response"], three["rt_ms"]) == (False, "none", None)
    assert one["public"] == card_to_dict(Q_RY)
    assert one["congruent"] is False
    assert one["level"] == "beginner"
    assert one["bot"] is False
    json.dumps([trial.data for trial in trials])


def test_no_slap_on_no_match_is_a_correct_rejection() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [PG]}, [Q_NONE]), 1, 0)
    state, _, trials = advance(slap(state, 2, 500), 2500)
    by_seat = {trial.seat: trial.data for trial in trials}
    assert by_seat[1]["target"] is False
    assert by_seat[1]["correct"] is True
    assert by_seat[2]["correct"] is False  # a false alarm
    assert by_seat[1]["congruent"] is True  # blue written in blue


def test_bot_trials_are_marked() -> None:
    quick = BotSkill(mean_rt_ms=400, sd_rt_ms=0, error_rate=0.0)
    state = flip(arranged(Config(), {1: [GP], 2: [RY, PB]}, [Q_RY], bots={2: quick}), 1, 0)
    state, _, trials = advance(state, 2500)
    by_seat = {trial.seat: trial.data for trial in trials}
    assert by_seat[2]["bot"] is True
    assert by_seat[2]["rt_ms"] == 400
    assert by_seat[2]["first"] is True
    assert by_seat[2]["plausible"] is True
    assert by_seat[1]["bot"] is False


# ============================================================================================
# Views


def test_view_shape_and_json() -> None:
    state = _choosing()
    for seat in (None, 1, 2):
        seen = view(state, seat)
        assert set(seen) == VIEW_KEYS
        assert seen["game"] == "palm_strike"
        assert seen["you"] == seat
        json.dumps(seen)
    player = view(state, None)["players"][0]
    assert set(player) == {"seat", "cards", "card_count", "score", "bot"}


def test_views_differ_only_in_you_and_the_choice() -> None:
    state = _choosing()
    teacher = view(state, None)
    private = ("you", "choice", "phase", "mine", "glow")
    for seat in (1, 2):
        seen = view(state, seat)
        assert {k: v for k, v in seen.items() if k not in private} == {
            k: v for k, v in teacher.items() if k not in private
        }


def test_while_the_winner_chooses_the_others_may_still_slap() -> None:
    state = _choosing()  # the window is open until 2500
    assert [view(state, seat)["phase"] for seat in (1, 2, None)] == ["choosing", "open", "open"]
    state = slap(state, 2, 900, rt=850)
    state, _, trials = advance(state, 2500)
    assert next(t for t in trials if t.seat == 2).data["response"] == "slap"
    assert [view(state, seat)["phase"] for seat in (1, 2, None)] == ["choosing"] * 3


def test_view_never_shows_the_decks() -> None:
    state = setup(Config(), [1, 2, 3], seed=8)
    state.flip_deck.insert(0, PublicCard("purple", "green", "yellow"))  # unique marker
    text = json.dumps(view(state, None))
    for card in state.player_deck:  # all 30 player cards differ
        assert json.dumps(card_to_dict(card)) not in text
    assert json.dumps(card_to_dict(state.flip_deck[0])) not in text
    assert "rng" not in text
    seen = view(state, 1)
    assert (seen["deck_count"], seen["player_deck_count"]) == (31, 24)
    assert (seen["flip"], seen["public"], seen["last"], seen["phase"]) == (
        0,
        None,
        None,
        "waiting_flip",
    )


def test_view_of_an_open_flip() -> None:
    state = slap(_race_table(), 2, 400)
    seen = view(state, 3)
    assert seen["phase"] == "open"
    assert seen["public"] == card_to_dict(Q_RY)
    assert seen["window_closes_ms"] == 2500
    assert seen["last"] == {"flip": 1, "winner": None, "outcome": None, "slappers": [2]}
    assert seen["centre"] == []
    assert seen["claims"] == {}


# ============================================================================================
# Replay


def test_replay_reproduces_the_game() -> None:
    config = Config()
    seats = [1, 2, 3]
    bots = {3: BotSkill()}
    state = setup(config, seats, 21, bots)
    log: list[tuple[str, int | None, Any, int]] = []

    def do_tick(now: int) -> None:
        nonlocal state
        outcome = tick(state, now)
        if outcome.state is not state:
            log.append(("tick", None, None, now))
        state = outcome.state

    def do_act(seat: int, action: dict[str, Any], now: int) -> None:
        nonlocal state
        outcome = act(state, seat, action, now)
        if outcome.accepted:
            log.append(("act", seat, action, now))
        state = outcome.state

    now = 0
    while not state.game_over and now < 120_000:
        do_tick(now)
        if state.active_seat in (1, 2):
            do_act(state.active_seat, {"kind": "flip"}, now)
        for seat in (1, 2):
            do_act(seat, {"kind": "slap", "flip": state.flips, "rt_ms": 700, "rtt_ms": 30}, now)
            do_act(seat, {"kind": "choose", "card": 0}, now)
        now += 733
    rebuilt = replay(config, seats, 21, bots, log)
    assert state_fingerprint(rebuilt) == state_fingerprint(state)
    assert rebuilt == state
    assert view(rebuilt, None) == view(state, None)
    assert len(log) > 10


def test_replay_rejects_a_broken_log() -> None:
    with pytest.raises(ValueError, match="log entry"):
        replay(Config(), [1, 2], 1, None, [("act", None, None, 5)])


def test_state_equality_sees_the_generator() -> None:
    one = setup(Config(), [1, 2], 4)
    two = setup(Config(), [1, 2], 4)
    assert one == two
    two.rng.random()
    assert one != two
    accepted(tick(one, 0))  # smoke: a fresh state ticks


def test_tap_pacing_flips_for_an_absent_player_after_the_turn_timeout() -> None:
    state = setup(Config(flip_pacing="tap"), [0, 1], seed=3)
    state = tick(state, 0).state
    active = state.active_seat
    assert tick(state, TURN_TIMEOUT_MS - 1).state is state  # still waiting for the child
    flipped = tick(state, TURN_TIMEOUT_MS).state
    assert flipped.flips == 1
    assert flipped.current is not None
    assert active is not None
