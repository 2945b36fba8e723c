"""Every playable game by slug: the one place that lists the games.

``games.engine`` imports no game, so the specs import it and this module imports the specs
at the top, with no cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.commotion.spec import SPEC as COMMOTION
from games.palm_strike.spec import SPEC as PALM_STRIKE
from games.riff_raff.spec import SPEC as RIFF_RAFF

if TYPE_CHECKING:
    from games.engine.spec import GameSpec

_REGISTRY: dict[str, GameSpec] = {spec.slug: spec for spec in (PALM_STRIKE, COMMOTION, RIFF_RAFF)}


def game_registry() -> dict[str, GameSpec]:
    """Every playable game by slug, in the order pages list them."""
    return _REGISTRY


def game_get(slug: str) -> GameSpec | None:
    return _REGISTRY.get(slug)
