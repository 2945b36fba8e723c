"""Bots: their skills, what they pick, how they aim and catch, and games they play alone."""

from __future__ import annotations

import random
import statistics
from collections import Counter

import pytest

from games.engine.settings import SettingError
from games.riff_raff.bots import (
    BOT_LEVELS,
    JITTER,
    MIN_CATCH_RT_MS,
    MIN_THINK_MS,
    BotSkill,
    aim,
    choose_card,
    declare,
    order_tied,
    pick_captain,
    plan_catch,
    think_delay,
)
from games.riff_raff.config import Config
from games.riff_raff.rules import act, next_deadline, setup, state_fingerprint, tick, view
from games.riff_raff.ship import AREAS
from tests.games.riff_raff.test_rules import (
    CALM,
    YARD_END,
    accepted,
    kinds,
    run_until_waiting,
)

# Far more than any bots-only game needs; reaching it means no progress.
MAX_TICKS = 20_000


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("think_ms", 100),
        ("think_ms", 30_000),
        ("aim_error", -0.1),
        ("angle_error", 3.0),
        ("catch_chance", 1.5),
        ("two_pieces", -1.0),
        ("catch_rt_ms", 100),
        ("card_strategy", "cheat"),
    ],
)
def test_bad_skills_are_refused(field: str, value: object) -> None:
    with pytest.raises(SettingError) as caught:
        BotSkill(**{field: value})  # type: ignore[arg-type]
    assert caught.value.setting == field


def test_levels_get_better_from_gentle_to_quick() -> None:
    gentle, steady, quick = (BOT_LEVELS[name] for name in ("gentle", "steady", "quick"))
    assert gentle.think_ms > steady.think_ms > quick.think_ms
    assert gentle.aim_error > steady.aim_error > quick.aim_error
    assert gentle.catch_chance < steady.catch_chance < quick.catch_chance
    assert gentle.catch_rt_ms > steady.catch_rt_ms > quick.catch_rt_ms


def test_think_delays_are_jittered_around_the_skill() -> None:
    rng = random.Random(1)
    skill = BotSkill(think_ms=1000)
    delays = [think_delay(skill, rng) for _ in range(300)]
    assert min(delays) >= round(1000 * JITTER[0])
    assert max(delays) <= round(1000 * JITTER[1])
    assert think_delay(BotSkill(think_ms=MIN_THINK_MS), random.Random(2)) >= MIN_THINK_MS


def test_card_strategies() -> None:
    rng = random.Random(3)
    cards = [2, 5, 9]
    for strategy, favourite in (("high_first", 9), ("low_first", 2)):
        skill = BotSkill(card_strategy=strategy)  # type: ignore[arg-type]
        picks = Counter(choose_card(skill, cards, rng) for _ in range(400))
        assert set(picks) <= set(cards)
        assert picks[favourite] > 250
    picks = Counter(choose_card(BotSkill(), cards, rng) for _ in range(600))
    assert set(picks) == set(cards)
    assert all(count > 120 for count in picks.values())


def test_captain_and_order_decisions() -> None:
    rng = random.Random(4)
    assert pick_captain(2, [0, 2], rng) == 2
    assert {pick_captain(3, [0, 2], rng) for _ in range(50)} == {0, 2}
    orders = {tuple(order_tied([1, 2, 3], rng)) for _ in range(100)}
    assert all(sorted(order) == [1, 2, 3] for order in orders)
    assert len(orders) == 6


def test_declarations() -> None:
    rng = random.Random(5)
    assert {declare(BotSkill(two_pieces=1.0), 1, rng) for _ in range(20)} == {1}
    assert {declare(BotSkill(two_pieces=1.0), 3, rng) for _ in range(20)} == {2}
    assert {declare(BotSkill(two_pieces=0.0), 3, rng) for _ in range(20)} == {1}


def test_aim_stays_in_the_zone_and_better_bots_aim_closer_to_the_middle() -> None:
    zone = AREAS[5].zone
    middle = (zone.x_min + zone.x_max) / 2
    spread = {}
    for name, skill in BOT_LEVELS.items():
        rng = random.Random(6)
        shots = [aim(skill, zone, rng) for _ in range(400)]
        assert all(zone.x_min <= x <= zone.x_max for x, _angle in shots)
        spread[name] = statistics.fmean(abs(x - middle) for x, _angle in shots)
    assert spread["gentle"] > spread["steady"] > spread["quick"]


def test_catch_plans() -> None:
    rng = random.Random(7)
    never = BotSkill(catch_chance=0.0)
    always = BotSkill(catch_chance=1.0, catch_rt_ms=300)
    assert all(plan_catch(never, rng) is None for _ in range(50))
    times = [plan_catch(always, rng) for _ in range(200)]
    assert all(t is not None and t >= MIN_CATCH_RT_MS for t in times)


# --------------------------------------------------------------------------------------------
# Bots in the engine


def test_standard_bots_play_at_the_tables_skill_and_others_keep_theirs() -> None:
    own = BotSkill(think_ms=700)
    state = setup(Config(bot_skill="quick"), [0, 1, 2], 1, {1: BOT_LEVELS["steady"], 2: own})
    assert state.bots == {1: BOT_LEVELS["quick"], 2: own}


def test_bots_pick_in_secret_and_humans_are_waited_for() -> None:
    state = setup(CALM, [0, 1, 2], 1, {1: BOT_LEVELS["quick"], 2: BOT_LEVELS["quick"]})
    deadline = next_deadline(state)
    assert deadline is not None
    state, now, events, _ = run_until_waiting(state, 0)
    assert kinds(events) == ["chosen", "chosen"]
    assert all(set(e.data) == {"seat"} for e in events)
    assert next_deadline(state) is None  # the human has not picked
    seen = view(state, 0)
    assert seen["chosen"] == {"0": False, "1": True, "2": True}
    assert seen["revealed"] is None
    state = accepted(act(state, 0, {"kind": "choose_card", "card": 10}, now + 5000))
    assert state.revealed is not None
    assert state.revealed[0] == 10


@pytest.mark.parametrize(("chance", "caught"), [(1.0, True), (0.0, False)])
def test_a_bot_catches_its_falling_cargo_with_its_chance(
    monkeypatch: pytest.MonkeyPatch, chance: float, caught: bool
) -> None:
    """The bot (made to pick 5 and drop at the yardarm's end) loses a crate overboard."""
    from games.riff_raff import bots as botlib

    monkeypatch.setattr(botlib, "choose_card", lambda skill, cards, rng: 5)
    monkeypatch.setattr(botlib, "aim", lambda skill, zone, rng: (YARD_END, 0.0))
    bot = BotSkill(catch_chance=chance, catch_rt_ms=400)
    state = setup(CALM, [0, 1], 3, {1: bot})
    state = accepted(act(state, 0, {"kind": "choose_card", "card": 1}, 0))
    before = len(state.players[1].supply)
    state, _now, events, trials = run_until_waiting(state, 0)
    names = kinds(events)
    assert names[:6] == ["chosen", "reveal", "captain", "order", "turn", "drop"]
    assert "fall" in names
    assert trials == []  # bots make no trials
    fall = next(e for e in events if e.kind == "fall")
    assert fall.data["seat"] == 1
    if caught:
        assert "caught" in names
        assert "lost" not in names
        assert len(state.players[1].supply) == before - 1
    else:
        assert "lost" in names
        assert len(state.players[1].supply) == before
    assert state.active == 0  # the bot's turn is over


def test_bots_only_games_end_and_keep_every_piece_accounted_for() -> None:
    for seats, wave, level in (
        ([0, 1], 0.3, "quick"),
        ([0, 1, 2], 0.6, "gentle"),
        ([0, 1, 2, 3], 0.4, "steady"),
    ):
        config = Config(wave_strength=wave, pieces_per_player=4, bot_skill=level)
        state = setup(config, seats, 9, dict.fromkeys(seats, BOT_LEVELS["steady"]))
        total = len(state.cargo)
        caught = 0
        for _ in range(MAX_TICKS):
            if state.phase == "game_over":
                break
            deadline = next_deadline(state)
            assert deadline is not None, "bots alone must never wait for input"
            outcome = tick(state, deadline)
            assert outcome.trials == ()
            caught += kinds(outcome.events).count("caught")
            state = outcome.state
        else:
            pytest.fail("the game did not end")
        assert state.winners
        assert set(state.winners) <= set(seats)
        in_supplies = sum(len(p.supply) for p in state.players.values())
        assert in_supplies + len(state.ship.world().pieces()) + caught == total


def test_a_bots_game_is_the_same_game_every_time() -> None:
    seats = [0, 1, 2]
    config = Config(wave_strength=0.5, pieces_per_player=4)
    prints = []
    for _ in range(2):
        state = setup(config, seats, 17, dict.fromkeys(seats, BOT_LEVELS["quick"]))
        while state.phase != "game_over":
            deadline = next_deadline(state)
            assert deadline is not None
            state = tick(state, deadline).state
        prints.append(state_fingerprint(state))
    assert prints[0] == prints[1]
