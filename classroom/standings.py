"""When a session may show points, ranks and winners (its leaderboard and scoring controls).

The engines always keep score; this only decides what students and the projector see. The
tablets make the same decision in ``static/js/standings.js`` (from the same two settings and
their table's view), so the two must stay alike.
"""

from __future__ import annotations

from typing import Final, TypedDict

from classroom.models import GameSession

Leaderboard = GameSession.Leaderboard

# Phases in which a table is between rounds (or done): no round is in play.
ROUND_BREAKS: Final = frozenset({"round_over", "game_over"})


def standings_shown(*, session: GameSession, phase: str = "", paused: bool = False) -> bool:
    """May a table at ``phase`` (``paused`` or not) show its points, ranks and winners now?

    Scoring off (accuracy-only mode) shows none at any time.
    """
    if not session.scoring:
        return False
    ended = session.status == GameSession.Status.ENDED
    if session.leaderboard == Leaderboard.ALWAYS:
        return True
    if session.leaderboard == Leaderboard.END:
        return ended
    if session.leaderboard == Leaderboard.BETWEEN_ROUNDS:
        between = paused or session.status == GameSession.Status.PAUSED or phase in ROUND_BREAKS
        return ended or between
    return False


class TabletStandings(TypedDict):
    leaderboard: str
    scoring: bool


def standings_for_tablets(*, session: GameSession) -> TabletStandings:
    """The two settings a tablet needs to decide for itself (its view knows the phase)."""
    return {"leaderboard": session.leaderboard, "scoring": session.scoring}


def leaderboard_action(value: str) -> str:
    """The console's action for one leaderboard choice, e.g. "leaderboard-between-rounds"."""
    return "leaderboard-" + value.replace("_", "-")
