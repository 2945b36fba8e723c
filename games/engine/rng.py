"""Copying a game's seeded random generator, cheaply.

``random.Random()`` and ``copy.deepcopy`` of one both seed a fresh generator from the OS before
its state is overwritten, which costs many times the rest of a state copy; engines copy their
state on every move.
"""

from __future__ import annotations

import random


def rng_copy(rng: random.Random) -> random.Random:
    """An independent generator in the same state (never seeded from the OS)."""
    copied = random.Random.__new__(random.Random)
    copied.setstate(rng.getstate())
    return copied
