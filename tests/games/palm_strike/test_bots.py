"""Bots: their skill, reproducible decisions, and games they play to the end."""

from __future__ import annotations

import random
import statistics
from typing import TYPE_CHECKING

import pytest

from games.engine.settings import SettingError
from games.palm_strike.bots import (
    BOT_CHOICE_DELAY_MS,
    BOT_FLIP_DELAY_MS,
    BOT_LEVELS,
    MIN_BOT_RT_MS,
    BotSkill,
    decide,
    pick_claim,
    sample_rt,
)
from games.palm_strike.config import Config
from games.palm_strike.rules import (
    MAX_FLIPS_PER_ROUND,
    READY_MS,
    act,
    next_deadline,
    setup,
    state_fingerprint,
    tick,
    view,
)
from tests.games.palm_strike.support import (
    GB,
    GP,
    PG,
    Q_NONE,
    Q_RY,
    RY,
    advance,
    arranged,
    flip,
    slap,
)

if TYPE_CHECKING:
    from games.palm_strike.state import State

SURE = BotSkill(mean_rt_ms=500, sd_rt_ms=0, error_rate=0.0)


def _bot_game(config: Config, seats: list[int], seed: int, skill: BotSkill = SURE) -> State:
    """Play a bots-only game by always ticking at the next deadline."""
    state = setup(config, seats, seed, {seat: skill for seat in seats})
    while not state.game_over:
        deadline = next_deadline(state)
        assert deadline is not None, "a bots-only game must never wait for input"
        outcome = tick(state, deadline)
        assert outcome.state is not state, "a deadline must change something"
        state = outcome.state
    return state


# --------------------------------------------------------------------------------------------
# Skill


@pytest.mark.parametrize(
    "kwargs",
    [{"mean_rt_ms": 100}, {"sd_rt_ms": -1}, {"error_rate": 1.5}, {"error_rate": -0.1}],
)
def test_skill_is_validated(kwargs: dict[str, float]) -> None:
    with pytest.raises(SettingError):
        BotSkill(**kwargs)  # type: ignore[arg-type]


def test_named_levels() -> None:
    assert BOT_LEVELS["steady"] == BotSkill()
    assert BOT_LEVELS["quick"].mean_rt_ms < BOT_LEVELS["steady"].mean_rt_ms
    assert BOT_LEVELS["steady"].mean_rt_ms < BOT_LEVELS["gentle"].mean_rt_ms


@pytest.mark.parametrize(("mean", "sd"), [(900, 200), (600, 100), (1500, 400)])
def test_reaction_times_follow_the_skill(mean: int, sd: int) -> None:
    rng = random.Random(1)
    skill = BotSkill(mean_rt_ms=mean, sd_rt_ms=sd)
    rts = [sample_rt(skill, rng) for _ in range(4000)]
    assert min(rts) >= MIN_BOT_RT_MS
    assert statistics.fmean(rts) == pytest.approx(mean, rel=0.03)
    assert statistics.stdev(rts) == pytest.approx(sd, rel=0.15)
    # Right-skewed like human reaction times.
    assert statistics.fmean(rts) > statistics.median(rts)


def test_reaction_times_never_below_the_floor() -> None:
    rng = random.Random(2)
    skill = BotSkill(mean_rt_ms=260, sd_rt_ms=200)
    assert min(sample_rt(skill, rng) for _ in range(2000)) == MIN_BOT_RT_MS


@pytest.mark.parametrize("error_rate", [0.0, 0.1, 0.3])
def test_error_rate(error_rate: float) -> None:
    rng = random.Random(3)
    skill = BotSkill(error_rate=error_rate)
    misses = sum(decide(skill, rng, True, 60_000) is None for _ in range(3000))
    false_alarms = sum(decide(skill, rng, False, 60_000) is not None for _ in range(3000))
    assert misses / 3000 == pytest.approx(error_rate, abs=0.025)
    assert false_alarms / 3000 == pytest.approx(error_rate, abs=0.025)


def test_a_response_slower_than_the_window_is_none() -> None:
    skill = BotSkill(mean_rt_ms=3000, sd_rt_ms=0, error_rate=0.0)
    assert decide(skill, random.Random(1), True, 2500) is None
    assert decide(skill, random.Random(1), True, 3001) == 3000


def test_decisions_are_seeded() -> None:
    skill = BotSkill()
    one = [decide(skill, random.Random(8), True, 5000) for _ in range(3)]
    assert one == [decide(skill, random.Random(8), True, 5000) for _ in range(3)]
    a, b = random.Random(5), random.Random(5)
    assert [decide(skill, a, i % 2 == 0, 5000) for i in range(50)] == [
        decide(skill, b, i % 2 == 0, 5000) for i in range(50)
    ]


def test_pick_claim() -> None:
    rng = random.Random(1)
    assert pick_claim(rng, [2, 5], [0, 1], wrong=False) in (2, 5)
    assert pick_claim(rng, [2, 5], [0, 1], wrong=True) in (0, 1)
    assert pick_claim(rng, [], [], wrong=True) is None


# --------------------------------------------------------------------------------------------
# Bots at the table


def test_a_bot_slaps_at_its_reaction_time() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [RY, GB]}, [Q_RY], bots={2: SURE}), 1, 0)
    assert next_deadline(state) == 500
    state, events, _ = advance(state, 500)
    assert [e.kind for e in events] == ["slap"]
    state, _, _ = advance(state, 650)
    assert view(state, None)["last"]["winner"] == 2
    assert state.hands[2] == [GB]


def test_a_bot_does_not_slap_without_a_match() -> None:
    state = flip(arranged(Config(), {1: [GP], 2: [PG, GB]}, [Q_NONE], bots={2: SURE}), 1, 0)
    state, _, trials = advance(state, 2500)
    assert view(state, None)["last"]["slappers"] == []
    assert next(t for t in trials if t.seat == 2).data["correct"] is True


def test_a_faster_human_beats_the_bot() -> None:
    state = flip(arranged(Config(), {1: [RY, GP], 2: [RY, GB]}, [Q_RY], bots={2: SURE}), 1, 0)
    state = slap(state, 1, 420, rt=380)
    state, _, _ = advance(state, 2500)
    assert view(state, None)["last"]["winner"] == 1
    assert view(state, None)["last"]["slappers"] == [1, 2]


def test_a_bot_picks_its_first_card_after_a_pause() -> None:
    state = flip(arranged(Config(), {1: [RY, PG], 2: [GP, GB]}, [Q_RY], bots={2: SURE}), 1, 0)
    state, _, _ = advance(state, 650)
    assert view(state, None)["chooser"] == 2
    assert next_deadline(state) == 650 + BOT_CHOICE_DELAY_MS
    state, _, _ = advance(state, 650 + BOT_CHOICE_DELAY_MS)
    assert state.hands == {1: [RY, PG, GP], 2: [GB]}


def test_a_bot_flips_on_its_turn() -> None:
    seed = next(s for s in range(50) if setup(Config(), [1, 2], s).active_seat == 2)
    state = setup(Config(), [1, 2], seed, {2: SURE})
    state, _, _ = advance(state, 0)
    assert next_deadline(state) == READY_MS
    state, events, _ = advance(state, READY_MS)
    assert events[0].kind == "flip"
    assert events[0].data["seat"] == 2
    # After its window the turn is the human's: no more timers until they flip.
    state, _, _ = advance(state, 10_000)
    assert state.active_seat == 1
    state = flip(state, 1, 10_000)
    state, _, _ = advance(state, 12_500)
    assert state.active_seat == 2
    assert next_deadline(state) == 12_500 + BOT_FLIP_DELAY_MS


def test_bot_games_are_deterministic() -> None:
    config = Config(points_target=8)
    one = _bot_game(config, [1, 2, 3], 17, BotSkill())
    two = _bot_game(config, [1, 2, 3], 17, BotSkill())
    assert state_fingerprint(one) == state_fingerprint(two)
    other = _bot_game(config, [1, 2, 3], 18, BotSkill())
    assert state_fingerprint(other) != state_fingerprint(one)


@pytest.mark.parametrize(
    "config",
    [
        Config(),
        Config(level="advanced", cards_per_player=3),
        Config(slap_scope="neighbours"),
        Config(flip_pacing="auto", auto_flip_s=3.0),
        Config(team_mode=True, team_end="all_claimed"),
    ],
    ids=["default", "advanced", "neighbours", "auto", "team-c"],
)
def test_bot_games_end_well_before_the_safety_net(config: Config) -> None:
    for seed in range(5):
        state = _bot_game(config, [1, 2, 3, 4], seed, BotSkill())
        assert state.winners
        assert state.round_flips < MAX_FLIPS_PER_ROUND


def _play_with_human(config: Config, seed: int) -> tuple[State, int]:
    """Solo practice: seat 0 is a human who flips when it is their turn and never slaps."""
    bots = {seat: BotSkill() for seat in (1, 2, 3)}
    state = setup(config, [0, 1, 2, 3], seed, bots)
    now = 0
    while not state.game_over:
        assert now < 3_600_000
        outcome = tick(state, now)
        state = outcome.state
        if state.active_seat == 0 and view(state, 0)["phase"] == "waiting_flip":
            state = act(state, 0, {"kind": "flip"}, now).state
        deadline = next_deadline(state)
        now = max(now + 1, deadline) if deadline is not None else now + 500
    return state, now


@pytest.mark.parametrize("pacing", ["tap", "auto"])
def test_solo_practice_against_bots_ends(pacing: str) -> None:
    config = Config(flip_pacing=pacing)  # type: ignore[arg-type]
    for seed in range(3):
        state, _ = _play_with_human(config, seed)
        assert state.game_over
        # The human never slaps, so never empties their area: a bot wins.
        assert 0 not in state.winners


# --------------------------------------------------------------------------------------------
# Deck swap: every end condition is reachable

ERRING = BotSkill(mean_rt_ms=600, sd_rt_ms=150, error_rate=0.1)


def _ended_by_its_own_rule(state: State) -> bool:
    """The game ended the way RULES.md says: an empty area (or, team mode, A an empty
    centre, B five cards, C every card claimed), not a stalemate or the safety net."""
    config = state.config
    if not config.team_mode:
        return all(not state.hands[seat] for seat in state.winners)
    if config.team_end == "first_to_five":
        return any(len(state.hands[seat]) >= 5 for seat in state.winners)
    return all(card is None for card in state.centre) and (
        config.team_end == "centre_empty" or not state.player_deck
    )


@pytest.mark.parametrize("level", ["beginner", "intermediate", "advanced"])
@pytest.mark.parametrize("scope", ["any", "own", "others", "neighbours"])
def test_deck_swap_bot_games_never_stalemate(level: str, scope: str) -> None:
    config = Config(deck_swap=True, level=level, slap_scope=scope)  # type: ignore[arg-type]
    stuck = [
        seed
        for seed in range(40)
        if not _ended_by_its_own_rule(_bot_game(config, [1, 2, 3, 4], seed, ERRING))
    ]
    assert stuck == []


@pytest.mark.parametrize("level", ["beginner", "intermediate", "advanced"])
@pytest.mark.parametrize("team_end", ["centre_empty", "first_to_five", "all_claimed"])
def test_deck_swap_team_games_reach_their_end_condition(level: str, team_end: str) -> None:
    config = Config(deck_swap=True, team_mode=True, team_end=team_end, level=level)  # type: ignore[arg-type]
    stuck = [
        seed
        for seed in range(40)
        if not _ended_by_its_own_rule(_bot_game(config, [1, 2, 3, 4], seed, ERRING))
    ]
    assert stuck == []
