"""Bots: their skill and pace, what they choose, and games they play to the end."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from games.commotion.bots import (
    BOT_LEVELS,
    BOT_TEMPO,
    JITTER,
    MIN_MOVE_MS,
    BotMove,
    BotOptions,
    BotSkill,
    choose_move,
    move_delay,
)
from games.commotion.config import Config
from games.commotion.rules import (
    MAX_ROUNDS,
    next_deadline,
    setup,
    state_fingerprint,
    tick,
)
from games.commotion.spec import SPEC
from games.engine.settings import SettingError
from tests.games.commotion.support import (
    GO,
    accepted,
    arranged,
    do,
    filler,
    n,
    pile,
    start,
)

if TYPE_CHECKING:
    from games.commotion.state import Source, State

SURE = BotSkill(move_every_ms=1000, error_rate=0.0)


def _bot_game(
    config: Config, seats: list[int], seed: int, skill: BotSkill = SURE
) -> tuple[State, Counter[str]]:
    """Play a bots-only game by always ticking at the next deadline; count the events."""
    state = setup(config, seats, seed, dict.fromkeys(seats, skill))
    events: Counter[str] = Counter()
    while state.phase != "game_over":
        deadline = next_deadline(state)
        assert deadline is not None, "a bots-only game must never wait for input"
        outcome = tick(state, deadline)
        assert outcome.state is not state, "a deadline must change something"
        assert outcome.trials == ()
        events.update(event.kind for event in outcome.events)
        events.update(
            f"ended_by_{event.data['ended_by']}"
            for event in outcome.events
            if event.kind == "round_over"
        )
        state = outcome.state
    return state, events


# --------------------------------------------------------------------------------------------
# Skill and pace


@pytest.mark.parametrize(
    "kwargs",
    [{"move_every_ms": 100}, {"move_every_ms": 50_000}, {"error_rate": 1.5}, {"error_rate": -0.1}],
)
def test_skill_is_validated(kwargs: dict[str, float]) -> None:
    with pytest.raises(SettingError):
        BotSkill(**kwargs)  # type: ignore[arg-type]


def test_named_levels_and_the_spec() -> None:
    assert BOT_LEVELS["steady"] == BotSkill()
    gentle, steady, quick = (BOT_LEVELS[name] for name in ("gentle", "steady", "quick"))
    assert quick.move_every_ms < steady.move_every_ms < gentle.move_every_ms
    assert quick.error_rate < steady.error_rate < gentle.error_rate
    assert SPEC.make_bot("quick") == quick
    assert SPEC.make_bot("no such level") == steady
    assert set(BOT_TEMPO) == {"gentle", "steady", "quick"}


@pytest.mark.parametrize("tempo", ["gentle", "steady", "quick"])
def test_move_delays_follow_the_skill_and_the_table_speed(tempo: str) -> None:
    rng = random.Random(1)
    skill = BotSkill(move_every_ms=2000)
    delays = [move_delay(skill, tempo, rng) for _ in range(3000)]
    base = 2000 * BOT_TEMPO[tempo]
    assert min(delays) >= round(base * JITTER[0])
    assert max(delays) <= round(base * JITTER[1])
    assert statistics.fmean(delays) == pytest.approx(base, rel=0.03)


def test_no_bot_moves_faster_than_the_floor() -> None:
    rng = random.Random(2)
    skill = BotSkill(move_every_ms=MIN_MOVE_MS)
    assert min(move_delay(skill, "quick", rng) for _ in range(200)) == MIN_MOVE_MS


# --------------------------------------------------------------------------------------------
# Choices


PLAYS: tuple[tuple[Source, int, int], ...] = (
    ("waste", 0, 1),
    ("tableau", 2, 0),
    ("tableau", 4, -1),
)


def test_a_bot_calls_out_first() -> None:
    options = BotOptions(plays=PLAYS, can_out=True, can_extra=True, can_turn=True)
    assert choose_move(SURE, random.Random(1), options) == BotMove("out")


def test_a_bot_prefers_row_plays() -> None:
    rng = random.Random(3)
    options = BotOptions(plays=PLAYS, can_turn=True, can_extra=True)
    chosen = {choose_move(SURE, rng, options) for _ in range(50)}
    assert chosen == {BotMove("play", "tableau", 2, 0), BotMove("play", "tableau", 4, -1)}
    waste_only = BotOptions(plays=PLAYS[:1], can_turn=True)
    assert choose_move(SURE, rng, waste_only) == BotMove("play", "waste", 0, 1)


def test_then_an_extra_card_then_the_stock_then_nothing() -> None:
    rng = random.Random(4)
    assert choose_move(SURE, rng, BotOptions(can_extra=True, can_turn=True)) == BotMove("extra")
    assert choose_move(SURE, rng, BotOptions(can_turn=True)) == BotMove("turn")
    assert choose_move(SURE, rng, BotOptions()) is None


@pytest.mark.parametrize("error_rate", [0.0, 0.2, 0.5])
def test_a_slip_turns_the_stock_instead_of_playing(error_rate: float) -> None:
    rng = random.Random(5)
    skill = BotSkill(error_rate=error_rate)
    options = BotOptions(plays=PLAYS, can_turn=True)
    slips = sum(choose_move(skill, rng, options) == BotMove("turn") for _ in range(4000))
    assert slips / 4000 == pytest.approx(error_rate, abs=0.025)
    # With nothing to turn, it plays after all.
    no_stock = BotOptions(plays=PLAYS)
    slipped = choose_move(BotSkill(error_rate=1.0), rng, no_stock)
    assert slipped is not None
    assert slipped.kind == "play"


# --------------------------------------------------------------------------------------------
# Bots at the table


def test_the_first_bot_move_comes_at_its_pace_after_go() -> None:
    state = setup(Config(), [1, 2], seed=3, bots={2: SURE})
    assert next_deadline(state) == GO
    state = tick(state, GO).state
    due = next_deadline(state)
    assert due is not None
    assert GO + 700 <= due <= GO + 1300
    # Quick tables: the same bot, faster.
    quick = tick(setup(Config(bot_speed="quick"), [1, 2], seed=3, bots={2: SURE}), GO).state
    quick_due = next_deadline(quick)
    assert quick_due is not None
    assert GO + 420 <= quick_due <= GO + 780


def test_a_bot_plays_what_fits() -> None:
    state = arranged(
        {1: filler(1, 5), 2: [n(2, "red", 3), *filler(2, 4)]},
        refills={2: [n(2, "green", 4)]},
        centre=[pile(1, "red", 2)],
        bots={2: SURE},
    )
    deadline = next_deadline(state)
    assert deadline is not None
    outcome = tick(state, deadline)
    assert [e.kind for e in outcome.events] == ["play"]
    assert outcome.state.centre[0][-1] == n(2, "red", 3)
    assert outcome.state.players[2].tableau[0] == n(2, "green", 4)


def test_a_bot_with_nothing_to_do_sleeps_until_something_changes() -> None:
    state = arranged(
        {1: filler(1, 5), 2: filler(2, 6)},
        refills={2: [n(2, "green", 4)]},
        stocks={1: [n(1, "blue", 9)]},
        centre=[[start(1)]],
        bots={2: SURE},
    )
    deadline = next_deadline(state)
    assert deadline is not None
    state = tick(state, deadline).state
    assert state.bot_due[2] is None
    assert next_deadline(state) is None
    # The human turns their stock: the bot looks again at its pace.
    state = accepted(do(state, 1, "turn", deadline + 5000))
    woken = next_deadline(state)
    assert woken is not None
    assert deadline + 5700 <= woken <= deadline + 6300


def test_bot_games_are_deterministic() -> None:
    config = Config(target_score=10)
    one, _ = _bot_game(config, [1, 2, 3], 17, BotSkill())
    two, _ = _bot_game(config, [1, 2, 3], 17, BotSkill())
    assert state_fingerprint(one) == state_fingerprint(two)
    other, _ = _bot_game(config, [1, 2, 3], 18, BotSkill())
    assert state_fingerprint(other) != state_fingerprint(one)


@pytest.mark.parametrize(
    "config",
    [
        Config(),
        Config(stock_turn=1),
        Config(refill_size=5, target_score=5),
        Config(bot_speed="quick"),
    ],
    ids=["default", "one-at-a-time", "short", "quick"],
)
@pytest.mark.parametrize("players", [2, 4, 6])
def test_bot_games_end(config: Config, players: int) -> None:
    for seed in range(3):
        state, events = _bot_game(config, list(range(players)), seed, BotSkill())
        assert state.winners
        # Rounds end by OUT, or (both rows of six stuck: a real deadlock) by the stall rule.
        assert events["out"] + events["ended_by_stall"] == events["round_over"] == state.round
        assert events["out"] >= 1
        top = max(player.total for player in state.players.values())
        assert top >= config.target_score


def test_clumsy_bots_still_finish_by_the_stall_rule_and_the_round_limit() -> None:
    # Bots that always turn the stock while they can: rounds end only by the stall rule,
    # nobody's score grows, and the round limit ends the game.
    clumsy = BotSkill(move_every_ms=500, error_rate=1.0)
    state, events = _bot_game(Config(), [1, 2, 3], 5, clumsy)
    assert events["ended_by_stall"] == MAX_ROUNDS
    assert events["out"] == 0
    assert state.round == MAX_ROUNDS
    assert state.winners


def test_solo_practice_against_bots_ends_even_if_the_child_does_nothing() -> None:
    state = setup(Config(target_score=15), [0, 1, 2], 9, {1: BotSkill(), 2: BotSkill()})
    for _ in range(20_000):
        if state.phase == "game_over":
            break
        deadline = next_deadline(state)
        assert deadline is not None
        state = tick(state, deadline).state
    assert state.phase == "game_over"
    assert state.winners is not None
    assert 0 not in state.winners
