"""Riff Raff: who is captain, and in which order the seats place their cargo."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.riff_raff.captaincy import TieUndecided, captain_of, placing_order


@pytest.mark.parametrize(
    ("cards", "choice", "order"),
    [
        ({0: 3, 1: 9, 2: 5}, None, [1, 2, 0]),
        ({0: 10, 1: 1}, None, [0, 1]),
        ({0: 7, 1: 7, 2: 2}, [1, 0], [1, 0, 2]),
        ({0: 7, 1: 7, 2: 2}, [1], [1, 0, 2]),  # naming one of two is enough
        ({0: 4, 1: 8, 2: 4, 3: 4}, [3, 0], [1, 3, 0, 2]),
        ({0: 6, 1: 6, 2: 9, 3: 6}, [2, 3, 1], [2, 3, 1, 0]),  # a non-tied seat named is ignored
    ],
)
def test_placing_order_is_descending_with_ties_as_the_captain_says(
    cards: dict[int, int], choice: list[int] | None, order: list[int]
) -> None:
    assert placing_order(cards, choice) == order


def test_an_undecided_tie_is_an_error_naming_the_tied_seats() -> None:
    with pytest.raises(TieUndecided) as raised:
        placing_order({0: 5, 1: 9, 2: 5, 3: 5}, [2])
    assert raised.value.seats == (0, 2, 3)


def test_the_highest_card_is_captain_and_a_tie_needs_the_previous_captain() -> None:
    assert captain_of({0: 2, 1: 10, 2: 9}, previous_captain=0) == 1
    assert captain_of({0: 10, 1: 10, 2: 9}, previous_captain=2, tie_pick=1) == 1
    with pytest.raises(TieUndecided):
        captain_of({0: 10, 1: 10}, previous_captain=1)
    with pytest.raises(TieUndecided):
        captain_of({0: 10, 1: 10, 2: 3}, previous_captain=1, tie_pick=2)  # not among the tied


@given(st.dictionaries(st.integers(0, 3), st.integers(1, 10), min_size=1, max_size=4))
def test_every_seat_places_once_and_cards_never_rise(cards: dict[int, int]) -> None:
    order = placing_order(cards, sorted(cards, reverse=True))
    assert sorted(order) == sorted(cards)
    shown = [cards[seat] for seat in order]
    assert shown == sorted(shown, reverse=True)
