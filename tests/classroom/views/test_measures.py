"""Every page uses the game's own measures and columns; the console lists who is not here."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from classroom.models import Trial
from tests.classroom.trial_rows import played_session, riff_raff_played, trial_add

if TYPE_CHECKING:
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db


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


def _commotion_played(class_session: GameSession, school_class: SchoolClass) -> Seat:
    """Ava's Commotion session: 3 spotted at 700 ms, 1 missed, 2 beaten, 1 wrong play, so her
    spotting rate (75 %) is not her share of right trials (3 of 7, 43 %)."""
    ava = school_class.students.get(display_name="Ava")
    seat = played_session(session=class_session, students=[ava], game="commotion")[ava.pk]
    outcomes = ["spotted", "spotted", "spotted", "missed", "beaten", "beaten", "wrong"]
    for seq, outcome in enumerate(outcomes, start=1):
        _commotion_trial(seat, seq, outcome, 700 if outcome in {"spotted", "wrong"} else None)
    return seat


def test_the_commotion_console_tiles_show_wrong_plays_beside_the_spotting_rate(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    """A spotting rate alone read 100 % for children whose plays were mostly wrong (issue 45):
    every tile shows the wrong plays too, as a rate and a count."""
    from django.template.loader import render_to_string

    from classroom.pages.fragments import dashboard_context

    _commotion_played(class_session, school_class)
    class_session.refresh_from_db()
    context = dashboard_context(session=class_session)
    keys = [measure.key for measure in context["dashboard"].more]
    assert keys == ["wrong_play_rate", "wrong_plays"]
    html = render_to_string("classroom/session_console.html#dashboard", context)
    # Each rate with its 95 % interval (Wilson's, of 4 plays: 3 spotted, 1 wrong).
    assert '<dt>Spotting rate</dt><dd>75 % <span class="interval">(30–95)</span></dd>' in html
    assert '<dt>Wrong-play rate</dt><dd>25 % <span class="interval">(5–70)</span></dd>' in html
    assert "<dt>Wrong plays</dt><dd>1</dd>" in html


def test_the_commotion_report_titles_its_charts_with_its_own_measures(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    _commotion_played(class_session, school_class)
    response = teacher_client.get(reverse("session_report", args=[class_session.pk]))
    titles = [chart.title for chart in response.context["charts"]]
    assert titles == ["Time to play by level", "Spotting rate by level"]
    page = response.content.decode()
    assert "reaction time" not in page.lower()
    assert "RT measures" not in page
    assert "Times such as Time to play use correct responses only" in page


def test_the_commotion_progress_pages_speak_of_time_to_play_and_spotting_rate(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    seat = _commotion_played(class_session, school_class)
    overview = teacher_client.get(reverse("class_overview", args=[school_class.pk]))
    page = overview.content.decode()
    for head in ("Time to play", "Spotting rate"):
        assert f">{head}</a></th>" in page
    for absent in ("d′", ">Median RT<", ">Accuracy<"):
        assert absent not in page
    # Whole words: the page's random CSRF token may hold the letters "BIS" or "IES".
    for absent in ("IES", "BIS"):
        assert not re.search(rf"\b{absent}\b", page)
    assert "75 %" in page  # the spotting rate, not 3 right of 7 trials (43 %)
    progress = teacher_client.get(
        reverse("student_progress", args=[school_class.pk, seat.student_id])
    )
    page = progress.content.decode()
    assert [chart.title for chart in progress.context["charts"]] == [
        "Time to play",
        "Spotting rate",
    ]
    assert "d′" not in page
    assert ">Median RT<" not in page
    assert '<th scope="col">Time to play</th><th scope="col">Spotting rate</th></tr>' in page


def test_with_several_games_each_line_of_the_rate_chart_is_its_games_own_rate(
    teacher_client: Client,
    make_session: Any,
    class_session: GameSession,
    school_class: SchoolClass,
) -> None:
    from tests.classroom.trial_rows import trial_add

    seat = _commotion_played(class_session, school_class)
    palm = played_session(session=make_session(school_class=school_class), students=[seat.student])[
        seat.student_id
    ]
    for flip, responded in enumerate([True, True, False, False], start=1):  # 2 of 4 right
        trial_add(seat=palm, target=True, responded=responded, rt_ms=500, flip=flip)
    response = teacher_client.get(
        reverse("student_progress", args=[school_class.pk, seat.student_id])
    )
    rate_chart = response.context["charts"][1]
    assert rate_chart.title == "Accuracy or rate"
    assert "75 %" in rate_chart.svg  # Commotion's spotting rate …
    assert "43 %" not in rate_chart.svg  # … not its share of right trials
    assert "50 %" in rate_chart.svg  # Palm Strike's accuracy
    page = response.content.decode()
    assert "Median time" in page
    assert "d′" in page  # Palm Strike has d'


def test_a_riff_raff_report_without_falls_draws_no_empty_chart(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ben = school_class.students.get(display_name="Ben")
    seat = played_session(session=class_session, students=[ben], game="riff_raff")[ben.pk]
    riff_raff_played(seat, stayed=[True, True, True, False])
    response = teacher_client.get(reverse("session_report", args=[class_session.pk]))
    # No catch: no catch-time or catch-rate chart saying "No data" over a made-up axis.
    assert [chart.title for chart in response.context["charts"]] == ["Stayed aboard by level"]
    assert "No data" not in response.content.decode()


def test_the_riff_raff_console_tiles_show_catch_time_and_stayed_aboard(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    from classroom.pages.fragments import dashboard_context

    ben = school_class.students.get(display_name="Ben")
    seat = played_session(session=class_session, students=[ben], game="riff_raff")[ben.pk]
    riff_raff_played(seat, catch_rts=[600], stayed=[True, True, True, False])
    class_session.refresh_from_db()
    context = dashboard_context(session=class_session)
    dashboard = context["dashboard"]
    assert (dashboard.headline_label, dashboard.speed_label) == ("Catch rate", "Catch time")
    assert [measure.key for measure in dashboard.more] == ["placement_stability"]
    assert context["rt_chart"].title == "Catch time of the class's right responses (ms)"
    from django.template.loader import render_to_string

    html = render_to_string("classroom/session_console.html#dashboard", context)
    assert "Catch time (last 10)" in html
    assert '<dt>Stayed aboard</dt><dd>75 % <span class="interval">(30–95)</span></dd>' in html
    assert "RT (last 10)" not in html


def test_a_speed_with_no_right_answer_to_time_says_so(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    """A child whose every tap came before the card could be seen has no time to show: the
    page says why, where a dash said nothing."""
    ava = school_class.students.get(display_name="Ava")
    seat = played_session(session=class_session, students=[ava])[ava.pk]
    for flip in range(1, 21):
        trial_add(seat=seat, target=True, responded=True, rt_ms=40, plausible=False, flip=flip)
    page = teacher_client.get(
        reverse("session_report_seat", args=[class_session.pk, seat.pk])
    ).content.decode()
    speed = re.search(r"Median RT</th>(.*?)</tr>", page, re.S)
    assert speed is not None
    assert "no right answer to time" in speed.group(1)

    # The class overview's row of Ava and her own table of sessions say the same.
    overview = teacher_client.get(reverse("class_overview", args=[school_class.pk]))
    row = re.search(r">Ava</a>(.*?)</tr>", overview.content.decode(), re.S)
    assert row is not None
    assert "no right answer to time" in row.group(1)
    progress = teacher_client.get(
        reverse("student_progress", args=[school_class.pk, ava.pk])
    ).content.decode()
    sessions = re.search(r"measures per session</caption>(.*?)</table>", progress, re.S)
    assert sessions is not None
    assert "no right answer to time" in sessions.group(1)
