"""State fingerprints: equal digests mean the same game."""

from __future__ import annotations

import random

from games.engine.fingerprint import state_fingerprint


def test_equal_fingerprints_mean_equal_states_generator_included() -> None:
    one, two = random.Random(3), random.Random(3)
    assert state_fingerprint({"rng": one, "cards": [1, 2]}) == state_fingerprint(
        {"rng": two, "cards": [1, 2]}
    )
    two.random()
    assert state_fingerprint({"rng": one, "cards": [1, 2]}) != state_fingerprint(
        {"rng": two, "cards": [1, 2]}
    )
