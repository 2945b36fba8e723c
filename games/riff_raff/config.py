"""Riff Raff's session settings (RULES.md §3 "[digital] difficulty") and its fixed timings.

The settings are the single source of truth for the teacher's form: wave strength, catch
window, cargo per player, cargo shapes and how well the computer players play.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.extra_time import SeatScales, scale_for, scales_check
from games.engine.settings import BOT_LEVEL_CHOICES, response_window, setting, validate_settings
from games.engine.translation import gettext_noop
from games.riff_raff.cargo import SHAPES

# Rounds of a game (RULES.md §3 "A round (up to 10)"); the two-player variant plays two runs
# of ten, everybody taking their ten cards back in between.
ROUNDS = 10
TWO_PLAYER_ROUNDS = 20
CARDS = tuple(range(1, 11))
# Areas 5-10 (the yardarms) ask for a declaration of 1 or 2 pieces when they hold cargo.
DECLARE_FROM_AREA = 5
# The two-player variant doubles the cargo (8 → 16), never beyond this.
TWO_PLAYER_MAX_PIECES = 16

# After the wave's roll, the ship gets this long to come to rest before the engine calls it
# still anyway (a safety net: a creeping stack must not hold a table up for ever).
MAX_SETTLE_MS = 12_000

# Cargo shape sets the teacher can choose from (names from games.riff_raff.cargo).
SHAPE_SETS: dict[str, tuple[str, ...]] = {
    "mixed": SHAPES,
    "boxes": tuple(name for name in SHAPES if name in ("crate", "sack")),
}


@dataclass(frozen=True)
class Config:
    wave_strength: float = setting(
        0.4,
        label=gettext_noop("Wave strength"),
        help=gettext_noop(
            "How hard the sea rocks the ship after every drop: 0 is a calm sea, 1 a storm."
        ),
        minimum=0.0,
        maximum=1.0,
        step=0.1,
    )
    catch_window_s: float = response_window(
        label=gettext_noop("Catch window (seconds)"),
        help=gettext_noop("How long cargo that falls off the ship can still be caught."),
    )
    pieces_per_player: int = setting(
        8,
        label=gettext_noop("Cargo pieces per player"),
        help=gettext_noop(
            "With two players each gets twice as many, at most 16 (the two-player variant)."
        ),
        minimum=4,
        maximum=16,
    )
    piece_shapes: str = setting(
        "mixed",
        label=gettext_noop("Cargo shapes"),
        choices=(
            ("mixed", gettext_noop("Mixed: crates, barrels, sacks, planks and kegs")),
            ("boxes", gettext_noop("Crates and sacks only (steadier)")),
        ),
    )
    bot_skill: str = setting(
        "steady",
        label=gettext_noop("Bot skill"),
        help=gettext_noop("How well computer players aim and catch."),
        choices=BOT_LEVEL_CHOICES,
    )

    first_captain: int = setting(
        1,
        label=gettext_noop("First captain (place at the table)"),
        help=gettext_noop(
            "The game's rules make the oldest player captain before round 1: they settle a "
            "tie for captain in round 1. 1 is the first seat at the table."
        ),
        minimum=1,
        maximum=4,
    )

    # Not a setting (no form field): (seat, scale) pairs giving those seats a catch window
    # ``scale`` times the table's (extra time, games.engine.extra_time); folded in by the
    # spec's ``table_config`` from the table's roster. Only the active seat catches, so a
    # longer window of one seat's never shortens or lengthens anyone else's.
    catch_scale_by_seat: SeatScales = ()

    def __post_init__(self) -> None:
        validate_settings(self)
        scales_check("catch_scale_by_seat", self.catch_scale_by_seat)

    @property
    def catch_window_ms(self) -> int:
        return round(self.catch_window_s * 1000)

    def catch_window_ms_for(self, seat: int) -> int:
        """How long ``seat``'s falling cargo can be caught: the table's window, or its own."""
        return round(self.catch_window_s * 1000 * scale_for(self.catch_scale_by_seat, seat))

    @property
    def shapes(self) -> tuple[str, ...]:
        """The cargo shapes in play, in the order each player's pieces cycle through them."""
        return SHAPE_SETS[self.piece_shapes]

    def pieces_for(self, players: int) -> int:
        """Cargo per player at a table of ``players``: doubled for two (RULES.md §3)."""
        if players == 2:
            return max(
                self.pieces_per_player, min(2 * self.pieces_per_player, TWO_PLAYER_MAX_PIECES)
            )
        return self.pieces_per_player

    @staticmethod
    def rounds_for(players: int) -> int:
        return TWO_PLAYER_ROUNDS if players == 2 else ROUNDS
