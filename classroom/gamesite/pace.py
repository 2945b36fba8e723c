"""How long one game lasts with a form's settings, in the teacher's words (the new-session form).

The figure is ``games.engine.pace.typical_game_ms``: bots-only games at a steady pace, played
through the engine. A game of physics takes about a second of CPU to play, so each
answer is kept for the settings it was asked for.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine.pace import typical_game_ms
from games.registry import game_get

if TYPE_CHECKING:
    from games.engine.spec import GameSpec


@lru_cache(maxsize=512)
def _typical_ms(slug: str, config: Any, players: int) -> int:
    spec = game_get(slug)
    assert spec is not None
    return typical_game_ms(spec, config, players)


def game_length_ms(*, spec: GameSpec, config: Any, players: int) -> int:
    """The median length of a game of ``players`` with ``config``, in ms (kept per settings)."""
    players = min(max(players, spec.min_players), spec.max_players)
    return _typical_ms(spec.slug, config, players)


def game_length_words(ms: int) -> str:
    """ "About 3 minutes a game" (whole minutes; under 45 s: "Under a minute a game")."""
    if ms < 45_000:
        return _("Under a minute a game")
    minutes = max(1, round(ms / 60_000))
    return ngettext("About %(n)s minute a game", "About %(n)s minutes a game", minutes) % {
        "n": minutes
    }
