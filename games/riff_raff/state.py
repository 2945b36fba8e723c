"""The game state of one Riff Raff table, and how to copy and compare it.

A State is plain data plus the ship. The engine never changes a state it was given: it works
on :meth:`State.clone` and returns the copy, so a host may keep old states (and a refused
input returns the very object it was given).

The ship (:class:`ShipLine`) is held as its *history*: the exact list of calls made on the
pymunk world since the table was set up (places, rolls, steps, removals). That list is what
the state is (and what its fingerprint covers); the pymunk world itself is a cache built
from it. Why not ``Ship.copy()`` on every clone: a copied pymunk world continues only to
within a small drift of the original (games/riff_raff/ship.py), so a live table that copies
on every 16 ms tick and its replay, which copies only on the logged entries, would part
ways. Replaying the same calls, on the other hand, is bit-exact. So clones share one world
and its history; the clone that moves on takes the world with it, and an older state that
is looked at again afterwards rebuilds its world by replaying its own (shorter) history:
correct, but slow for a long game, so engines avoid it (see ``games.riff_raff.rules.act``).

Checkpoints: when a placement is over the engine records the world's own snapshot in the
history (``ShipLine.checkpoint``; loading it changes nothing). A replay that finds other
values in the log (``ShipLine.restore``) puts those in its place, so the world is always
the exact result of its history, and the history says where the bodies were.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from games.engine.table import TableState
from games.riff_raff.bots import BotSkill
from games.riff_raff.config import Config
from games.riff_raff.ship import Ship

if TYPE_CHECKING:
    from collections.abc import Mapping


Phase = Literal[
    "choosing",
    "captain_tie",
    "order_tie",
    "declaring",
    "placing",
    "settling",
    "catching",
    "game_over",
]
EndReason = Literal["cargo_out", "rounds"]

# One call on the ship, as recorded: ("place", piece_id, owner, shape, area, x, angle),
# ("roll", steps), ("step", count) (consecutive steps are counted in one entry; each step is
# followed by ``off_ship()``), ("remove", piece_id) or ("checkpoint", snapshot as canonical
# JSON text: ``Ship.load``).
ShipCall = tuple[str | int | float, ...]


@dataclass(frozen=True)
class Piece:
    """One cargo piece: its id, shape and colour (the seat it started with)."""

    id: int
    shape: str
    owner: int


@dataclass
class Player:
    """One seat's hand of cards and supply of cargo (placed in order, first first)."""

    seat: int
    cards: list[int] = field(default_factory=list)
    supply: list[Piece] = field(default_factory=list)
    # Pieces this seat has dropped onto the ship so far (falls do not subtract).
    placed: int = 0
    # The cards played so far, face up for everyone (seed: 棄牌堆 正面朝上), last on top.
    played: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Falling:
    """A piece that left the ship at ``left_ms``; catchable until ``until_ms``.

    ``bot_catch_ms``: when the active seat is a bot that will catch it, the moment it does.
    """

    piece: Piece
    left_ms: int
    until_ms: int
    bot_catch_ms: int | None = None


class _World:
    """The pymunk world after exactly ``calls``: shared by the states that have that history."""

    __slots__ = ("calls", "ship")

    def __init__(self, ship: Ship, calls: tuple[ShipCall, ...]) -> None:
        self.ship = ship
        self.calls = calls


@dataclass(eq=False)
class ShipLine:
    """The ship as the history of calls made on it (see the module doc).

    Change the ship only through this class's methods, which record each call; read it
    through :meth:`world` (never change what that returns).
    """

    seed: int
    wave_strength: float
    calls: tuple[ShipCall, ...] = ()

    def __post_init__(self) -> None:
        # Not a dataclass field: the fingerprint covers the history, not the cache.
        self._world: _World | None = None

    def clone(self) -> ShipLine:
        twin = ShipLine(self.seed, self.wave_strength, self.calls)
        twin._world = self._world
        return twin

    def world(self) -> Ship:
        """The ship after exactly this history (rebuilt by replay when another state has
        moved the shared world on)."""
        return self._box().ship

    def _box(self) -> _World:
        box = self._world
        if box is None or (box.calls is not self.calls and box.calls != self.calls):
            box = _World(self._build(), self.calls)
            self._world = box
        return box

    def _build(self) -> Ship:
        ship = Ship(wave_strength=self.wave_strength, seed=self.seed)
        for call in self.calls:
            _apply(ship, call)
        return ship

    def _record(self, box: _World, call: ShipCall) -> None:
        calls = self.calls
        if call[0] == "step" and calls and calls[-1][0] == "step":
            calls = (*calls[:-1], ("step", int(calls[-1][1]) + 1))
        else:
            calls = (*calls, call)
        self._set_calls(box, calls)

    def _set_calls(self, box: _World, calls: tuple[ShipCall, ...]) -> None:
        self.calls = calls
        box.calls = calls

    # ----------------------------------------------------------------------------------------
    # Changes (each recorded)

    def place(
        self, *, piece_id: int, owner: int, shape: str, area: int, x: float, angle: float
    ) -> str | None:
        """``Ship.place``: None when placed, else its refusal (and nothing changes)."""
        box = self._box()
        refusal = box.ship.place(
            piece_id=piece_id, owner=owner, shape=shape, area=area, x=x, angle=angle
        )
        if refusal is None:
            self._record(box, ("place", piece_id, owner, shape, area, x, angle))
        return refusal

    def roll(self, steps: int) -> None:
        box = self._box()
        box.ship.roll(steps)
        self._record(box, ("roll", steps))

    def step(self) -> list[int]:
        """One physics step; the pieces that left the ship during it."""
        box = self._box()
        box.ship.step()
        fresh = box.ship.off_ship()
        self._record(box, ("step", 1))
        return fresh

    def remove(self, piece_id: int) -> None:
        box = self._box()
        box.ship.remove(piece_id)
        self._record(box, ("remove", piece_id))

    def checkpoint(self, snapshot: Mapping[str, Any]) -> None:
        """Record ``snapshot`` (the world's own, JSON-ready) as a checkpoint."""
        box = self._box()
        box.ship.load(snapshot)  # changes nothing; keeps the world what its history says
        self._record(box, ("checkpoint", _canonical_json(snapshot)))

    def restore(self, snapshot: Mapping[str, Any]) -> None:
        """Make ``snapshot`` (a logged checkpoint) the checkpoint this history ends with:
        it takes the place of the one just recorded, or is added when there is none.

        Nothing changes when it is the one recorded (replay on the platform that played the
        game). Otherwise the recorded one was this world's own snapshot, so loading the new
        one over it gives the very world that replaying the new history builds.
        """
        call: ShipCall = ("checkpoint", _canonical_json(snapshot))
        calls = self.calls
        if calls and calls[-1] == call:
            return
        box = self._box()
        box.ship.load(snapshot)
        if calls and calls[-1][0] == "checkpoint":
            calls = calls[:-1]
        self._set_calls(box, (*calls, call))


def _canonical_json(value: Mapping[str, Any]) -> str:
    # Floats print exactly (shortest repr), so the text is the values, whatever the key order.
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _apply(ship: Ship, call: ShipCall) -> None:
    kind = call[0]
    if kind == "step":
        for _ in range(int(call[1])):
            ship.step()
            ship.off_ship()
    elif kind == "place":
        _kind, piece_id, owner, shape, area, x, angle = call
        refusal = ship.place(
            piece_id=int(piece_id),
            owner=int(owner),
            shape=str(shape),
            area=int(area),
            x=float(x),
            angle=float(angle),
        )
        assert refusal is None, refusal
    elif kind == "roll":
        ship.roll(int(call[1]))
    elif kind == "remove":
        ship.remove(int(call[1]))
    elif kind == "checkpoint":
        ship.load(json.loads(str(call[1])))
    else:  # pragma: no cover - histories are only written by ShipLine
        raise ValueError(f"not a ship call: {call!r}")


@dataclass(eq=False)
class State(TableState[Config, BotSkill]):
    """Everything about one table."""

    players: dict[int, Player]
    # Every piece of the game by id (never changes: pieces move between supplies and ship).
    cargo: dict[int, Piece]
    ship: ShipLine
    rounds_total: int
    phase: Phase = "choosing"
    round: int = 1
    # This round's secret picks; never shown to anyone else before all are in.
    chosen: dict[int, int] = field(default_factory=dict)
    revealed: dict[int, int] | None = None
    captain: int | None = None
    # Last round's captain: settles a tie for captain.
    previous_captain: int | None = None
    # Seats in the tie being decided (captain_tie: for captain; order_tie: still unordered).
    tied: list[int] = field(default_factory=list)
    # The captain's ordering decisions this round (the captain first), see rules.placing_order.
    order_choice: list[int] = field(default_factory=list)
    order: list[int] = field(default_factory=list)
    turn: int = -1  # index into ``order`` of the active seat; -1 before the first turn
    declared: int | None = None
    to_place: int = 0  # pieces the active seat still places this turn
    current: Piece | None = None  # the dropped piece the ship is settling with
    # Physics: stepping while ``physics``; ``sim_ms`` is the game time it has reached.
    physics: bool = False
    sim_ms: int = 0
    settle_limit_ms: int = 0
    falling: list[Falling] = field(default_factory=list)
    # When each bot that has something to decide does it.
    bot_due: dict[int, int] = field(default_factory=dict)
    # A placement ended at this game time: the ship's checkpoint is due (games.riff_raff.rules).
    checkpoint_ms: int | None = None
    winners: list[int] | None = None
    end_reason: EndReason | None = None

    def clone(self) -> State:
        """An independent copy: every mutable part copied, immutable values shared (the
        ship's history is immutable; its world is shared, see the module doc)."""
        return self.copied(
            players={seat: _copy_player(player) for seat, player in self.players.items()},
            ship=self.ship.clone(),
            chosen=dict(self.chosen),
            revealed=dict(self.revealed) if self.revealed is not None else None,
            tied=list(self.tied),
            order_choice=list(self.order_choice),
            order=list(self.order),
            falling=list(self.falling),
            bot_due=dict(self.bot_due),
            winners=list(self.winners) if self.winners is not None else None,
        )

    @property
    def active(self) -> int | None:
        """The seat whose turn it is (declaring, placing, and while its drop settles)."""
        if self.phase in ("declaring", "placing", "settling", "catching") and (
            0 <= self.turn < len(self.order)
        ):
            return self.order[self.turn]
        return None

    def area_of_turn(self) -> int | None:
        """The area the active seat places on: its revealed card."""
        seat = self.active
        if seat is None or self.revealed is None:
            return None
        return self.revealed[seat]


def _copy_player(player: Player) -> Player:
    return dataclasses.replace(
        player, cards=list(player.cards), supply=list(player.supply), played=list(player.played)
    )
