"""Helpers more than one game's site module uses (naming no game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from classroom.models import Seat


def seat_names(seat: Seat) -> dict[str, Any]:
    """Each seat's name at the seat's table, by seat index, and what a seat is called once a
    robot takes it over mid-game (its child was taken off the class list: the tablets drop the
    name at once)."""
    assert seat.table is not None
    return {
        "names": {
            str(index): entry.get("name", "") for index, entry in enumerate(seat.table.roster)
        },
        "robot": _("Robot"),
    }
