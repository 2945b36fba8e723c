"""A digest of a game state: equal digests mean the same game, generator included.

Engines keep their state as plain dataclasses, lists, dicts and a ``random.Random``; tests
and replays compare states through this one canonical form.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
from typing import Any


def _canonical(value: Any) -> Any:
    """A JSON-ready, order-stable form of any part of a state."""
    if isinstance(value, random.Random):
        return ["rng", _canonical(value.getstate())]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            type(value).__name__,
            {f.name: _canonical(getattr(value, f.name)) for f in dataclasses.fields(value)},
        ]
    if isinstance(value, dict):
        return [["key", _canonical(k), _canonical(v)] for k, v in sorted(value.items())]
    if isinstance(value, list | tuple):
        return [_canonical(item) for item in value]
    return value


def state_fingerprint(state: Any) -> str:
    """A digest of every field of ``state``, the generator included: equal iff same game."""
    text = json.dumps(_canonical(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
