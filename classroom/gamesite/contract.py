"""What the site needs of a game: one ``GameSite`` per game, in ``classroom/gamesite/<slug>.py``.

Everything the pages know of one game lives in its site module; the rest of classroom/ asks
the registry (``classroom.gamesite.game_site``) and never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Seat
    from games.core import GameSpec

# The ways of practising a game (``GameSite.practice_settings``): alone, or with patient bots.
PRACTICE_SOLO: Final = "solo"
PRACTICE_WITH_BOTS: Final = "bots"

# Phases in which a table is between rounds (or done): no round is in play.
ROUND_BREAKS: Final = frozenset({"round_over", "game_over"})

# The partials a tile template defines (``{% partialdef <name> %}``), in order of the page.
TILE_PARTIALS: Final = (
    # Console: the status line of a live table that is not paused or between rounds.
    "status",
    # Console and projector: the live table drawn on a canvas (empty for other games).
    "canvas",
    # Console: the heading cells of the per-player number (and any more columns).
    "head",
    # Console: a player's number cells, matching ``head``.
    "cells",
    # Console and projector: a mark before a player's name.
    "mark",
    # Console: the title of one recent trial.
    "trial",
    # Projector, standings hidden: how far the table is.
    "progress",
    # Projector: what the per-player number is, for screen readers.
    "count",
)


class TabletLabels(Protocol):
    """The words and data a game's tablet page needs (its ``labels`` JSON)."""

    def __call__(self, *, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]: ...


class DemoSeed(Protocol):
    """A new class of ``teacher`` with a term of realistic demo trials of the game."""

    def __call__(
        self, *, teacher: User, students: int, sessions: int, trials_per_session: int, seed: int
    ) -> SchoolClass: ...


@dataclass(frozen=True)
class GameSite:
    """One game as the site shows it."""

    spec: GameSpec
    tablet_labels: TabletLabels
    # The name of a trial ``level`` this game writes, or None for a level it does not write.
    level_name: Callable[[str], str | None]
    # What each kind of trial the game records is called on teachers' pages.
    kind_names: Callable[[], Mapping[str, str]]
    # One rung of the game's adaptive ladder (a ``GameSpec.ladder`` step), named.
    step_label: Callable[[Mapping[str, Any]], str]
    # The ways the game can be practised, each with what practice changes from its defaults.
    practice_settings: Mapping[str, Mapping[str, object]]
    # The key of the per-player number in the engine's teacher view (cards, refill, cargo).
    count_field: str
    # The template with the game's tile partials (``TILE_PARTIALS``) for console and projector.
    tile_template: str
    # The measures the game offers teachers today (names of analytics measures).
    measures: tuple[str, ...]
    # A colour is the stimulus: trials on the colour-safe palette carry the accommodation.
    colour_stimulus: bool = False
    # Marks each colour with a shape too (static/js/colour_symbols.js).
    colour_symbols: bool = False
    # Records more than one kind of trial in a session; pages show each kind on its own.
    mixed_kinds: bool = False
    # Phases between rounds, when a "between rounds" leaderboard shows.
    round_breaks: frozenset[str] = ROUND_BREAKS
    # Games drawn live on a canvas: the scene data and the template with its ``assets`` and
    # ``canvas`` partials.
    watch_scene: Callable[[], dict[str, Any]] | None = None
    watch_template: str = ""
    # Demo trials for benchmarks and demos (``manage.py analytics_bench``), if the game has them.
    demo_seed: DemoSeed | None = None

    @property
    def slug(self) -> str:
        return self.spec.slug

    def tile_partials(self) -> dict[str, str]:
        return tile_partials(self.tile_template)


def tile_partials(template: str) -> dict[str, str]:
    """``{partial: "template#partial"}`` for ``{% include %}``."""
    return {name: f"{template}#{name}" for name in TILE_PARTIALS}
