"""What a rung of a game's adaptive ladder is called on pages (games.adaptive_table)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from classroom.game_labels import level_label
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _step_label(game: str, step: Mapping[str, Any]) -> str:
    if game == "palm_strike":
        return _("%(level)s, %(window)s s to slap") % {
            "level": level_label(str(step["level"])),
            "window": f"{step['response_window_s']:g}",
        }
    if game == "commotion":
        return _("Refill %(refill)s, stock by %(turn)s") % {
            "refill": step["refill_size"],
            "turn": step["stock_turn"],
        }
    if game == "riff_raff":
        return _("Wave %(strength)s, %(window)s s to catch") % {
            "strength": f"{step['wave_strength']:.1f}",
            "window": f"{step['catch_window_s']:g}",
        }
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
