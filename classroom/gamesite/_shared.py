"""Helpers more than one game's site module uses (naming no game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.gamesite.contract import TrialColumn

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise

    from classroom.models import Seat

# The unit of a trial column that holds a yes or no.
YES_NO = gettext_lazy("TRUE or FALSE")


def data_count_column(label: StrPromise, key: str, *, meaning: StrPromise) -> TrialColumn:
    """A trial column counting something the game writes in the trial's ``data`` (its flip or
    round, from 1)."""
    return TrialColumn(
        label, lambda trial: trial.data.get(key), 7, meaning=meaning, unit=gettext_lazy("count")
    )


def table_labels(seat: Seat) -> dict[str, Any]:
    """What every game's tablet says the same way: the table's names, the robot that takes a
    seat over, players by number, pause and the end of the game."""
    return {
        **seat_names(seat),
        "player_n": _("Player %(n)s"),
        "paused": _("Paused: eyes on your teacher."),
        "ended": _("The game has ended."),
        "game_over": _("Game over!"),
        "you_win": _("You win!"),
        "winner_is": _("%(name)s wins!"),
        "well_played": _("Well played, everyone!"),
        "left_title": _("This tablet left the game."),
    }


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
