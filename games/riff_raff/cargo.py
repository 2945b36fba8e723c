"""Riff Raff's cargo pieces: their shapes, masses and frictions (RULES.md §3 "Parts").

Units match the ship (1 unit ≈ 1 cm, mass in arbitrary units). Every outline is centred on
its centre of mass, so a piece's body position *is* its centre and clients can draw the
outline around the streamed ``(x, y, angle)`` directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pymunk

if TYPE_CHECKING:
    from collections.abc import Sequence

Point = tuple[float, float]


@dataclass(frozen=True)
class Cargo:
    """One kind of piece: a convex outline (rounded by ``radius``) or, with no vertices, a disc."""

    name: str
    vertices: tuple[Point, ...]
    radius: float
    mass: float
    friction: float


def _box(width: float, height: float) -> tuple[Point, ...]:
    w, h = width / 2, height / 2
    return ((-w, -h), (w, -h), (w, h), (-w, h))


def _octagon(radius: float) -> tuple[Point, ...]:
    # Flat side down (rotated by half a step), so a keg stands rather than balancing on a corner.
    return tuple(
        (radius * math.cos((k + 0.5) * math.pi / 4), radius * math.sin((k + 0.5) * math.pi / 4))
        for k in range(8)
    )


# A rounded outline's true size is its vertices plus ``radius`` all round.
CARGO: dict[str, Cargo] = {
    cargo.name: cargo
    for cargo in (
        Cargo("crate", _box(12, 12), 0.0, 3.0, 0.8),
        # Stood on end: a barrel on its side would roll off at the slightest tilt.
        Cargo("barrel", _box(7, 11), 1.5, 3.5, 0.7),
        # Soft and grippy, wide and low: the stable piece.
        Cargo("sack", ((-9, 0), (-6, -4), (6, -4), (9, 0), (6, 4), (-6, 4)), 1.5, 2.5, 1.0),
        Cargo("plank", _box(36, 3), 0.0, 2.0, 0.8),
        # Eight facets: it stands, but tips over and tumbles once the deck leans far enough.
        Cargo("keg", _octagon(6.0), 0.5, 2.5, 0.7),
    )
}

SHAPES: tuple[str, ...] = tuple(CARGO)


def make_shape(body: pymunk.Body, name: str) -> pymunk.Shape:
    """The collision shape of a ``name`` piece on ``body`` (which gets its mass from it)."""
    cargo = CARGO[name]
    shape = pymunk.Poly(body, cargo.vertices, radius=cargo.radius)
    shape.mass = cargo.mass
    shape.friction = cargo.friction
    return shape


def rotated_extent(name: str, angle: float) -> tuple[float, float]:
    """The lowest and highest y of a ``name`` piece centred at 0 and turned by ``angle``."""
    cargo = CARGO[name]
    cos, sin = math.cos(angle), math.sin(angle)
    ys: Sequence[float] = [x * sin + y * cos for x, y in cargo.vertices]
    return min(ys) - cargo.radius, max(ys) + cargo.radius


def rotated_width(name: str, angle: float) -> tuple[float, float]:
    """The leftmost and rightmost x of a ``name`` piece centred at 0 and turned by ``angle``."""
    cargo = CARGO[name]
    cos, sin = math.cos(angle), math.sin(angle)
    xs: Sequence[float] = [x * cos - y * sin for x, y in cargo.vertices]
    return min(xs) - cargo.radius, max(xs) + cargo.radius


def outline(name: str) -> dict[str, object]:
    """JSON-ready drawing data: the outline around the piece's centre and its corner radius."""
    cargo = CARGO[name]
    return {"vertices": [list(v) for v in cargo.vertices], "radius": cargo.radius}
