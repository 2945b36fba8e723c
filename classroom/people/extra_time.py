"""Who plays with extra time, and how their trials say so.

The teacher sets it per child on the class page (``Student.extra_time``). When a table's seats
are fixed the choice goes into the child's roster entry (``games.engine.extra_time.ROSTER_KEY``),
so a replayed table keeps the windows it was dealt with; the game folds it into its Config.
Every trial of that seat carries the mark in its data under ``TRIAL_KEY``, which reports,
exports and the school's norms read.

What extra time means in each game is its site's to say (``GameSite.extra_time_window``;
docs/measures.md, "Extra time"): in a game whose engine takes a response window per seat, the
child's own window is 1.5 or 2 times the table's; in a game with no window to lengthen (a race
for a shared pile is the game), any extra time means no speed scoring, and the trials say
"untimed". "No speed scoring" plays with the x2 window where there is one; the child's speed
measures are shown as not scored.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from classroom.gamesite import game_sites
from games.engine.extra_time import SCALES, UNTIMED, X1_5, X2

TRIAL_KEY = "extra_time"
WINDOWED_GAMES = frozenset(site.slug for site in game_sites() if site.extra_time_window)


def trial_extra_time(*, game: str, choice: str) -> str | None:
    """The mark a trial of ``game`` carries for a child with extra time ``choice``
    ("x1.5", "x2", "untimed"), or None for none."""
    if choice not in SCALES:
        return None
    return choice if game in WINDOWED_GAMES else UNTIMED


def extra_time_badge(mark: str) -> str:
    """The badge beside results played with extra time ``mark``."""
    badges = {
        X1_5: _("extra time ×1.5"),  # noqa: RUF001
        X2: _("extra time ×2"),  # noqa: RUF001
        UNTIMED: _("no speed scoring"),
    }
    return badges.get(mark, _("extra time"))


def extra_time_report_note() -> str:
    """Once per page that lists results played with extra time: what the badge means."""
    return _(
        "Played with a response window of their own, longer than the table's; in a game with "
        "no window to lengthen it means no speed scoring. These runs stay out of the school's "
        "norms; with no speed scoring their times are not scored."
    )
