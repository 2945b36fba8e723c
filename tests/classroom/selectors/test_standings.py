"""When points, ranks and winners may be shown: the leaderboard and scoring controls."""

from __future__ import annotations

import pytest

from classroom.models import GameSession
from classroom.selectors.standings import leaderboard_action, standings_for_tablets, standings_shown

Status = GameSession.Status


def _session(
    leaderboard: str, *, scoring: bool = True, status: str = Status.RUNNING
) -> GameSession:
    # Unsaved: the rule reads only these three fields.
    return GameSession(leaderboard=leaderboard, scoring=scoring, status=status)


@pytest.mark.parametrize(
    ("leaderboard", "phase", "paused", "status", "shown"),
    [
        ("always", "open", False, Status.RUNNING, True),
        ("never", "game_over", False, Status.ENDED, False),
        ("end", "game_over", False, Status.RUNNING, False),
        ("end", "open", False, Status.ENDED, True),
        ("between_rounds", "open", False, Status.RUNNING, False),
        ("between_rounds", "playing", False, Status.RUNNING, False),
        ("between_rounds", "round_over", False, Status.RUNNING, True),
        ("between_rounds", "game_over", False, Status.RUNNING, True),
        ("between_rounds", "open", True, Status.RUNNING, True),
        ("between_rounds", "open", False, Status.PAUSED, True),
        ("between_rounds", "open", False, Status.ENDED, True),
    ],
)
def test_the_leaderboard_shows_only_when_its_setting_allows(
    leaderboard: str, phase: str, paused: bool, status: str, shown: bool
) -> None:
    session = _session(leaderboard, status=status)
    assert standings_shown(session=session, phase=phase, paused=paused) is shown


@pytest.mark.parametrize("leaderboard", GameSession.Leaderboard.values)
@pytest.mark.parametrize("status", [Status.RUNNING, Status.PAUSED, Status.ENDED])
def test_without_scoring_nothing_is_ever_shown(leaderboard: str, status: str) -> None:
    session = _session(leaderboard, scoring=False, status=status)
    for phase in ("open", "round_over", "game_over"):
        assert not standings_shown(session=session, phase=phase, paused=True)


def test_tablets_get_the_two_settings_and_the_sound_switch() -> None:
    session = _session("end", scoring=False)
    assert standings_for_tablets(session=session) == {
        "leaderboard": "end",
        "scoring": False,
        "sound": False,
    }


def test_each_leaderboard_choice_has_a_url_safe_console_action() -> None:
    actions = [leaderboard_action(value) for value in GameSession.Leaderboard.values]
    assert actions == [
        "leaderboard-always",
        "leaderboard-between-rounds",
        "leaderboard-end",
        "leaderboard-never",
    ]
