"""The cheap generator copy: the same sequence as the original, independent of it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from games.engine.rng import rng_copy


@given(seed=st.integers(), draws=st.integers(0, 50))
def test_a_copy_continues_exactly_like_the_original(seed: int, draws: int) -> None:
    original = random.Random(seed)
    for _ in range(draws):
        original.random()
    copied = rng_copy(original)
    assert [copied.random() for _ in range(5)] == [original.random() for _ in range(5)]


def test_a_copy_is_independent() -> None:
    original = random.Random(1)
    copied = rng_copy(original)
    copied.random()
    assert copied.getstate() != original.getstate()
