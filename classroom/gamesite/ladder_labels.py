"""What a rung of a game's adaptive ladder is called on pages (games.engine.adaptive)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from classroom.gamesite import game_site_get
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _step_label(game: str, step: Mapping[str, Any]) -> str:
    site = game_site_get(game)
    if site is not None:
        return site.step_label(step)
    return ", ".join(f"{name} {value}" for name, value in step.items())


def rung_label(*, game: str, rung: int) -> str:
    """ "Level 4 of 9: Intermediate, 3.5 s to slap" for a child and their teacher."""
    spec = game_get(game)
    if spec is None or not 0 <= rung < len(spec.ladder):
        return _("Level %(n)s") % {"n": rung + 1}
    return _("Level %(n)s of %(total)s: %(what)s") % {
        "n": rung + 1,
        "total": len(spec.ladder),
        "what": _step_label(game, spec.ladder[rung]),
    }


def rung_choices(*, game: str) -> list[tuple[int, str]]:
    """Every rung of a game's ladder as (rung, label), easiest first, for forms."""
    spec = game_get(game)
    return [
        (rung, rung_label(game=game, rung=rung)) for rung in range(len(spec.ladder) if spec else 0)
    ]
