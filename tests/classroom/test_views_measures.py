"""Every page uses the game's own measures and columns; the console lists who is not here."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from classroom.models import Trial
from tests.classroom.trial_rows import played_session, riff_raff_played

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def teacher_client(client: Client, teacher: User) -> Client:
    client.force_login(teacher)
    return client


def _commotion_trial(seat: Seat, seq: int, outcome: str, rt_ms: int | None = None) -> None:
    assert seat.table is not None
    target = {"spotted": True, "missed": True, "beaten": None, "wrong": False}[outcome]
    data: dict[str, Any] = {
        "outcome": outcome,
        "round": 1,
        "card": {"owner": 0, "kind": "number", "colour": "red", "number": 3},
        "source": "tableau",
        "pile": 0 if outcome in {"spotted", "wrong"} else None,
        "onto": {"owner": 1, "kind": "number", "colour": "red", "number": 2},
    }
    Trial.objects.create(
        session=seat.session,
        table=seat.table,
        seat=seat,
        student=seat.student,
        log_seq=seq,
        game="commotion",
        kind="commotion.play",
        level="refill_13_turn_3",
        target=target,
        responded=outcome in {"spotted", "wrong"},
        rt_ms=rt_ms,
        correct={"spotted": True, "missed": False, "beaten": None, "wrong": False}[outcome],
        plausible=rt_ms is None or rt_ms >= 150,
        data=data,
    )


def test_a_commotion_report_shows_play_opportunities_not_signal_detection(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = played_session(session=class_session, students=[ava], game="commotion")[ava.pk]
    outcomes = ["spotted", "spotted", "spotted", "missed", "beaten", "beaten", "wrong"]
    for seq, outcome in enumerate(outcomes, start=1):
        _commotion_trial(seat, seq, outcome, 700 if outcome in {"spotted", "wrong"} else None)
    page = teacher_client.get(reverse("session_report", args=[class_session.pk])).content.decode()
    for header in ("Spotting rate", "Beaten", "Wrong-play rate", "Time to play"):
        assert header in page
    assert "d′" not in page
    assert "Correct rejections" not in page
    assert "75 %" in page  # 3 spotted / (3 + 1 missed); the beaten ones are not misses
    seat_page = teacher_client.get(
        reverse("session_report_seat", args=[class_session.pk, seat.pk])
    ).content.decode()
    assert "beaten (a rival was first)" in seat_page
    assert "wrong play" in seat_page
    assert "slap" not in seat_page
    summary = teacher_client.get(
        reverse("session_export", args=[class_session.pk, "summary.csv"])
    ).content.decode("utf-8-sig")
    header = summary.splitlines()[0]
    assert "Spotting rate (%)" in header
    assert "d′" not in header
    response = teacher_client.get(reverse("session_export", args=[class_session.pk, "trials.csv"]))
    trials = b"".join(response.streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
    assert "Outcome" in trials.splitlines()[0]
    assert "Flip" not in trials.splitlines()[0]


def test_a_riff_raff_report_has_no_rate_beside_zero_catches(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ben = school_class.students.get(display_name="Ben")
    seat = played_session(session=class_session, students=[ben], game="riff_raff")[ben.pk]
    riff_raff_played(seat, stayed=[True, True, True, False])
    page = teacher_client.get(reverse("session_report", args=[class_session.pk])).content.decode()
    assert "Catch rate" in page
    assert "Stayed aboard" in page
    assert "d′" not in page
    assert "75 %" in page  # 3 of 4 placements stayed; the catch rate is "—", not 75 %


def test_the_console_lists_the_class_members_not_here_yet(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    played_session(session=class_session, students=[ava])
    class_session.refresh_from_db()
    class_session.status = "running"
    class_session.save(update_fields=["status"])
    page = teacher_client.get(reverse("session_console", args=[class_session.pk])).content.decode()
    assert "Not here yet" in page
    assert "Ben, Chen, Dara, Eli" in page


def _sessions_of_right_slaps(
    make_session: Any, school_class: SchoolClass, plays: list[tuple[Any, int]], *, flips: int
) -> Any:
    """Ava plays one session at each (time, RT) of ``plays``: ``flips`` right slaps of that RT."""
    from tests.classroom.trial_rows import trial_add

    ava = school_class.students.get(display_name="Ava")
    for at, rt in plays:
        session = make_session(school_class=school_class)
        seat = played_session(session=session, students=[ava], started=at)[ava.pk]
        for flip in range(1, flips + 1):
            trial_add(seat=seat, target=True, responded=True, rt_ms=rt, at=at, flip=flip)
    return ava


def test_ten_sessions_on_one_day_give_no_rate_per_week(
    teacher_client: Client,
    make_session: Any,
    school_class: SchoolClass,
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    day = timezone.now().replace(hour=9, minute=0) - timedelta(days=1)
    plays = [(day + timedelta(minutes=10 * number), 900 - 30 * number) for number in range(10)]
    ava = _sessions_of_right_slaps(make_session, school_class, plays, flips=4)
    response = teacher_client.get(reverse("student_progress", args=[school_class.pk, ava.pk]))
    page = response.content.decode()
    assert "per week" not in page.replace("rate per week", "")
    assert "Not enough weeks yet for a rate per week" in page
    # The charts draw the day once (classroom.selectors.analytics.student_days), with no
    # learning line; the numbers table still lists the ten sessions.
    rt_chart = response.context["charts"][0]
    assert "Learning line (fitted to this student)" not in rt_chart.svg
    assert rt_chart.svg.count('class="dot ') == 1  # one point
    assert len(response.context["points"]) == 10


def test_a_learning_line_over_three_weeks_at_one_level(
    teacher_client: Client, make_session: Any, school_class: SchoolClass
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    start = timezone.now() - timedelta(weeks=3)
    # Three sessions a day (still one point a day), a day a week for four weeks.
    plays = [
        (start + timedelta(weeks=week, minutes=20 * same_day), 900 - 50 * week)
        for week in range(4)
        for same_day in range(3)
    ]
    ava = _sessions_of_right_slaps(make_session, school_class, plays, flips=3)
    response = teacher_client.get(reverse("student_progress", args=[school_class.pk, ava.pk]))
    page = response.content.decode()
    # 50 ms faster a week, fitted per day over four weeks.
    assert "Learning line over 12 sessions: -50 ms per week" in page
    rt_chart = response.context["charts"][0]
    assert "Learning line (fitted to this student)" in rt_chart.svg
