"""Palm Strike with extra time: a seat's own, longer window; the table's for everyone else."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.settings import SettingError
from games.palm_strike.config import Config
from games.palm_strike.rules import act, next_deadline, tick, view
from games.palm_strike.spec import SPEC
from tests.games.palm_strike.support import Q_RY, RY, arranged, flip

if TYPE_CHECKING:
    from games.engine.contract import Trial
    from games.palm_strike.state import State

Mixed = tuple[int, Config, Config, list[tuple[int, int]]]
TOO_LATE = "Too late: that card has already closed."
RTT = 40

SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)


def _table(config: Config, seats: int) -> State:
    # Every seat holds one card the flip matches: any slap is right, and no race needs a
    # choice, so a slap's fate depends only on its time.
    state = arranged(config, {seat: [RY] for seat in range(seats)}, [Q_RY])
    return flip(state, 0, 0)


def _slap(state: State, seat: int, age: int) -> Any:
    # A plausible reaction time for a tap that arrives ``age`` ms after the flip.
    action = {"kind": "slap", "flip": 1, "rt_ms": max(100, age - 20), "rtt_ms": RTT}
    return act(state, seat, action, age)


@st.composite
def mixed_tables(draw: st.DrawFn) -> Mixed:
    """(seats, the table's Config, the same with extra time for some seats, slaps as
    (seat, age))."""
    seats = draw(st.integers(2, 4))
    window = draw(st.sampled_from([1.0, 1.5, 2.5, 4.0, 5.0]))
    plain = Config(response_window_s=window)
    scales = {
        seat: scale
        for seat in range(seats)
        if (scale := draw(st.sampled_from([1.0, 1.5, 2.0]))) != 1.0
    }
    mixed = dataclasses.replace(plain, window_scale_by_seat=tuple(sorted(scales.items())))
    longest = round(window * 1000 * 2)
    slaps = draw(
        st.lists(
            st.tuples(st.integers(0, seats - 1), st.integers(150, longest + 500)),
            max_size=6,
            unique_by=lambda pair: pair[0],
        )
    )
    return seats, plain, mixed, sorted(slaps, key=lambda pair: pair[1])


def _play(config: Config, seats: int, slaps: list[tuple[int, int]]) -> tuple[list[Any], State]:
    """Each slap's outcome in turn, then the state once every window has closed."""
    state = _table(config, seats)
    outcomes = []
    for seat, age in slaps:
        outcome = _slap(state, seat, age)
        outcomes.append(outcome)
        state = outcome.state
    return outcomes, state


def _trials_until_closed(state: State) -> tuple[list[Trial], State]:
    trials: list[Trial] = []
    while state.current is not None and state.current.open:
        deadline = next_deadline(state)
        assert deadline is not None
        outcome = tick(state, deadline)
        trials += outcome.trials
        state = outcome.state
    return trials, state


@SETTINGS
@given(mixed_tables())
def test_each_seat_slaps_inside_its_own_window_only(table: Mixed) -> None:
    seats, _plain, mixed, slaps = table
    outcomes, _state = _play(mixed, seats, slaps)
    for (seat, age), outcome in zip(slaps, outcomes, strict=True):
        if age < mixed.window_ms_for(seat):
            assert outcome.accepted, (seat, age, outcome.rejected)
        else:
            assert outcome.rejected == TOO_LATE


@SETTINGS
@given(mixed_tables())
def test_extra_time_is_fair_for_the_others(table: Mixed) -> None:
    """Every seat without extra time is judged exactly as at a table without any: the same
    slaps counted and refused with the same words, and the same trials; the card stays open
    until the longest window ends."""
    seats, plain, mixed, slaps = table
    scaled = {seat for seat, _scale in mixed.window_scale_by_seat}
    plain_outcomes, plain_state = _play(plain, seats, slaps)
    mixed_outcomes, mixed_state = _play(mixed, seats, slaps)
    for (seat, age), before, after in zip(slaps, plain_outcomes, mixed_outcomes, strict=True):
        if seat not in scaled or age < plain.window_ms_for(seat):
            assert after.rejected == before.rejected
    plain_trials = [t for o in plain_outcomes for t in o.trials]
    plain_trials += _trials_until_closed(plain_state)[0]
    assert mixed_state.current is not None
    closes = mixed_state.current.closes_ms
    assert closes == max(mixed.window_ms_for(seat) for seat in range(seats))
    mixed_trials = [t for o in mixed_outcomes for t in o.trials]
    mixed_trials += _trials_until_closed(mixed_state)[0]
    others = {t.seat: t.data for t in plain_trials if t.seat not in scaled}
    assert {t.seat: t.data for t in mixed_trials if t.seat not in scaled} == others


def test_a_slower_slap_inside_its_own_window_wins_when_no_one_else_slapped() -> None:
    config = Config(response_window_s=2.0, window_scale_by_seat=((1, 2.0),))
    state = _table(config, 3)
    assert _slap(state, 0, 2500).rejected == TOO_LATE  # past the table's 2 s
    outcome = _slap(state, 1, 3500)  # inside seat 1's own 4 s
    assert outcome.accepted
    trials, state = _trials_until_closed(outcome.state)
    assert state.current is not None
    assert state.current.winner == 1
    assert state.current.outcome in {"own", "both"}
    by_seat = {trial.seat: trial.data for trial in trials}
    assert by_seat[1]["responded"] is True
    assert by_seat[1]["first"] is True
    assert by_seat[0]["responded"] is False


def test_a_seat_sees_the_card_close_at_the_end_of_its_own_window() -> None:
    config = Config(response_window_s=2.0, window_scale_by_seat=((1, 1.5),))
    state = _table(config, 2)
    assert view(state, 0)["window_closes_ms"] == 2000
    assert view(state, 1)["window_closes_ms"] == 3000
    assert view(state, None)["window_closes_ms"] == 3000
    assert next_deadline(state) == 2000
    outcome = tick(state, 2000)
    assert [event.kind for event in outcome.events] == ["seat_window_closed"]
    assert outcome.events[0].data == {"flip": 1, "seats": [0]}
    state = outcome.state
    assert view(state, 0)["window_closes_ms"] is None
    assert view(state, 0)["phase"] == "open"  # the card is still on the table
    assert view(state, 1)["window_closes_ms"] == 3000
    assert _slap(state, 0, 2100).rejected == TOO_LATE
    assert _slap(state, 1, 2900).accepted
    assert next_deadline(state) == 3000


def test_bots_keep_the_tables_window() -> None:
    config = Config(response_window_s=2.0, window_scale_by_seat=((1, 2.0),))
    plain = dataclasses.replace(config, window_scale_by_seat=())
    bots = {0: SPEC.make_bot("quick")}
    with_extra = flip(arranged(config, {0: [RY], 1: [RY]}, [Q_RY], bots=bots, active=1), 1, 0)
    without = flip(arranged(plain, {0: [RY], 1: [RY]}, [Q_RY], bots=bots, active=1), 1, 0)
    assert with_extra.current is not None
    assert without.current is not None
    assert with_extra.current.bot_moves == without.current.bot_moves


@pytest.mark.parametrize(
    "pairs",
    [((0, 3.0),), ((0, 1.5), (0, 2.0)), ((True, 1.5),), [(0, 1.5)], ((0,),), ((0, True),)],
)
def test_bad_seat_scales_are_refused(pairs: Any) -> None:
    with pytest.raises(SettingError) as caught:
        Config(window_scale_by_seat=pairs)
    assert caught.value.setting == "window_scale_by_seat"


def test_the_spec_folds_the_rosters_extra_time_into_the_config() -> None:
    roster = [
        {"seat_id": 1, "extra_time": "x2"},
        {"bot": "steady"},
        {"seat_id": 3, "extra_time": "untimed"},
        {"seat_id": 4, "extra_time": "x1.5"},
        {"seat_id": 5},
    ]
    config = SPEC.table_config(Config(), roster)
    assert config.window_scale_by_seat == ((0, 2.0), (2, 2.0), (3, 1.5))
    assert SPEC.table_config(Config(), [{"seat_id": 1, "extra_time": "x9"}]) == Config()
