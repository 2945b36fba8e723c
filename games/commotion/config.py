"""Commotion's session settings (RULES.md §2 "Difficulty") and its fixed timings.

The settings are the single source of truth for the teacher's form. ``refill_by_seat`` is
deliberately *not* a setting: it is how one table gives single students a smaller refill
pile (the site folds each seat's option into the table's Config), so it never appears in the
session form.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.settings import BOT_LEVEL_CHOICES, SettingError, setting, validate_settings
from games.engine.translation import gettext_noop

# A round opens with a countdown, then GO for everyone at once (the digital stand-in for the
# physical pass-the-deck shuffle before "GO").
COUNTDOWN_MS = 3000
# The round's scores stay on screen this long; then the next round's countdown starts by
# itself unless the game is over.
ROUND_OVER_MS = 8000

MIN_REFILL, MAX_REFILL = 5, 13


@dataclass(frozen=True)
class Config:
    refill_size: int = setting(
        13,
        label=gettext_noop("Refill pile"),
        help=gettext_noop(
            "Cards in each player's refill pile: 13 is the standard game; fewer makes a "
            "round shorter and easier."
        ),
        minimum=MIN_REFILL,
        maximum=MAX_REFILL,
    )
    stock_turn: int = setting(
        3,
        label=gettext_noop("Stock turns"),
        choices=(
            (3, gettext_noop("3 cards at a time (standard)")),
            (1, gettext_noop("1 card at a time (easier)")),
        ),
    )
    target_score: int = setting(
        25,
        label=gettext_noop("Target score"),
        help=gettext_noop("The game ends after the round in which someone reaches it."),
        minimum=5,
        maximum=300,
    )
    bot_speed: str = setting(
        "steady",
        label=gettext_noop("Bot speed"),
        choices=BOT_LEVEL_CHOICES,
    )
    # Not a setting (no form field): (seat, refill size) pairs overriding ``refill_size`` for
    # those seats, so a teacher can give one student a smaller pile.
    refill_by_seat: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        validate_settings(self)
        pairs = self.refill_by_seat
        if not isinstance(pairs, tuple):
            raise SettingError("refill_by_seat", gettext_noop("Must be a list of seat sizes."))
        seen: set[int] = set()
        for pair in pairs:
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise SettingError("refill_by_seat", gettext_noop("Must be a list of seat sizes."))
            seat, size = pair
            if any(isinstance(v, bool) or not isinstance(v, int) for v in (seat, size)):
                raise SettingError("refill_by_seat", gettext_noop("Must be whole numbers."))
            if seat in seen:
                raise SettingError("refill_by_seat", gettext_noop("A seat is listed twice."))
            seen.add(seat)
            if not MIN_REFILL <= size <= MAX_REFILL:
                raise SettingError(
                    "refill_by_seat",
                    gettext_noop("Must be between %(low)d and %(high)d."),
                    {"low": MIN_REFILL, "high": MAX_REFILL},
                )

    def refill_for(self, seat: int) -> int:
        """The refill pile size of ``seat``: its own size if it has one, else the table's."""
        for pair_seat, size in self.refill_by_seat:
            if pair_seat == seat:
                return size
        return self.refill_size
