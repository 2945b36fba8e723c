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

# Leaves stand for themselves. Exact types: a subclass (an enum, say) takes the long way.
_LEAVES = frozenset({str, int, float, bool, type(None)})


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _canonical(value: Any) -> Any:
    """A JSON-ready, order-stable form of any part of a state."""
    # Leaves are checked before any call: a generator's 625 words and the cards' numbers are
    # most of a state, and the contract tests take a digest before and after every step.
    cls = type(value)
    if cls in _LEAVES:
        return value
    if isinstance(value, random.Random):
        return ["rng", _canonical(value.getstate())]
    if hasattr(cls, "__dataclass_fields__") and not isinstance(value, type):
        return [
            cls.__name__,
            {name: _canonical(getattr(value, name)) for name in _field_names(cls)},
        ]
    if isinstance(value, dict):
        return [["key", _canonical(k), _canonical(v)] for k, v in sorted(value.items())]
    if isinstance(value, list | tuple):
        return [item if type(item) in _LEAVES else _canonical(item) for item in value]
    return value


def state_fingerprint(state: Any) -> str:
    """A digest of every field of ``state``, the generator included: equal iff same game."""
    text = json.dumps(_canonical(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
