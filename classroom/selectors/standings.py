"""When a session may show points, ranks and winners (its leaderboard and scoring controls).

The engines always keep score; this only decides what students and the projector see. The
tablets apply the same rule: the page sends them ``standings_rules`` (what each leaderboard
choice shows, with the game's round breaks) and ``static/js/lib/standings.js`` only reads it.
"""

from __future__ import annotations

from typing import TypedDict

from classroom.gamesite import game_site_get
from classroom.gamesite.contract import ROUND_BREAKS
from classroom.models import GameSession

Leaderboard = GameSession.Leaderboard

__all__ = ["ROUND_BREAKS", "standings_rules", "standings_shown"]


class ShownWhen(TypedDict):
    """When one leaderboard choice shows points, ranks and winners (any one true is enough)."""

    always: bool
    ended: bool
    paused: bool
    # Phases of a table's view in which they show (the game's round breaks).
    phases: list[str]


def standings_rules(*, game: str) -> dict[str, ShownWhen]:
    """Every leaderboard choice's rule for ``game``; a choice not listed shows nothing."""
    site = game_site_get(game)
    breaks = sorted(site.round_breaks if site is not None else ROUND_BREAKS)
    never = ShownWhen(always=False, ended=False, paused=False, phases=[])
    return {
        Leaderboard.ALWAYS.value: {**never, "always": True},
        Leaderboard.END.value: {**never, "ended": True},
        Leaderboard.BETWEEN_ROUNDS.value: {
            **never,
            "ended": True,
            "paused": True,
            "phases": breaks,
        },
    }


def standings_shown(*, session: GameSession, phase: str = "", paused: bool = False) -> bool:
    """May a table at ``phase`` (``paused`` or not) show its points, ranks and winners now?

    Scoring off (accuracy-only mode) shows none at any time.
    """
    if not session.scoring:
        return False
    rule = standings_rules(game=session.game).get(session.leaderboard)
    if rule is None:
        return False
    return (
        rule["always"]
        or (rule["ended"] and session.status == GameSession.Status.ENDED)
        or (rule["paused"] and (paused or session.status == GameSession.Status.PAUSED))
        or phase in rule["phases"]
    )


class TabletStandings(TypedDict):
    leaderboard: str
    scoring: bool
    # Sound cues on (static/js/lib/sound.js); travels with the standings, which every game asks.
    sound: bool


def standings_for_tablets(*, session: GameSession) -> TabletStandings:
    """The two settings a tablet needs to decide for itself (its view knows the phase)."""
    return {
        "leaderboard": session.leaderboard,
        "scoring": session.scoring,
        "sound": session.sound,
    }


def leaderboard_action(value: str) -> str:
    """The console's action for one leaderboard choice, e.g. "leaderboard-between-rounds"."""
    return "leaderboard-" + value.replace("_", "-")
