"""Random play of any game against the engine contract (used by tests/games/test_contract.py).

Each game's ``tests/games/<game>/play.py`` says how a random but mostly sensible class plays
it (a :class:`Play`); the harness drives the rules module through it and checks what every
engine promises: the input state never changes, a refusal returns the very state it was
given with nothing else, a timer never refuses, unlogged ticks carry nothing, and the log
replays to the same fingerprint and view.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hypothesis import HealthCheck, settings

from games.engine.fingerprint import state_fingerprint

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from hypothesis.strategies import SearchStrategy

    from games.engine.contract import Engine, LogEntry, Outcome, Trial

BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# (config, seats, seed, bots)
Table = tuple[Any, list[int], int, dict[int, Any]]
# (time passing, "act" / "tick" / "deadline", seat, action)
Step = tuple[int, str, int | None, Any]


def _no_trials(trials: tuple[Trial, ...]) -> bool:
    return trials == ()


def _no_secrets(state: Any, viewer: int | None) -> Iterable[Any]:
    return ()


def _nothing(outcome: Outcome[Any], table: Table) -> None:
    return None


def _no_checker() -> Callable[[Outcome[Any], Table], None]:
    return _nothing


@dataclass(frozen=True)
class Play:
    """How the contract test plays one game."""

    tables: SearchStrategy[Table]
    next_input: Callable[[random.Random, Any, list[int]], Step]
    examples: int
    lengths: tuple[int, int]
    # The game is over: stop playing.
    over: Callable[[Any], bool] = lambda _state: False
    # The trials a refused input may still carry (a misplay's false alarm).
    refusal_trials: Callable[[tuple[Trial, ...]], bool] = _no_trials
    # States that ``viewer`` must not be able to tell from ``state`` (another seat's
    # secret changed): the viewer's view of each must equal its view of ``state``.
    secrets: Callable[[Any, int | None], Iterable[Any]] = _no_secrets
    # The game's own rules, checked after every outcome (cards conserved …): a new checker
    # for each game played, since some remember what happened (the pieces caught so far).
    checker: Callable[[], Callable[[Outcome[Any], Table], None]] = _no_checker
    # Garbage the game's parser must refuse kindly.
    junk: tuple[Any, ...] = field(default=())


def views_keep_secrets(engine: Engine[Any], play: Play, state: Any) -> None:
    """Every view is JSON-ready, and none changes with what its viewer may not see."""
    for viewer in (None, *state.seats):
        seen = engine.view(state, viewer)
        json.dumps(seen)
        for twin in play.secrets(state, viewer):
            assert engine.view(twin, viewer) == seen


def play_randomly(
    engine: Engine[Any], play: Play, table: Table, *, driver: int, length: int
) -> Any:
    """Play ``length`` random steps at ``table``, checking the contract at each; then check
    that the log replays to the live game. Returns the last state."""
    config, seats, seed, bots = table
    humans = [seat for seat in seats if seat not in bots]
    rnd = random.Random(driver)
    state = engine.setup(config, seats, seed, bots)
    log: list[LogEntry] = []
    now = 0
    unlogged = False  # the live table moved on by steps its log leaves out
    check = play.checker()
    for _ in range(length):
        if play.over(state):
            break
        dt, what, seat, action = play.next_input(rnd, state, humans)
        now += dt
        before = state_fingerprint(state)
        if what == "act":
            assert seat is not None
            outcome = engine.act(state, seat, action, now)
            if outcome.rejected is None:
                log.append(("act", seat, action, now))
            else:
                assert outcome.state is state
                assert outcome.events == ()
                assert play.refusal_trials(outcome.trials)
        else:
            if what == "deadline":
                deadline = engine.next_deadline(state)
                now = max(now, deadline if deadline is not None else now)
            outcome = engine.tick(state, now)
            assert outcome.rejected is None
            if outcome.logged and outcome.state is not state:
                log.append(("tick", None, None, now))
                unlogged = False
            elif not outcome.logged:
                assert outcome.events == ()
                assert outcome.trials == ()
                unlogged = unlogged or outcome.state is not state
        # The input state is never changed, accepted or not.
        assert state_fingerprint(state) == before
        for trial in outcome.trials:
            assert trial.seat in seats
            json.dumps(dict(trial.data))
        check(outcome, table)
        state = outcome.state
        views_keep_secrets(engine, play, state)
    rebuilt = engine.replay(config, seats, seed, bots, log)
    live = state
    if unlogged:
        # The live table may be a few unlogged steps ahead of its log: bring both to ``now``.
        rebuilt, live = engine.tick(rebuilt, now).state, engine.tick(live, now).state
    assert state_fingerprint(rebuilt) == state_fingerprint(live)
    assert engine.view(rebuilt, None) == engine.view(live, None)
    return state
