"""Refusing an input: the value a rule returns instead of raising, and the checks every
engine's ``act`` makes before its own rules.

A refusal is *returned* (a :class:`Refusal` value, like boardgame.io's ``INVALID_MOVE``),
never raised: a rule function answers ``Changes`` or a ``Refusal``, and :func:`refused` turns
one into an outcome carrying the unchanged state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from games.engine.actions import GameAction
from games.engine.contract import Outcome, Trial
from games.engine.translation import gettext_noop

if TYPE_CHECKING:
    from games.engine.actions import ActionSchema
    from games.engine.table import TableState

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=GameAction)


@dataclass(frozen=True)
class Refusal:
    """An input that is not allowed now: the sentence shown to the player, and the trial it
    still is (a real card played where it does not fit is a false alarm)."""

    message: str
    trial: Trial | None = None


def refused(state: StateT, refusal: Refusal) -> Outcome[StateT]:
    """The outcome of a refused input: ``state`` itself, unchanged."""
    found = (refusal.trial,) if refusal.trial is not None else ()
    return Outcome(state=state, rejected=refusal.message, trials=found)


GAME_OVER = gettext_noop("The game is over.")


def act_preamble(
    state: TableState[Any, Any],
    seat: int,
    action: object,
    *,
    actions: ActionSchema[ActionT],
    over: bool,
) -> ActionT | Refusal:
    """The checks every engine's ``act`` makes first, in this order: the game is not
    ``over``, the input is one of the game's ``actions``, the seat is at the table and
    played by a child."""
    if over:
        return Refusal(GAME_OVER)
    parsed = actions.read(action)
    if isinstance(parsed, str):
        return Refusal(parsed)
    if seat not in state.seats:
        return Refusal(gettext_noop("You do not have a seat at this table."))
    if seat in state.bots:
        return Refusal(gettext_noop("That seat is played by the computer."))
    return parsed
