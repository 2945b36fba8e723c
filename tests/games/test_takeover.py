"""A bot takes over a seat mid-game (its child was taken off the class list), in every game:
the table plays on to its end, the log with the ``bot`` entry replays to the same state, the
input state is never changed, a second takeover changes nothing, and the seat's own inputs
are refused from then on."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.commotion.config import Config as CommotionConfig
from games.palm_strike.config import Config as PalmConfig
from games.riff_raff.config import Config as RiffConfig

if TYPE_CHECKING:
    from collections.abc import Callable

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Far more ticks than any of these games needs to end with bots alone.
MAX_TICKS = 60_000


@dataclass(frozen=True)
class Game:
    module: str
    config: Any
    over: Callable[[Any], bool]
    # An input the seat could send at any time (refused or not, it must be refused as a bot's).
    probe: dict[str, Any]

    @property
    def engine(self) -> Any:
        return importlib.import_module(self.module)


GAMES = {
    "palm_strike": Game(
        "games.palm_strike.rules",
        PalmConfig(cards_per_player=3, flip_pacing="tap"),
        lambda state: bool(state.game_over),
        {"kind": "flip"},
    ),
    "commotion": Game(
        "games.commotion.rules",
        CommotionConfig(),
        lambda state: state.phase == "game_over",
        {"kind": "turn"},
    ),
    "riff_raff": Game(
        "games.riff_raff.rules",
        RiffConfig(pieces_per_player=4),
        lambda state: state.phase == "game_over",
        {"kind": "choose_card", "card": 1},
    ),
}


def _bot(game: Game) -> Any:
    return importlib.import_module(game.module.rsplit(".", 1)[0] + ".bots").BOT_LEVELS["steady"]


def _run(game: Game, state: Any, now: int, log: list[Any], *, until: int | None) -> tuple[Any, int]:
    """Tick at each deadline (as the host does), logging what the host would log, until game
    time ``until`` (None: the end of the game). Returns the state and the time reached."""
    engine = game.engine
    for _ in range(MAX_TICKS):
        if game.over(state):
            return state, now
        deadline = engine.next_deadline(state)
        if deadline is None:
            assert until is not None, "the table waits for a seat nobody plays"
            return state, until
        if until is not None and deadline > until:
            return state, until
        now = max(now, deadline)
        outcome = engine.tick(state, now)
        if outcome.logged and (outcome.state is not state or outcome.events or outcome.trials):
            payload = None if outcome.checkpoint is None else {"checkpoint": outcome.checkpoint}
            log.append(("tick", None, payload, now))
        state = outcome.state
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(BASE, max_examples=6)
@given(seed=st.integers(0, 2**32), leave_at=st.sampled_from([0, 900, 4_000, 20_000]))
def test_a_bot_takes_the_seat_and_the_table_plays_to_the_end(
    name: str, seed: int, leave_at: int
) -> None:
    game = GAMES[name]
    engine = game.engine
    # Seat 0 is the child (who never plays here: away, then removed); seat 1 a bot.
    bots = {1: _bot(game)}
    state = engine.setup(game.config, [0, 1], seed, bots)
    log: list[Any] = []
    state, now = _run(game, state, 0, log, until=leave_at)

    before = engine.state_fingerprint(state)
    outcome = engine.takeover(state, 0, "steady", now)
    assert engine.state_fingerprint(state) == before  # the input state is never changed
    assert outcome.rejected is None
    if game.over(state):
        assert outcome.state is state
        return
    assert any(event.kind == "bot_takeover" for event in outcome.events)
    log.append(("bot", 0, {"bot": "steady"}, now))
    state = outcome.state

    # Taken over once is enough; and the child's tablet can no longer play the seat.
    assert engine.takeover(state, 0, "steady", now).state is state
    refused = engine.act(state, 0, game.probe, now)
    assert refused.rejected == "That seat is played by the computer."
    assert refused.state is state

    state, now = _run(game, state, now, log, until=None)
    assert game.over(state)

    rebuilt = engine.replay(game.config, [0, 1], seed, bots, log)
    assert engine.state_fingerprint(rebuilt) == engine.state_fingerprint(state)
    assert engine.view(rebuilt, None) == engine.view(state, None)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_without_the_takeover_the_replay_differs(name: str) -> None:
    """The ``bot`` entry is what replay follows: leaving it out gives another game."""
    game = GAMES[name]
    engine = game.engine
    bots = {1: _bot(game)}
    state = engine.setup(game.config, [0, 1], 11, bots)
    log: list[Any] = []
    state, now = _run(game, state, 0, log, until=900)
    state = engine.takeover(state, 0, "steady", now).state
    ticks_before = len(log)
    log.append(("bot", 0, {"bot": "steady"}, now))
    state, now = _run(game, state, now, log, until=now + 30_000)
    without = [entry for entry in log if entry[0] != "bot"]
    assert len(log) > ticks_before + 1
    rebuilt = engine.replay(game.config, [0, 1], 11, bots, without)
    assert engine.state_fingerprint(rebuilt) != engine.state_fingerprint(state)
