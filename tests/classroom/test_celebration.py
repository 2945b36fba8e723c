"""The projector's end-of-session celebration: class-wide highlights, names only if allowed."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from classroom.models import GameSession, Student
from classroom.pages import fragments
from classroom.selectors.celebration import first_name, session_highlights
from classroom.services.classes import class_create
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import Seat


@pytest.fixture
def played(
    teacher: User, make_session: Callable[..., GameSession]
) -> tuple[GameSession, dict[str, Seat]]:
    """Ava: fast and steady. Ben: slow, but right far more often in his second half.
    Chen: fewer than five right answers (no median of his own)."""
    school_class = class_create(
        teacher=teacher, name="Year 4 Foxes", student_names=["Ava Chen", "Ben", "Chen"]
    )
    session = make_session(school_class=school_class)
    students = list(Student.objects.filter(school_class=school_class))
    seats = played_session(session=session, students=students)
    by_name = {seat.name: seat for seat in seats.values()}
    start = timezone.now()
    for index in range(10):
        at = start + timedelta(seconds=index)
        trial_add(seat=by_name["Ava Chen"], target=True, responded=True, rt_ms=400 + index, at=at)
        ben_right = index >= 5 or index == 0
        trial_add(seat=by_name["Ben"], target=True, responded=ben_right, rt_ms=900, at=at)
    for index in range(3):
        trial_add(seat=by_name["Chen"], target=True, responded=True, rt_ms=300, flip=index)
    session.refresh_from_db()
    return session, by_name


def test_class_wide_figures(played: tuple[GameSession, dict[str, Seat]]) -> None:
    session, _seats = played
    highlights = session_highlights(session=session, names=False)
    assert highlights.players == 3
    assert highlights.answers == 23
    # Ava 10 right, Ben 6 right, Chen 3 right, of 23.
    assert highlights.accuracy_percent == pytest.approx(100 * 19 / 23)
    assert highlights.median_rt_ms == 406  # the 10th of 19 right answers, in order
    assert highlights.fastest == []
    assert highlights.most_improved is None


def test_names_by_first_name_only_when_allowed(played: tuple[GameSession, dict[str, Seat]]) -> None:
    session, _seats = played
    highlights = session_highlights(session=session, names=True)
    assert highlights.fastest == ["Ava", "Ben"]  # Chen has too few right answers for a median
    assert highlights.most_improved == "Ben"  # 20 % right, then 100 %


def test_a_guest_is_named_by_their_nickname(played: tuple[GameSession, dict[str, Seat]]) -> None:
    _session, seats = played
    guest = seats["Ava Chen"]
    guest.student = None
    guest.name = "Brave Otter"
    assert first_name(guest) == "Brave Otter"
    assert first_name(seats["Ben"]) == "Ben"


def test_a_session_without_answers_still_celebrates(
    make_session: Callable[..., GameSession],
) -> None:
    highlights = session_highlights(session=make_session(), names=True)
    assert highlights.answers == 0
    assert highlights.accuracy_percent is None


def _projector(session: GameSession) -> str:
    context = fragments.projector_context(session=session)
    return render_to_string("classroom/projector.html#live", context)


@pytest.mark.parametrize(
    ("leaderboard", "scoring", "named"),
    [("always", True, True), ("end", True, True), ("never", True, False), ("always", False, False)],
)
def test_the_projector_celebrates_and_names_only_where_allowed(
    played: tuple[GameSession, dict[str, Seat]], leaderboard: str, scoring: bool, named: bool
) -> None:
    session, _seats = played
    session.leaderboard = leaderboard
    session.scoring = scoring
    text = _projector(session)
    assert 'class="celebration"' in text
    assert "Well played, everyone!" in text
    assert "83 %" in text  # the class's accuracy
    assert ("Fastest reactions" in text) is named
    assert ("Ava" in text) is named
    assert "Ava Chen" not in text  # first names only


def test_the_typical_time_is_named_as_the_game_measures_it(
    played: tuple[GameSession, dict[str, Seat]],
) -> None:
    """Riff Raff times a catch, not a reaction to a card: its projector says so."""
    session, _seats = played
    assert "Typical reaction time" in _projector(session)
    session.game = "riff_raff"
    text = _projector(session)
    assert "Typical catch time" in text
    assert "reaction time" not in text


def test_no_celebration_while_the_session_runs(
    played: tuple[GameSession, dict[str, Seat]],
) -> None:
    session, _seats = played
    session.status = GameSession.Status.RUNNING
    assert 'class="celebration"' not in _projector(session)


def test_nobody_is_most_improved_in_a_session_without_slaps(
    teacher: User, make_session: Callable[..., GameSession]
) -> None:
    # Ben never slaps: his "accuracy" rises only because the later flips had no match.
    school_class = class_create(teacher=teacher, name="Year 5 Owls", student_names=["Ben"])
    session = make_session(school_class=school_class)
    (seat,) = played_session(
        session=session, students=list(Student.objects.filter(school_class=school_class))
    ).values()
    start = timezone.now()
    for index in range(12):
        trial_add(
            seat=seat,
            target=index < 6,
            responded=False,
            at=start + timedelta(seconds=index),
            flip=index + 1,
        )
    highlights = session_highlights(session=session, names=True)
    assert highlights.most_improved is None
    assert highlights.fastest == []
