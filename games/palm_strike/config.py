"""Palm Strike's session settings (RULES.md §1): the single source of truth for the form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.engine.extra_time import SeatScales, scale_for, scales_check
from games.engine.settings import SettingError, response_window, setting, validate_settings
from games.engine.translation import gettext_noop

Level = Literal["beginner", "intermediate", "advanced"]
FlipPacing = Literal["tap", "auto"]
SlapScope = Literal["any", "own", "others", "neighbours"]
TeamEnd = Literal["centre_empty", "first_to_five", "all_claimed"]


@dataclass(frozen=True)
class Config:
    level: Level = setting(
        "beginner",
        label=gettext_noop("Matching level"),
        help=gettext_noop(
            "When a child's card (a picture on a colour) matches the big card flipped in the "
            "middle (a colour word on a colour): each picture below is a match at its level."
        ),
        choices=(
            ("beginner", gettext_noop("Beginner")),
            ("intermediate", gettext_noop("Intermediate")),
            ("advanced", gettext_noop("Advanced")),
        ),
    )
    cards_per_player: int = setting(
        2,
        label=gettext_noop("Cards per player"),
        choices=((2, gettext_noop("2 cards")), (3, gettext_noop("3 cards"))),
    )
    response_window_s: float = response_window(
        label=gettext_noop("Response window (seconds)"),
        help=gettext_noop("How long a flipped card stays open for slaps."),
    )
    flip_pacing: FlipPacing = setting(
        "tap",
        label=gettext_noop("Flip pacing"),
        choices=(
            ("tap", gettext_noop("The active player taps the deck")),
            ("auto", gettext_noop("Auto-flip at a steady pace")),
        ),
    )
    auto_flip_s: float = setting(
        5.0,
        label=gettext_noop("Auto-flip every (seconds)"),
        help=gettext_noop("Used with auto-flip; must be longer than the response window."),
        shown_when=("flip_pacing", "auto"),
        minimum=2.0,
        maximum=15.0,
        step=0.5,
    )
    slap_scope: SlapScope = setting(
        "any",
        label=gettext_noop("Slap scope"),
        choices=(
            ("any", gettext_noop("Any match on the table")),
            ("own", gettext_noop("A: only matches with your own cards")),
            ("others", gettext_noop("B: only matches with other players' cards")),
            ("neighbours", gettext_noop("C: only matches with your left or right neighbour")),
        ),
    )
    deck_swap: bool = setting(
        False,
        label=gettext_noop("Swap the cards"),
        help=gettext_noop(
            "The children hold colour-word cards and picture cards are flipped in the middle. "
            "What matches stays the same."
        ),
    )
    points_target: int = setting(
        20,
        label=gettext_noop("Points target"),
        help=gettext_noop(
            "0 plays a single round. Otherwise the round winner scores the cards left in "
            "front of everyone else, and the first to reach the target wins."
        ),
        minimum=0,
        maximum=100,
    )
    team_mode: bool = setting(
        False,
        label=gettext_noop("Team mode (whole class)"),
        help=gettext_noop(
            "Picture cards lie in the middle; the first to tap the big card and a matching "
            "picture card claims it. The whole class plays at one table."
        ),
    )
    team_end: TeamEnd = setting(
        "centre_empty",
        label=gettext_noop("Team mode ends"),
        shown_when=("team_mode", True),
        choices=(
            ("centre_empty", gettext_noop("A: when the centre is empty (no refill)")),
            ("first_to_five", gettext_noop("B: first to 5 cards (centre refilled)")),
            ("all_claimed", gettext_noop("C: when all 30 cards are claimed (refilled)")),
        ),
    )
    centre_cards: int = setting(
        8,
        label=gettext_noop("Centre cards in team mode"),
        shown_when=("team_mode", True),
        minimum=6,
        maximum=10,
    )
    grace_ms: int = setting(
        150,
        label=gettext_noop("Slap grace window (ms)"),
        help=gettext_noop(
            "Slaps that reach the server this soon after the first one still compete on "
            "measured reaction time, so slower Wi-Fi is not punished."
        ),
        minimum=0,
        maximum=500,
    )
    # Not a setting (no form field): (seat, scale) pairs giving those seats a response
    # window ``scale`` times the table's (extra time, games.engine.extra_time); folded in by
    # the spec's ``table_config`` from the table's roster.
    window_scale_by_seat: SeatScales = ()

    def __post_init__(self) -> None:
        validate_settings(self)
        scales_check("window_scale_by_seat", self.window_scale_by_seat)
        if self.flip_pacing == "auto" and self.auto_flip_s <= self.response_window_s:
            raise SettingError(
                "auto_flip_s", gettext_noop("Must be longer than the response window.")
            )

    def window_ms_for(self, seat: int | None) -> int:
        """How long a flipped card stays open for ``seat``'s slap (None: the table's window)."""
        return round(self.response_window_s * 1000 * scale_for(self.window_scale_by_seat, seat))
