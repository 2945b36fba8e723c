"""Riff Raff with extra time: the catching seat's own, longer catch window."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.settings import SettingError
from games.riff_raff.config import Config
from games.riff_raff.rules import act, setup
from games.riff_raff.spec import SPEC
from tests.games.riff_raff.test_rules import (
    CALM,
    YARD_END,
    accepted,
    centre,
    choose,
    drop,
    place_and_settle,
    until_fall,
)


def _fall(config: Config) -> tuple[int, int, int, int, int]:
    """The fall of the rules tests' scene (the second seat drops a crate off the yardarm),
    played with ``config``: (first seat, second seat, piece, left_ms, until_ms)."""
    state = setup(config, [0, 1], 3)
    state, _events = choose(state, {0: 5, 1: 5})
    first = state.active
    assert first is not None
    state, now, _ = place_and_settle(state, first, centre(5), 0)
    second = state.active
    assert second is not None
    state = accepted(act(state, second, {"kind": "declare", "pieces": 2}, now))
    state = accepted(drop(state, second, YARD_END, now))
    state, now, events, _ = until_fall(state, now)
    fall = events[-1].data
    return first, second, fall["piece"], fall["left_ms"], fall["until_ms"]


@settings(
    max_examples=4,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from([1.5, 2.0]), st.booleans())
def test_the_catching_seat_has_its_own_window(scale: float, to_catcher: bool) -> None:
    """The active seat's falling cargo stays catchable for its own window; extra time for
    the other seat changes nothing, since only the active seat catches."""
    plain = _fall(CALM)
    _first, second, _piece, _left, _until = plain
    seat = second if to_catcher else 1 - second
    mixed = dataclasses.replace(CALM, catch_scale_by_seat=((seat, scale),))
    _first, second_again, _piece, left_ms, until_ms = _fall(mixed)
    assert second_again == second
    expected = round(CALM.catch_window_ms * scale) if to_catcher else CALM.catch_window_ms
    assert until_ms - left_ms == expected


def test_a_catch_after_the_tables_window_counts_inside_the_seats_own() -> None:
    _first, second, _p, _l, _u = _fall(CALM)
    config = dataclasses.replace(CALM, catch_scale_by_seat=((second, 2.0),))
    state = setup(config, [0, 1], 3)
    state, _events = choose(state, {0: 5, 1: 5})
    state, now, _ = place_and_settle(state, 1 - second, centre(5), 0)
    state = accepted(act(state, second, {"kind": "declare", "pieces": 2}, now))
    state = accepted(drop(state, second, YARD_END, now))
    state, now, events, _ = until_fall(state, now)
    piece, left_ms = events[-1].data["piece"], events[-1].data["left_ms"]
    late = left_ms + CALM.catch_window_ms + 200  # past the table's window
    catch = {"kind": "catch", "piece": piece, "rt_ms": CALM.catch_window_ms + 150, "rtt_ms": 60}
    outcome = act(state, second, catch, late)
    assert outcome.accepted, outcome.rejected
    [trial] = outcome.trials
    assert trial.data["correct"] is True


@pytest.mark.parametrize("pairs", [((0, 2.5),), ((1, 1.5), (1, 1.5)), [(0, 2.0)]])
def test_bad_seat_scales_are_refused(pairs: object) -> None:
    with pytest.raises(SettingError) as caught:
        Config(catch_scale_by_seat=pairs)  # type: ignore[arg-type]
    assert caught.value.setting == "catch_scale_by_seat"


def test_the_spec_folds_the_rosters_extra_time_into_the_config() -> None:
    roster = [{"seat_id": 1}, {"seat_id": 2, "extra_time": "x1.5"}, {"bot": "steady"}]
    assert SPEC.table_config(Config(), roster).catch_scale_by_seat == ((1, 1.5),)
    assert SPEC.table_config(Config(), [{"seat_id": 1}]) == Config()
