"""Helpers more than one game's site module uses (naming no game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from classroom.models import Seat


def seat_names(seat: Seat) -> dict[str, str]:
    """Each seat's name at the seat's table, by seat index."""
    assert seat.table is not None
    return {str(index): entry.get("name", "") for index, entry in enumerate(seat.table.roster)}
