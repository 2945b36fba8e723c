"""Every game in the registry keeps the engine contract (games/engine/contract.py), one test
each: random play by a class replays to the same fingerprint, refusals leave the state
identical, no view leaks what its viewer may not see, and garbage input is refused without an
error. Every game also has the same files (``LAYOUT``).

How a random class plays each game, and that game's own checks along the way (cards
conserved …), is ``PLAY`` in ``tests/games/<game>/play.py``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.fingerprint import state_fingerprint
from games.registry import game_registry
from tests.games.harness import BASE, Play, play_randomly

if TYPE_CHECKING:
    from games.engine.contract import Engine, GameEngine, Outcome

SLUGS = list(game_registry())


def _play(slug: str) -> Play:
    play: Play = importlib.import_module(f"tests.games.{slug}.play").PLAY
    return play


def _engine(slug: str) -> GameEngine[Any]:
    return game_registry()[slug].engine()


@pytest.mark.parametrize("slug", SLUGS)
def test_random_play_keeps_the_contract_and_replays(slug: str) -> None:
    engine, play = _engine(slug), _play(slug)

    @settings(BASE, max_examples=play.examples)
    @given(
        table=play.tables,
        driver=st.integers(0, 2**32),
        length=st.integers(*play.lengths),
    )
    def run(table: Any, driver: int, length: int) -> None:
        play_randomly(engine, play, table, driver=driver, length=length)

    run()


# JSON-like garbage, as a tablet (or anyone) might send it.
_leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
garbage = st.recursive(
    _leaves,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=8,
)


def _kinds(play: Play) -> list[str]:
    return sorted({junk["kind"] for junk in play.junk if isinstance(junk, dict)})


@pytest.mark.parametrize("slug", SLUGS)
def test_garbage_input_is_refused_kindly_and_changes_nothing(slug: str) -> None:
    spec, play = game_registry()[slug], _play(slug)
    engine: Engine[Any] = spec.engine()
    seats = list(range(spec.min_players))
    state = engine.setup(spec.default_config(), seats, 7, {})
    before = state_fingerprint(state)

    @settings(BASE, max_examples=150)
    @given(
        action=garbage
        | st.sampled_from(play.junk)
        | st.builds(
            lambda kind, rest: {**rest, "kind": kind},
            st.sampled_from(["dance", *_kinds(play)]),
            st.dictionaries(st.text(max_size=8), garbage, max_size=3),
        ),
        seat=st.sampled_from([*seats, -1, 99]),
        now_ms=st.integers(0, 10**7),
    )
    def run(action: Any, seat: int, now_ms: int) -> None:
        outcome: Outcome[Any] = engine.act(state, seat, action, now_ms)
        assert state_fingerprint(state) == before
        if outcome.rejected is not None:
            assert outcome.state is state
            assert isinstance(outcome.rejected, str)
            assert outcome.rejected

    run()


# Every game keeps the same file layout, so a reader who knows one game finds their way in
# the next; game-specific concepts (cards.py, ship.py ...) sit beside these.
LAYOUT = (
    "config.py",
    "state.py",
    "actions.py",
    "rules.py",
    "view.py",
    "trials.py",
    "bots.py",
    "spec.py",
)
GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_the_same_file_layout(slug: str) -> None:
    folder = GAMES_DIR / slug
    missing = [name for name in LAYOUT if not (folder / name).is_file()]
    assert not missing, f"games/{slug} lacks {missing}"
    assert game_registry()[slug].engine_path == f"games.{slug}.rules"


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_has_a_play_and_junk(slug: str) -> None:
    play = _play(slug)
    assert play.examples > 0
    assert play.junk
