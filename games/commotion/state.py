"""The game state of one Commotion table, and how to copy and compare it.

A State is plain data. The rule functions never change a state they were given: they work
on :meth:`State.clone` and return the copy, so a host may keep old states (and a refused
input returns the very object it was given).

Pile orientation: every list of cards keeps its *top at the end* (``stock[-1]`` is the next
card turned, ``waste[-1]`` the playable one, ``refill[-1]`` the next refill card, and each
centre pile's last card its top). The tableau is a row, left to right.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from games.commotion.bots import BotSkill
from games.commotion.config import Config
from games.engine.table import TableState

if TYPE_CHECKING:
    from games.commotion.cards import Card

Phase = Literal["countdown", "playing", "round_over", "game_over"]
Source = Literal["tableau", "waste"]
EndReason = Literal["out", "stall"]


@dataclass
class Player:
    """One seat's own cards and score."""

    seat: int
    tableau: list[Card] = field(default_factory=list)
    refill: list[Card] = field(default_factory=list)
    stock: list[Card] = field(default_factory=list)
    waste: list[Card] = field(default_factory=list)
    total: int = 0
    # Stock recycles since the last play to the centre (by anyone): the stall rule's counter.
    quiet_recycles: int = 0


@dataclass(frozen=True)
class Opportunity:
    """A visible card of a human seat that could go to the centre, since ``opened_ms``."""

    source: Source
    card: Card
    opened_ms: int


@dataclass(eq=False)
class State(TableState[Config, BotSkill]):
    """Everything about one table."""

    players: dict[int, Player]
    phase: Phase = "countdown"
    round: int = 1
    go_at_ms: int | None = None
    next_round_at_ms: int | None = None
    centre: list[list[Card]] = field(default_factory=list)
    # When each bot moves next; None while it has nothing to do (woken by the next change).
    bot_due: dict[int, int | None] = field(default_factory=dict)
    # Per human seat: its open play opportunities (analytics trials), oldest first.
    opportunities: dict[int, list[Opportunity]] = field(default_factory=dict)
    # Per-round score rows, see games.commotion.scoring.
    rounds: list[dict[str, int]] = field(default_factory=list)
    out_by: int | None = None
    ended_by: EndReason | None = None
    winners: list[int] | None = None
    # The all-stuck rule (seed §5(4)): once the table is stuck, *every* seat may take one
    # 6th card, even after an earlier one made the table playable again. The seats that took
    # theirs in the current stuck spell (empty: no spell open). Immutable, so shared on clone.
    extra_taken: tuple[int, ...] = ()

    def clone(self) -> State:
        """An independent copy: every mutable part copied, immutable values shared.

        Written out by hand because it runs on every input and timer, and ``deepcopy`` is
        several times slower. A new mutable field must be copied here too (the tests
        compare fingerprints of inputs before and after every step).
        """
        return self.copied(
            players={seat: _copy_player(player) for seat, player in self.players.items()},
            centre=[list(pile) for pile in self.centre],
            bot_due=dict(self.bot_due),
            opportunities={seat: list(ops) for seat, ops in self.opportunities.items()},
            rounds=[dict(row) for row in self.rounds],
            winners=list(self.winners) if self.winners is not None else None,
        )

    def player(self, seat: int) -> Player:
        return self.players[seat]


def _copy_player(player: Player) -> Player:
    return dataclasses.replace(
        player,
        tableau=list(player.tableau),
        refill=list(player.refill),
        stock=list(player.stock),
        waste=list(player.waste),
    )
