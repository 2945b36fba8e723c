"""Commotion as the site shows it: its tablet words, levels, ladder, practice and tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from classroom.gamesite._shared import table_labels
from classroom.gamesite.contract import PRACTICE_WITH_BOTS, GameSite
from games.commotion.spec import SPEC
from games.commotion.trials import level_fields

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.models import Seat

PLAY = "commotion.play"


def _refill_and_turn(refill: object, turn: object) -> str:
    return _("Refill %(refill)s, stock by %(turn)s") % {"refill": refill, "turn": turn}


def level_name(level: str) -> str | None:
    fields = level_fields(level)
    return None if fields is None else _refill_and_turn(fields.refill, fields.stock_turn)


def kind_names() -> dict[str, str]:
    return {PLAY: _("Plays")}


def step_label(step: Mapping[str, Any]) -> str:
    return _refill_and_turn(step["refill_size"], step["stock_turn"])


def tablet_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **table_labels(seat),
        "colour": {
            "red": _("red"),
            "blue": _("blue"),
            "green": _("green"),
            "yellow": _("yellow"),
        },
        "start": pgettext("Commotion card", "START"),
        "stop": pgettext("Commotion card", "STOP"),
        "number_card": _("%(colour)s %(number)s"),
        "pile_label": _("Pile with %(card)s on top, %(n)s cards"),
        "points": _("%(n)s points"),
        "points_short": _("%(n)s pts"),
        "refill_left": _("Refill pile: %(n)s"),
        "refill_short": _("%(n)s left"),
        "round_n": _("Round %(n)s"),
        "countdown": _("Ready… %(n)s"),
        "go": _("GO!"),
        "playing": _("Tap a card, then a pile"),
        "now_pile": _("Now tap a pile"),
        "stuck": _("Everyone is stuck: take one more card!"),
        "extra_right": _("Everyone was stuck: you may still take one more card."),
        "turn": _("Turn %(n)s"),
        "recycle": _("Turn the waste over"),
        "waste_empty": _("Empty"),
        "new_pile": _("New pile"),
        "centre_empty": _("Piles start with a START card."),
        "round_over": _("Round %(n)s is over"),
        "next_round": _("Next round in %(n)s s"),
        "called_out": _("%(name)s called OUT!"),
        "you_called_out": _("You called OUT!"),
        "stall_ended": _("Nobody could play any more: the round ended."),
        "player": _("Player"),
        "centre_cards": _("Cards in the centre"),
        "refill_penalty": _("Refill left (-2 each)"),
        "out_bonus": _("OUT bonus"),
        "this_round": _("This round"),
        "total": _("Total"),
    }


SITE = GameSite(
    spec=SPEC,
    tablet_labels=tablet_labels,
    level_name=level_name,
    kind_names=kind_names,
    step_label=step_label,
    practice_settings={PRACTICE_WITH_BOTS: {}},
    # The refill pile still to clear.
    count_field="refill",
    tile_template="gamesite/commotion/_tile.html",
    # A card that fits a pile is a signal, one that fits none is noise.
    measures=("accuracy", "rt", "dprime", "criterion", "inverse_efficiency_ms"),
    colour_symbols=True,
)
