"""Following others, by hand: which flips count on which side, and the intervals."""

from __future__ import annotations

import pytest

from classroom.analytics.following import (
    FEWEST,
    FOLLOW_FLOOR_MS,
    FOLLOW_WINDOW_MS,
    FlipResponse,
    Following,
    flip_following,
    following_by_seat,
)


def _slap(seat: int, rt: int | None, *, target: bool = False) -> FlipResponse:
    return FlipResponse(seat=seat, target=target, responded=True, rt_ms=rt)


def _still(seat: int, *, target: bool = False) -> FlipResponse:
    return FlipResponse(seat=seat, target=target, responded=False, rt_ms=None)


def test_a_slap_inside_the_window_after_anothers_follows_it() -> None:
    found = flip_following([_slap(0, 500, target=True), _slap(1, 500 + 300)])
    assert found == {0: None, 1: (True, True)}  # 0's card matched: nothing said of 0


def test_the_windows_ends() -> None:
    first = 400
    at = {
        "too soon": first + FOLLOW_FLOOR_MS - 1,
        "floor": first + FOLLOW_FLOOR_MS,
        "window": first + FOLLOW_WINDOW_MS,
        "late": first + FOLLOW_WINDOW_MS + 1,
    }
    found = {name: flip_following([_slap(0, first), _slap(1, rt)])[1] for name, rt in at.items()}
    # Slapping together with (or before) the other is not following: the flip says nothing.
    assert found == {
        "too soon": None,
        "floor": (True, True),
        "window": (True, True),
        "late": (True, False),
    }


def test_still_children_are_exposed_or_alone_and_untimed_slaps_say_nothing() -> None:
    assert flip_following([_slap(0, 400), _still(1)])[1] == (True, False)
    assert flip_following([_still(0), _still(1)]) == {0: (False, False), 1: (False, False)}
    assert flip_following([_still(0), _slap(1, 300)])[1] == (False, True)
    assert flip_following([_slap(0, None), _slap(1, 700)])[1] is None
    assert flip_following([_slap(0, 400), _slap(1, None)])[1] is None


def test_counts_per_seat() -> None:
    flips = [
        [_slap(0, 400), _slap(1, 700)],  # 1 follows 0; 0 was first (says nothing of 0)
        [_slap(0, 400), _still(1)],  # 1 exposed, still; 0 alone, false slap
        [_still(0), _still(1)],  # both alone, still
        [_still(0), _slap(1, 900)],  # 1 alone, false slap; 0 exposed, still
    ]
    found = following_by_seat(flips)
    assert found[1] == Following(followed=1, exposed=2, alone_false=1, alone=2)
    assert found[0] == Following(followed=0, exposed=1, alone_false=1, alone=2)
    assert found[1].following_rate == 0.5
    assert found[1].difference == 0.0
    assert not found[1].enough.enough
    assert found[1].enough.needed == FEWEST


def test_newcombes_interval_by_hand() -> None:
    # Newcombe (1998), table II, example (a): 56/70 - 48/80, method 10: 0.0524 to 0.3339.
    interval = Following(followed=56, exposed=70, alone_false=48, alone=80).difference_interval
    assert interval is not None
    assert interval.low == pytest.approx(0.0524, abs=5e-4)
    assert interval.high == pytest.approx(0.3339, abs=5e-4)
    assert Following(alone_false=1, alone=2).difference_interval is None
