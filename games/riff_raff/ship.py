"""Riff Raff's ship: a pymunk world the server steps in fixed ticks (RULES.md §3 "[digital]").

The ship is one dynamic body pinned at the centre of its hull's bottom (a pivot joint to the
static body), held upright by a damped rotary spring and, while a roll is on, rocked by a
sinusoidal wave torque. Cargo pieces are rigid bodies resting on the deck and yardarms by
friction alone. A piece that leaves the ship falls; once its centre is below ``SEA_LEVEL``
it is out of the simulation (it stays where it hit the water until ``remove()``).

Ship coordinates: origin at the pivot (the hull's centre bottom), x to the right, y up, one
unit ≈ 1 cm. World coordinates are the same frame with the ship upright: the pivot sits at
the world origin and the ship only turns about it.

Time advances only in ``step()``, by exactly ``STEP_MS``; nothing here reads a clock. The
only randomness is each roll's wave phase, drawn from the seed and the roll's number.

What is exact (tests/games/riff_raff/test_ship.py checks each):

* The same seed and the same calls give bit-identical frames and snapshots (pymunk runs
  single-threaded and everything is added in call order). ``copy()`` counts as a call: a
  world copied at the same steps continues identically.
* ``snapshot()`` holds every body's position, angle and velocities exactly, and
  ``restore()`` puts them back exactly. ``copy()`` and ``restore()`` do *not* carry pymunk's
  solver memory over exactly (pymunk keeps no record of the pivot joint's accumulated
  impulse, rebuilds polygons with their vertices in another order and builds a fresh
  collision tree; ``restore()`` also starts with no cached contact impulses). So the copy or
  restored world continues like the original only to within a small drift (about 0.01 cm
  and 0.001 rad over a roll of settled cargo), and a stack on the point of toppling can
  amplify that into a different outcome. To reproduce a game exactly, replay its calls.
* ``copy()`` keeps the contact cache (warm starting), so stacks stay as steady in a copy.
  ``restore()`` does not: a restored world is fine for going on once, but rebuilding from
  snapshots every step would let stacks sag and slide.
* ``load()`` puts a snapshot's values into the world in place (joints, contact cache and
  collision tree stay). Bodies already at their values are not touched, so loading the
  world's own snapshot changes nothing, bit for bit.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pymunk

from games.engine.translation import gettext_noop
from games.riff_raff.cargo import CARGO, make_shape, rotated_extent, rotated_width

if TYPE_CHECKING:
    from collections.abc import Mapping

STEP_MS = 16
DT = STEP_MS / 1000  # exactly 0.016 s: 62.5 steps a second
GRAVITY = 981.0  # cm/s²: a toy-sized ship under real gravity

# Hull: a trapezoid flaring out to the deck, so pieces sliding off the deck ends fall clear of
# the hull's sides into the sea.
DECK_Y = 24.0
DECK_HALF = 60.0
HULL_BOTTOM_HALF = 42.0
SEA_LEVEL = 4.0  # world y of the water line
MAST_HALF = 1.5
MAST_TOP = 146.0
# Yardarms, lowest first: (surface y, half length). Each one's two ends are areas.
YARDS = ((74.0, 42.0), (102.0, 32.0), (128.0, 22.0))
YARD_INNER = 6.0  # the stretch either side of the mast that belongs to no area
BEAM = 1.5  # half thickness of deck planks and yardarms (segment radius)
TOP_HEADROOM = 40.0  # how high pieces may be stacked above the top yardarm
SURFACE_FRICTION = 0.9
HULL_FRICTION = 0.5

# The ship's mass sits at the pivot (a ballast keel), so only the spring and the cargo decide
# which way it leans. The spring must beat a full, top-heavy load (32 pieces of about 3 at
# about 50 up: ~5e6) or the ship capsizes; one piece at a deck end tilts it ~0.7°.
SHIP_MASS = 400.0
SHIP_MOMENT = 1.0e6
SPRING_STIFFNESS = 1.2e7
# About 0.6 of critical damping: a swing or two after a roll, then still (~1.5 s).
SPRING_DAMPING = 4.2e6
# The wave: a torque of SPRING_STIFFNESS * WAVE_TILT * wave_strength, i.e. at full strength
# it alone would hold the ship at WAVE_TILT radians; it swings with WAVE_PERIOD_STEPS and
# fades in and out over WAVE_RAMP_STEPS so rolls start and end without a jolt.
WAVE_TILT = 0.3
WAVE_PERIOD_STEPS = 188  # ≈ 3 s
WAVE_RAMP_STEPS = 47  # ≈ 0.75 s
SOLVER_ITERATIONS = 30  # stacks need more than pymunk's default 10

# moving(): below these for STILL_STEPS steps in a row, the caller may stop stepping and
# streaming. One still step is not enough: a ship that has just been loaded starts to lean
# from rest, and a piece at the top of a hop is momentarily still.
SHIP_SPIN_LIMIT = 0.01  # rad/s (0.6 cm/s at the deck ends)
PIECE_SPEED_LIMIT = 1.0  # cm/s
PIECE_SPIN_LIMIT = 0.05  # rad/s
STILL_STEPS = 15  # 0.24 s

DROP_GAP = 0.5  # a released piece starts this far above whatever it would rest on
DROP_SEARCH = 0.5  # how far apart the heights tried for a release are


@dataclass(frozen=True)
class DropZone:
    """Where a piece may be released over ``area``: its centre's x (ship coordinates) must lie
    in ``[x_min, x_max]``; ``y`` is the area's surface."""

    area: int
    x_min: float
    x_max: float
    y: float


@dataclass(frozen=True)
class PieceFrame:
    """A piece for drawing: its centre and angle in world coordinates."""

    piece_id: int
    x: float
    y: float
    angle: float


@dataclass(frozen=True)
class _Area:
    zone: DropZone
    segment: tuple[float, float]  # the surface's x extent
    ceiling: float  # pieces released here must stay below this y
    # Seed §3(1)B "可懸空, 但不可進入其它區域": the x a released piece may reach. Out over the
    # sea (beyond the deck's or a yardarm's end) is fine; into the next area is not, nor
    # past the mast.
    band: tuple[float, float] = (-math.inf, math.inf)


# A drag may be released a little below the area's surface: the tablet draws each area's
# number just under it (on the hull, under the yardarm), and a child drops onto the number.
RELEASE_BELOW = 10.0


def _areas() -> dict[int, _Area]:
    areas: dict[int, _Area] = {}
    lowest_yard = YARDS[0][0] - 2 * BEAM
    deck = ((-60.0, -30.0, -60.0, -31.0), (-30.0, 0.0, -29.0, -MAST_HALF - 1.5))
    for number, (seg_a, seg_b, zone_a, zone_b) in enumerate(deck, start=1):
        # Areas 3 and 4 mirror 2 and 1.
        for n, sign in ((number, 1.0), (5 - number, -1.0)):
            lo, hi = sorted((sign * zone_a, sign * zone_b))
            seg = sorted((sign * seg_a, sign * seg_b))
            band = (
                seg[0] if seg[0] > -DECK_HALF else -math.inf,
                seg[1] if seg[1] < DECK_HALF else math.inf,
            )
            areas[n] = _Area(DropZone(n, lo, hi, DECK_Y), (seg[0], seg[1]), lowest_yard, band)
    for level, (y, half) in enumerate(YARDS):
        above = YARDS[level + 1][0] - 2 * BEAM if level + 1 < len(YARDS) else y + TOP_HEADROOM
        left, right = 5 + 2 * level, 6 + 2 * level
        areas[left] = _Area(
            DropZone(left, -half, -YARD_INNER, y),
            (-half, -YARD_INNER),
            above,
            (-math.inf, -MAST_HALF),
        )
        areas[right] = _Area(
            DropZone(right, YARD_INNER, half, y),
            (YARD_INNER, half),
            above,
            (MAST_HALF, math.inf),
        )
    return dict(sorted(areas.items()))


AREAS = _areas()
HULL = (
    (-HULL_BOTTOM_HALF, 0.0),
    (HULL_BOTTOM_HALF, 0.0),
    (DECK_HALF, DECK_Y),
    (-DECK_HALF, DECK_Y),
)


INTO_ANOTHER_AREA = gettext_noop("Cargo may hang over the edge but not into another area.")


def within_band(area: int, shape: str, x: float, angle: float) -> bool:
    """The whole piece, centred at ship x ``x`` and turned ``angle``, stays out of every other
    area (seed §3(1)B); the drop point alone is not enough (a plank is 36 cm long)."""
    left, right = rotated_width(shape, angle)
    lo, hi = AREAS[area].band
    return lo <= x + left and x + right <= hi


def release_height_ok(area: int, y: float) -> bool:
    """A release at ship height ``y`` is over ``area``: from just below its surface up to
    its ceiling (the yardarm above, or the headroom over the top one). Areas 5, 7 and 9
    share x ranges, so the height tells them apart."""
    spec = AREAS[area]
    return spec.zone.y - RELEASE_BELOW <= y <= spec.ceiling


def ship_outline() -> dict[str, Any]:
    """JSON-ready drawing data in ship coordinates (the client turns it by the ship's angle)."""
    return {
        "hull": [list(p) for p in HULL],
        "mast": [[-MAST_HALF, DECK_Y], [MAST_HALF, MAST_TOP]],
        "yards": [[-half, y - BEAM, half, y - BEAM, BEAM] for y, half in YARDS],
        "areas": {str(n): [a.zone.x_min, a.zone.x_max, a.zone.y] for n, a in AREAS.items()},
        # Each area's surface extent and ceiling, for drawing the numbered areas.
        "area_boxes": {
            str(n): [a.segment[0], a.segment[1], a.zone.y, a.ceiling] for n, a in AREAS.items()
        },
        "sea_level": SEA_LEVEL,
    }


@dataclass
class _Piece:
    owner: int
    shape_name: str
    body: pymunk.Body
    shape: pymunk.Shape
    left: bool = False  # has left the ship
    reported: bool = False  # off_ship() has returned it
    sunk: bool = False  # left the ship and reached the sea: taken out of the simulation


class Ship:
    """The ship, its cargo and the sea (see the module doc)."""

    def __init__(self, *, wave_strength: float, seed: int) -> None:
        if not 0.0 <= wave_strength <= 1.0:
            raise ValueError("wave_strength must be within 0..1")
        self._wave_strength = wave_strength
        self._seed = seed
        self._steps = 0
        self._rolls = 0  # rolls started so far: numbers each roll's wave phase
        self._roll_length = 0
        self._roll_step = 0  # steps into the current roll; rolling while < _roll_length
        self._roll_phase = 0.0
        self._still_steps = STILL_STEPS  # consecutive steps with nothing above the limits
        self._pieces: dict[int, _Piece] = {}

        self._space = pymunk.Space()
        self._space.gravity = (0.0, -GRAVITY)
        self._space.iterations = SOLVER_ITERATIONS
        self._body = pymunk.Body(SHIP_MASS, SHIP_MOMENT)
        self._space.add(self._body)
        self._space.add(*self._ship_shapes())
        static = self._space.static_body
        self._space.add(
            pymunk.PivotJoint(static, self._body, (0.0, 0.0), (0.0, 0.0)),
            pymunk.DampedRotarySpring(self._body, static, 0.0, SPRING_STIFFNESS, SPRING_DAMPING),
        )

    def _ship_shapes(self) -> list[pymunk.Shape]:
        # No shape has mass: the body's own mass and moment stand for hull, mast and ballast.
        body = self._body
        hull = pymunk.Poly(body, HULL)
        hull.friction = HULL_FRICTION
        mast = pymunk.Poly(
            body,
            (
                (-MAST_HALF, DECK_Y),
                (MAST_HALF, DECK_Y),
                (MAST_HALF, MAST_TOP),
                (-MAST_HALF, MAST_TOP),
            ),
        )
        mast.friction = HULL_FRICTION
        shapes: list[pymunk.Shape] = [hull, mast]
        for area in AREAS.values():
            y = area.zone.y - BEAM
            shapes.append(pymunk.Segment(body, (area.segment[0], y), (area.segment[1], y), BEAM))
        for y, _half in YARDS:
            shapes.append(
                pymunk.Segment(body, (-YARD_INNER, y - BEAM), (YARD_INNER, y - BEAM), BEAM)
            )
        for shape in shapes[2:]:
            shape.friction = SURFACE_FRICTION
        return shapes

    # ----------------------------------------------------------------------------------------
    # Placing and removing

    def drop_zone(self, area: int) -> DropZone:
        """Where a piece may be released over ``area`` (1 to 10; ValueError for any other)."""
        if area not in AREAS:
            raise ValueError(f"no area {area}")
        return AREAS[area].zone

    def place(
        self, *, piece_id: int, owner: int, shape: str, area: int, x: float, angle: float
    ) -> str | None:
        """Release a piece over ``area`` at ship x ``x``, turned ``angle`` radians from the deck.

        It starts at rest just above whatever lies below it there (the area's surface, or
        pieces already on it), at the ship's current angle. Returns None when placed, else a
        readable refusal and nothing changes.
        """
        if area not in AREAS:
            return gettext_noop("There is no such area on the ship.")
        if shape not in CARGO:
            return gettext_noop("There is no such cargo piece.")
        if piece_id in self._pieces:
            return gettext_noop("That piece is already on board.")
        zone = AREAS[area].zone
        if not math.isfinite(angle) or not zone.x_min <= x <= zone.x_max:
            return gettext_noop("Drop the piece over its area.")
        if not within_band(area, shape, x, angle):
            return INTO_ANOTHER_AREA
        body = pymunk.Body()
        piece_shape = make_shape(body, shape)
        body.angle = self._body.angle + angle
        y = self._drop_height(body, piece_shape, shape, AREAS[area], x, angle)
        if y is None:
            return gettext_noop("There is no room to drop the piece there.")
        body.position = self._body.local_to_world((x, y))
        self._space.add(body, piece_shape)
        self._pieces[piece_id] = _Piece(owner, shape, body, piece_shape)
        self._still_steps = 0
        return None

    def _drop_height(
        self, body: pymunk.Body, shape: pymunk.Shape, name: str, area: _Area, x: float, angle: float
    ) -> float | None:
        """The ship y to release a piece at: as if lowered from the area's ceiling until it
        almost touches something (so never into a gap under an overhang), or None when it
        does not even fit at the top."""
        low, high = rotated_extent(name, angle)
        floor = area.zone.y - low + DROP_GAP
        y = area.ceiling - high
        y -= DROP_GAP  # clear of the ceiling itself (a yardarm's underside)
        if y < floor or self._overlaps(body, shape, x, y):
            return None
        while y - DROP_SEARCH >= floor and not self._overlaps(body, shape, x, y - DROP_SEARCH):
            y -= DROP_SEARCH
        if y - DROP_SEARCH < floor and not self._overlaps(body, shape, x, floor):
            y = floor  # nothing below but the surface: the last part of the way
        return y

    def _overlaps(self, body: pymunk.Body, shape: pymunk.Shape, x: float, y: float) -> bool:
        body.position = self._body.local_to_world((x, y))
        shape.cache_bb()
        return bool(self._space.shape_query(shape))

    def remove(self, piece_id: int) -> None:
        """Take a piece out of the world (caught, or back to a player's supply)."""
        piece = self._pieces.pop(piece_id)
        if not piece.sunk:
            self._space.remove(piece.body, piece.shape)

    # ----------------------------------------------------------------------------------------
    # Time

    def roll(self, steps: int) -> None:
        """Let the wave rock the ship for the next ``steps`` steps (a new roll replaces one
        still going)."""
        if steps < 0:
            raise ValueError("steps must not be negative")
        self._roll_length = steps
        self._roll_step = 0
        # A string seed hashes the same in every process (unlike hash() of a tuple).
        rng = random.Random(f"riff-raff-wave:{self._seed}:{self._rolls}")
        self._roll_phase = rng.uniform(0.0, 2 * math.pi)
        self._rolls += 1

    @property
    def rolling(self) -> bool:
        return self._roll_step < self._roll_length

    def _wave_torque(self) -> float:
        k, length = self._roll_step, self._roll_length
        ramp = min(WAVE_RAMP_STEPS, length / 2)
        fade = min(1.0, min(k, length - k) / ramp)
        envelope = fade * fade * (3 - 2 * fade)  # smoothstep
        swing = math.sin(2 * math.pi * k / WAVE_PERIOD_STEPS + self._roll_phase)
        return SPRING_STIFFNESS * WAVE_TILT * self._wave_strength * envelope * swing

    def step(self) -> None:
        """Advance the world by exactly one step of ``STEP_MS``."""
        if self.rolling:
            self._body.torque = self._wave_torque()
            self._roll_step += 1
        self._space.step(DT)
        self._steps += 1
        self._still_steps = 0 if self._stirring() else self._still_steps + 1
        for piece in self._pieces.values():
            if piece.sunk:
                continue
            if not piece.left and self._has_left(piece.body):
                piece.left = True
            if piece.left and piece.body.position.y < SEA_LEVEL:
                # Sunk: it floats where it hit the water and no longer takes part.
                piece.sunk = True
                self._space.remove(piece.body, piece.shape)

    @property
    def steps(self) -> int:
        """Steps taken so far."""
        return self._steps

    def moving(self) -> bool:
        """Whether a roll is on, or anything has moved noticeably in the last STILL_STEPS
        steps (a piece placed since counts as moving). When False, stepping on changes
        nothing anyone could see, so the caller may stop stepping and streaming."""
        return self.rolling or self._still_steps < STILL_STEPS

    def _stirring(self) -> bool:
        if self.rolling or abs(self._body.angular_velocity) > SHIP_SPIN_LIMIT:
            return True
        return any(
            not p.sunk
            and (
                p.body.velocity.length > PIECE_SPEED_LIMIT
                or abs(p.body.angular_velocity) > PIECE_SPIN_LIMIT
            )
            for p in self._pieces.values()
        )

    # ----------------------------------------------------------------------------------------
    # Where the pieces are

    def _has_left(self, body: pymunk.Body) -> bool:
        x, y = self._body.world_to_local(body.position)
        return y < 0.0 or (y < DECK_Y and abs(x) > DECK_HALF)

    def off_ship(self) -> list[int]:
        """Pieces that have left the ship since the last call (each is reported once)."""
        fresh = [i for i, p in self._pieces.items() if p.left and not p.reported]
        for piece_id in fresh:
            self._pieces[piece_id].reported = True
        return fresh

    def in_sea(self, piece_id: int) -> bool:
        """Whether the piece has fallen off the ship and its centre has gone below SEA_LEVEL."""
        return self._pieces[piece_id].sunk

    def pieces(self) -> list[int]:
        """Every piece in the world (on the ship, falling, or in the sea), in placing order."""
        return list(self._pieces)

    def owner_of(self, piece_id: int) -> int:
        return self._pieces[piece_id].owner

    def shape_of(self, piece_id: int) -> str:
        return self._pieces[piece_id].shape_name

    def area_of(self, piece_id: int) -> int | None:
        """The area the piece rests on or over, or None once it has left the ship.

        A piece over a yardarm's stretch at or above the yardarm belongs to that yardarm's
        end on its side of the mast; anything else on board to the deck area below it.
        """
        piece = self._pieces[piece_id]
        if piece.left:
            return None
        x, y = self._body.world_to_local(piece.body.position)
        for level in reversed(range(len(YARDS))):
            yard_y, half = YARDS[level]
            if y >= yard_y - BEAM and abs(x) <= half:
                return 5 + 2 * level + (x >= 0)
        return 1 + sum(x >= edge for edge in (-30.0, 0.0, 30.0))

    def pieces_in_area(self, area: int) -> list[int]:
        """Pieces resting on or over ``area`` (see ``area_of``)."""
        return [i for i in self._pieces if self.area_of(i) == area]

    # ----------------------------------------------------------------------------------------
    # Streaming and saving

    def piece_frames(self) -> list[PieceFrame]:
        """Every piece's centre and angle in world coordinates, unrounded."""
        return [
            PieceFrame(i, p.body.position.x, p.body.position.y, p.body.angle)
            for i, p in self._pieces.items()
        ]

    def frame(self) -> dict[str, Any]:
        """What clients draw, compact and JSON-ready: the ship and every piece as
        ``[x, y, angle]`` / ``[id, x, y, angle]`` in world coordinates (0.1 cm, 0.001 rad)."""
        ship = self._body
        return {
            "ship": [_r(ship.position.x, 1), _r(ship.position.y, 1), _r(ship.angle, 3)],
            "pieces": [
                [f.piece_id, _r(f.x, 1), _r(f.y, 1), _r(f.angle, 3)] for f in self.piece_frames()
            ],
        }

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to rebuild the world, JSON-ready (floats kept exact)."""
        return {
            "steps": self._steps,
            "rolls": self._rolls,
            "roll_length": self._roll_length,
            "roll_step": self._roll_step,
            "roll_phase": self._roll_phase,
            "still_steps": self._still_steps,
            "ship": _body_state(self._body),
            "pieces": [
                {
                    "id": i,
                    "owner": p.owner,
                    "shape": p.shape_name,
                    "left": p.left,
                    "reported": p.reported,
                    "sunk": p.sunk,
                    **_body_state(p.body),
                }
                for i, p in self._pieces.items()
            ],
        }

    @classmethod
    def restore(cls, snapshot: Mapping[str, Any], *, wave_strength: float, seed: int) -> Ship:
        """A world rebuilt from ``snapshot()`` (see the module doc for how exact it is)."""
        ship = cls(wave_strength=wave_strength, seed=seed)
        ship._steps = int(snapshot["steps"])
        ship._rolls = int(snapshot["rolls"])
        ship._roll_length = int(snapshot["roll_length"])
        ship._roll_step = int(snapshot["roll_step"])
        ship._roll_phase = float(snapshot["roll_phase"])
        ship._still_steps = int(snapshot["still_steps"])
        _set_body_state(ship._body, snapshot["ship"])
        for data in snapshot["pieces"]:
            body = pymunk.Body()
            shape = make_shape(body, str(data["shape"]))
            _set_body_state(body, data)
            piece = _Piece(int(data["owner"]), str(data["shape"]), body, shape)
            piece.left, piece.reported = bool(data["left"]), bool(data["reported"])
            piece.sunk = bool(data["sunk"])
            if not piece.sunk:
                ship._space.add(body, shape)
            ship._pieces[int(data["id"])] = piece
        return ship

    def load(self, snapshot: Mapping[str, Any]) -> None:
        """Set this world's counters and bodies to ``snapshot`` (a ``snapshot()`` of this
        world, perhaps computed on another platform), in place (see the module doc).

        Only what floats may make differ is set: the counters and every body's position,
        angle and velocities. Which pieces exist and which have left the ship is the
        caller's history; a piece only one side knows of is left alone. ValueError (and no
        change) for a malformed snapshot.
        """
        try:
            counters = tuple(
                int(snapshot[key]) for key in ("steps", "rolls", "roll_length", "roll_step")
            )
            roll_phase = float(snapshot["roll_phase"])
            still_steps = int(snapshot["still_steps"])
            ship = _parse_body_state(snapshot["ship"])
            pieces = {int(data["id"]): _parse_body_state(data) for data in snapshot["pieces"]}
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise ValueError(f"not a ship snapshot: {error!r}") from error
        self._steps, self._rolls, self._roll_length, self._roll_step = counters
        self._roll_phase = roll_phase
        self._still_steps = still_steps
        self._load_body(self._body, ship)
        for piece_id, wanted in pieces.items():
            piece = self._pieces.get(piece_id)
            if piece is not None:
                self._load_body(piece.body, wanted, indexed=not piece.sunk)

    def _load_body(self, body: pymunk.Body, wanted: _BodyState, *, indexed: bool = True) -> None:
        if _body_state(body) == wanted:
            return  # setting it again would still count as a change to pymunk's bookkeeping
        _set_body_state(body, wanted)
        if indexed:
            # Queries before the next step (a drop's room check) must see the new place.
            self._space.reindex_shapes_for_body(body)

    def copy(self) -> Ship:
        """An independent copy (pymunk's own deep copy: it keeps the contact cache, but see
        the module doc for how closely it follows the original)."""
        return copy.deepcopy(self)


def _r(value: float, digits: int) -> float:
    # + 0.0 turns -0.0 into 0.0, which JSON would otherwise spell "-0.0".
    return round(value, digits) + 0.0


_BodyState = dict[str, Any]


def _body_state(body: pymunk.Body) -> _BodyState:
    return {
        "position": list(body.position),
        "angle": body.angle,
        "velocity": list(body.velocity),
        "angular_velocity": body.angular_velocity,
    }


def _parse_body_state(data: Mapping[str, Any]) -> _BodyState:
    return {
        "position": [float(data["position"][0]), float(data["position"][1])],
        "angle": float(data["angle"]),
        "velocity": [float(data["velocity"][0]), float(data["velocity"][1])],
        "angular_velocity": float(data["angular_velocity"]),
    }


def _set_body_state(body: pymunk.Body, data: Mapping[str, Any]) -> None:
    # Angle first: setting the position places the centre of gravity by the current angle
    # (a keg's is a hair off its origin), so the position read back is then the one set.
    body.angle = float(data["angle"])
    body.position = (float(data["position"][0]), float(data["position"][1]))
    body.velocity = (float(data["velocity"][0]), float(data["velocity"][1]))
    body.angular_velocity = float(data["angular_velocity"])
