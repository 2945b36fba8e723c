"""Riff Raff as the site shows it: its tablet words, levels, ladder, practice, tiles and ship."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from classroom.gamesite._shared import table_labels
from classroom.gamesite.contract import PRACTICE_WITH_BOTS, GameSite
from games.riff_raff.spec import SPEC
from games.riff_raff.trials import CATCH, PLACEMENT, level_wave_strength

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.models import Seat


def level_name(level: str) -> str | None:
    strength = level_wave_strength(level)
    return None if strength is None else _("Wave %(strength)s") % {"strength": f"{strength:.1f}"}


def kind_names() -> dict[str, str]:
    return {CATCH: _("Catches"), PLACEMENT: _("Placements (stayed on board)")}


def step_label(step: Mapping[str, Any]) -> str:
    return _("Wave %(strength)s, %(window)s s to catch") % {
        "strength": f"{step['wave_strength']:.1f}",
        "window": f"{step['catch_window_s']:g}",
    }


def scene() -> dict[str, Any]:
    """The ship and cargo outlines every canvas of this game draws (tablet, console, projector)."""
    # Imported here: the ship module loads pymunk, which only this game's pages need.
    from games.riff_raff.cargo import CARGO, outline
    from games.riff_raff.ship import ship_outline

    return {"geometry": ship_outline(), "cargo": {name: outline(name) for name in CARGO}}


def tablet_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **table_labels(seat),
        **scene(),
        "wave_strength": settings.get("wave_strength", 0.4),
        "your_colour": _("Your colour"),
        "card_n": _("card %(n)s"),
        "round_n": _("Round %(n)s of %(total)s"),
        "pieces_left": _("%(n)s cargo left"),
        "choose_card": _("Pick a card: the highest is captain"),
        "waiting_others": _("Waiting for the others to pick…"),
        "captain_tie": _("A tie for captain: the last captain chooses"),
        "order_tie": _("Same cards: the captain chooses who goes first"),
        "goes_first": _("%(name)s first"),
        "declare": _("That area has cargo: place 1 or 2 pieces?"),
        "declare_n": _("%(n)s"),
        "drag_piece": _("Drag your cargo onto the ship and let go"),
        "their_turn": _("%(name)s is loading"),
        "settling": _("The sea rolls…"),
        "catch_it": _("Catch it! Tap the falling cargo"),
        "falling": _("Cargo overboard!"),
        "near_miss": _("So close! Tap right on the cargo."),
        "played_cards": _("Cards played"),
        "first_captain": _(
            "%(name)s is captain before round 1 and settles a tie (the teacher can choose "
            "who in the settings)."
        ),
    }


SITE = GameSite(
    spec=SPEC,
    tablet_labels=tablet_labels,
    level_name=level_name,
    kind_names=kind_names,
    step_label=step_label,
    practice_settings={PRACTICE_WITH_BOTS: {}},
    # The cargo still to load.
    count_field="pieces_left",
    tile_template="gamesite/riff_raff/_tile.html",
    # Catches (caught or not, with an RT); placements have no RT and no noise trials.
    measures=("accuracy", "rt", "inverse_efficiency_ms"),
    # Catches and placements share a session: each kind is shown on its own.
    colour_symbols=True,
    mixed_kinds=True,
    watch_scene=scene,
    watch_template="gamesite/riff_raff/_watch.html",
)
