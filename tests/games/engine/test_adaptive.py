"""The adaptive table: levels follow the players' answers, only at safe moments, and replaying
the log rebuilds exactly the same levels (they are never logged themselves)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine.adaptive import AdaptiveConfig, AdaptiveEngine, SeatBand
from games.engine.contract import Outcome, Trial
from games.engine.fingerprint import state_fingerprint
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.adaptive import AdaptiveState
    from games.engine.contract import LogEntry


# -- a toy engine: every "answer" act is one trial; "busy" blocks retuning --------------------


@dataclasses.dataclass(frozen=True)
class ToyConfig:
    size: int = 0


@dataclasses.dataclass
class ToyState:
    config: ToyConfig
    busy: bool = False
    answers: int = 0


class Toy:
    @staticmethod
    def setup(config: Any, seats: Sequence[int], seed: int, bots: Any = None) -> ToyState:
        return ToyState(config=config)

    @staticmethod
    def act(state: ToyState, seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        if action.get("kind") == "busy":
            return Outcome(dataclasses.replace(state, busy=bool(action["on"])))
        if action.get("kind") != "answer":
            return Outcome(state, rejected="not an action")
        trial = Trial(seat, "toy", {"correct": bool(action["correct"]), "plausible": True})
        return Outcome(dataclasses.replace(state, answers=state.answers + 1), trials=(trial,))

    @staticmethod
    def tick(state: ToyState, now_ms: int) -> Outcome[Any]:
        return Outcome(state)

    @staticmethod
    def next_deadline(state: ToyState) -> int | None:
        return None

    @staticmethod
    def view(state: ToyState, seat: int | None) -> dict[str, Any]:
        return {"config": state.config}

    @staticmethod
    def retune(state: ToyState, step: Mapping[str, Any]) -> ToyState | None:
        if state.busy:
            return None
        return dataclasses.replace(state, config=dataclasses.replace(state.config, **step))


LADDER = tuple({"size": size} for size in range(6))


def _answer(engine: AdaptiveEngine, state: AdaptiveState, seat: int, correct: bool) -> Any:
    outcome = engine.act(state, seat, {"kind": "answer", "correct": correct}, 0)
    assert outcome.accepted
    return outcome


def test_three_right_step_the_game_up_and_every_trial_carries_its_rung() -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    state = engine.setup(AdaptiveConfig(game=ToyConfig(), bands={0: SeatBand(start=0)}), [0], 1)
    rungs = []
    for _ in range(3):
        outcome = _answer(engine, state, 0, True)
        rungs.append(outcome.trials[0].data["rung"])
        state = outcome.state
    assert rungs == [0, 0, 0]  # the rung a trial was played at, before it counts
    assert state.rung == 1
    assert state.game.config == ToyConfig(size=1)
    assert engine.view(state, 0)["adaptive"] == {"rung": 1, "rungs": 6}


def test_the_table_plays_at_its_weakest_players_rung() -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    bands = {0: SeatBand(start=4), 1: SeatBand(start=2)}
    state = engine.setup(AdaptiveConfig(game=ToyConfig(), bands=bands), [0, 1], 1)
    assert (state.rung, state.game.config.size) == (2, 2)
    state = _answer(engine, state, 1, False).state
    assert (state.rung, state.game.config.size) == (1, 1)


def test_a_band_keeps_the_staircase_inside_it() -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    bands = {0: SeatBand(start=9, floor=2, ceiling=3)}
    state = engine.setup(AdaptiveConfig(game=ToyConfig(), bands=bands), [0], 1)
    assert state.rung == 3  # the start is clamped to the band
    for _ in range(6):
        state = _answer(engine, state, 0, True).state
    assert state.rung == 3
    for _ in range(4):
        state = _answer(engine, state, 0, False).state
    assert state.rung == 2


def test_a_change_waits_until_the_game_says_it_is_safe() -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    state = engine.setup(AdaptiveConfig(game=ToyConfig(), bands={0: SeatBand(start=0)}), [0], 1)
    state = engine.act(state, 0, {"kind": "busy", "on": True}, 0).state
    for _ in range(3):
        state = _answer(engine, state, 0, True).state
    assert (state.rung, state.pending, state.game.config.size) == (0, 1, 0)
    state = engine.act(state, 0, {"kind": "busy", "on": False}, 0).state
    assert (state.rung, state.pending, state.game.config.size) == (1, None, 1)


def test_a_refusal_and_an_idle_tick_change_nothing() -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    state = engine.setup(AdaptiveConfig(game=ToyConfig(), bands={0: SeatBand(start=0)}), [0], 1)
    refused = engine.act(state, 0, {"kind": "dance"}, 0)
    assert refused.rejected == "not an action"
    assert refused.state is state
    assert engine.tick(state, 5).state is state  # the host tells "nothing" by identity


def test_an_engine_without_a_ladder_cannot_adapt() -> None:
    with pytest.raises(ValueError, match="needs a ladder"):
        AdaptiveEngine(Toy, ())


@given(answers=st.lists(st.tuples(st.integers(0, 1), st.booleans()), max_size=80))
def test_replaying_the_answers_rebuilds_the_same_levels(answers: list[tuple[int, bool]]) -> None:
    engine = AdaptiveEngine(Toy, LADDER)
    config = AdaptiveConfig(game=ToyConfig(), bands={0: SeatBand(start=1), 1: SeatBand(start=3)})
    state = engine.setup(config, [0, 1], 1)
    log: list[LogEntry] = []
    for seat, correct in answers:
        action = {"kind": "answer", "correct": correct}
        state = engine.act(state, seat, action, 0).state
        log.append(("act", seat, action, 0))
        assert 0 <= state.rung < len(LADDER)
    again = engine.replay(config, [0, 1], 1, {}, log)
    assert (again.rung, again.stairs, again.game) == (state.rung, state.stairs, state.game)


# -- the real games ---------------------------------------------------------------------------


def _play(slug: str, base: Mapping[str, Any], *, until_ms: int, moves: bool = True) -> None:
    """A child who never moves (seat 0, on the staircase) against a bot: play by the clock
    alone, then replay the log. ``moves``: the child's answers move the level."""
    spec = game_get(slug)
    assert spec is not None
    engine = AdaptiveEngine(spec.engine(), spec.ladder)
    config = AdaptiveConfig(game=spec.config(base), bands={0: SeatBand(start=2)})
    bots = {1: spec.make_bot("steady")}
    state = engine.setup(config, [0, 1], 11, bots)
    log: list[LogEntry] = []
    trials = 0
    rungs_seen = {state.rung}
    while (deadline := engine.next_deadline(state)) is not None and deadline <= until_ms:
        outcome = engine.tick(state, deadline)
        for trial in outcome.trials:
            assert trial.data["rung"] in range(len(spec.ladder))
            trials += 1
        if outcome.logged and outcome.state is not state:
            payload = None if outcome.checkpoint is None else {"checkpoint": outcome.checkpoint}
            log.append(("tick", None, payload, deadline))
        state = outcome.state
        rungs_seen.add(state.rung)
        settings_now = {name: getattr(state.game.config, name) for name in spec.ladder[0]}
        if state.pending is None and slug != "riff_raff":
            assert settings_now == dict(spec.ladder[state.rung])
    assert trials > 0
    if moves:
        assert len(rungs_seen) > 1, "the answers should have moved the level"
    else:
        assert len(rungs_seen) == 1, "neither right nor wrong: the level stays"
    again = engine.replay(config, [0, 1], 11, bots, log)
    assert again.rung == state.rung
    assert again.stairs == state.stairs
    assert state_fingerprint(again.game) == state_fingerprint(state.game)


def test_palm_strike_answers_move_the_level_and_replay_agrees() -> None:
    _play("palm_strike", {"flip_pacing": "auto"}, until_ms=400_000)


def test_commotion_chances_a_bot_took_leave_the_level_and_replay_agrees() -> None:
    # The bot takes every chance the idle child leaves: each is "beaten" (not a miss, not
    # right), so the staircase has no answer to move on.
    _play("commotion", {}, until_ms=600_000, moves=False)


def test_riff_raff_keeps_its_sea_but_changes_the_catch_window() -> None:
    spec = game_get("riff_raff")
    assert spec is not None
    state = spec.engine().setup(spec.config({}), [0, 1], 3, {1: spec.make_bot("steady")})
    retuned = spec.engine().retune(state, spec.ladder[-1])
    assert retuned.config.catch_window_s == spec.ladder[-1]["catch_window_s"]
    assert retuned.config.wave_strength == state.config.wave_strength
    assert state.config.catch_window_s != retuned.config.catch_window_s  # the original is kept
