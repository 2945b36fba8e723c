"""Analytics pages: what a teacher opens after class, and that nobody else can."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Trial
from classroom.services.classes import class_create
from tests.classroom.prepared_reports import reports_printed
from tests.classroom.trial_rows import (
    played_session,
    riff_raff_played,
    trial_add,
    worked_example,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> tuple[GameSession, GameSession]:
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"])
    weeks_ago = timezone.now() - timedelta(weeks=3)
    early = make_session(school_class=school_class)
    late = make_session(school_class=school_class)
    seats = played_session(session=early, students=[ava, ben], started=weeks_ago)
    worked_example(seats[ava.pk], at=weeks_ago)
    worked_example(seats[ben.pk], at=weeks_ago)
    seats = played_session(session=late, students=[ava, ben])
    for rt in (400, 420, 440, 460):
        trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=rt)
        trial_add(seat=seats[ben.pk], target=True, responded=False)
    return early, late


NOT_ENOUGH_WEEKS = "Not enough weeks yet for a rate per week: it needs sessions at this level in 3 different weeks."  # noqa: E501


def _pages(school_class: SchoolClass, early: GameSession) -> list[str]:
    ava = school_class.students.get(display_name="Ava")
    seat = early.seats.get(student=ava)
    return [
        reverse("class_overview", args=[school_class.pk]),
        reverse("class_progress_print", args=[school_class.pk]),
        reverse("student_progress", args=[school_class.pk, ava.pk]),
        reverse("session_report", args=[early.pk]),
        reverse("session_report_seat", args=[early.pk, seat.pk]),
    ]


def test_every_page_shows_the_hand_calculated_numbers(
    client: Client, teacher: User, school_class: SchoolClass, played: tuple[GameSession, ...]
) -> None:
    early, _late = played
    client.force_login(teacher)
    report = client.get(reverse("session_report", args=[early.pk])).content.decode()
    assert "1.50" in report  # d' of the worked example
    assert "719 ms" in report  # IES 575 / 0.8
    assert "200 ms" in report  # Stroop interference
    assert "80 %" in report
    assert "<svg" in report
    assert 'src="http' not in report  # no chart script from anywhere

    ava = school_class.students.get(display_name="Ava")
    progress = client.get(reverse("student_progress", args=[school_class.pk, ava.pk]))
    text = progress.content.decode()
    assert progress.status_code == 200
    assert text.count("<svg") == 3
    # Same level both times: 575 ms three weeks ago, 430 ms now; 80 % then 100 %.
    assert "Faster than 3 weeks ago; accuracy up at the beginner level." in text
    assert "Beginner" in text
    # Her own learning line through (0 weeks, 575 ms) and (3 weeks, 430 ms): -48 ms a week.
    # Two sessions a week apart: no rate per week yet (it needs three different weeks).
    assert "ms per week" not in text
    assert NOT_ENOUGH_WEEKS in text

    overview = client.get(reverse("class_overview", args=[school_class.pk])).content.decode()
    assert "430 ms" in overview  # Ava's latest median
    assert "not yet" in overview  # Chen never played


@pytest.mark.parametrize(
    ("zone", "day"), [("Asia/Taipei", "March 2, 2026"), ("UTC", "March 1, 2026")]
)
def test_a_session_is_dated_in_the_schools_time_zone(
    teacher_client: Client, played: tuple[GameSession, ...], settings: Any, zone: str, day: str
) -> None:
    early, _late = played
    # 23:30 UTC is 07:30 the next morning in Taipei: a morning lesson there.
    evening = datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
    type(early).objects.filter(pk=early.pk).update(created_at=evening, started_at=evening)
    settings.TIME_ZONE = zone
    report = teacher_client.get(reverse("session_report", args=[early.pk])).content.decode()
    assert day in report


def test_the_overview_sorts_and_htmx_gets_only_the_table(
    client: Client, teacher: User, school_class: SchoolClass, played: tuple[GameSession, ...]
) -> None:
    client.force_login(teacher)
    url = reverse("class_overview", args=[school_class.pk])
    by_rt = client.get(url, {"sort": "rt"}, headers={"HX-Request": "true"}).content.decode()
    assert not by_rt.lstrip().startswith("<!DOCTYPE")
    assert by_rt.index(">Ava<") < by_rt.index(">Ben<")  # Ben's latest session had no RT
    by_accuracy = client.get(url, {"sort": "accuracy"}).content.decode()
    assert by_accuracy.index(">Ava<") < by_accuracy.index(">Ben<")
    assert client.get(url, {"sort": "bogus", "game": "nope"}).status_code == 200


def test_the_printable_report_has_a_page_per_student(
    client: Client,
    teacher: User,
    school_class: SchoolClass,
    played: tuple[GameSession, ...],
    tmp_path: Path,
) -> None:
    client.force_login(teacher)
    url = reverse("class_progress_print", args=[school_class.pk])
    # Before they are prepared, the page offers to prepare them and shows no student.
    before = client.get(url).content.decode()
    assert "Prepare the reports" in before
    assert 'class="print-page' not in before
    text = reports_printed(client, school_class, exports_root=tmp_path)
    assert text.count('class="print-page') == school_class.students.count()
    assert "Faster than 3 weeks ago; accuracy up at the beginner level." in text
    assert "Prepare again" in text
    ava = school_class.students.get(display_name="Ava")
    one = client.get(url, {"student": ava.pk}).content.decode()
    assert one.count('class="print-page') == 1


def test_another_teacher_gets_404_everywhere(
    client: Client,
    other_teacher: User,
    school_class: SchoolClass,
    played: tuple[GameSession, ...],
) -> None:
    client.force_login(other_teacher)
    for url in _pages(school_class, played[0]):
        assert client.get(url).status_code == 404, url


def test_a_visitor_is_sent_to_log_in(
    client: Client, school_class: SchoolClass, played: tuple[GameSession, ...]
) -> None:
    for url in _pages(school_class, played[0]):
        response = client.get(url)
        assert response.status_code == 302
        assert reverse("login") in response["Location"]


def test_a_game_with_two_kinds_of_trial_shows_each_kind_in_the_report(
    client: Client, teacher: User, school_class: SchoolClass, played: tuple[GameSession, ...]
) -> None:
    early, _late = played
    ava = school_class.students.get(display_name="Ava")
    Trial.objects.filter(session=early, student=ava, target=False).update(
        kind="riff_raff.placement", target=None
    )
    client.force_login(teacher)
    page = client.get(reverse("session_report", args=[early.pk])).content.decode()
    assert "Placements (stayed on board)" in page
    assert "Flips" in page


def _figures_only(rows: list[list[str]]) -> list[list[str]]:
    """The rows without the 95 % intervals in brackets after their figures."""
    return [[re.sub(r" \([^()]*–[^()]*\)", "", cell) for cell in row] for row in rows]


def _body_rows(html: str) -> list[list[str]]:
    """The cells of each body row of the page's first table, as the text they show."""
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return [
        [" ".join(re.sub(r"<[^>]+>", " ", cell).split()) for cell in cells]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
        if (cells := re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S))
    ]


@pytest.fixture
def riff_raffed(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> tuple[GameSession, GameSession]:
    """Two Riff Raff sessions three weeks apart. Ava: catches 3 of 4 at 500/600/700 ms then
    3 of 4 at 400/450/500 ms; placements 3 of 5 then 4 of 5 stayed. Ben, the latest only:
    catches 2 of 4 at 700/800 ms, placements 1 of 2."""
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"])
    weeks_ago = timezone.now() - timedelta(weeks=3)
    early = make_session(school_class=school_class)
    late = make_session(school_class=school_class)
    seats = played_session(session=early, students=[ava], started=weeks_ago, game="riff_raff")
    riff_raff_played(
        seats[ava.pk],
        catch_rts=[500, 600, None, 700],
        stayed=[True, True, True, False, False],
        at=weeks_ago,
    )
    seats = played_session(session=late, students=[ava, ben], game="riff_raff")
    riff_raff_played(seats[ava.pk], catch_rts=[400, 450, 500, None], stayed=[True] * 4 + [False])
    riff_raff_played(seats[ben.pk], catch_rts=[700, 800, None, None], stayed=[True, False])
    return early, late


def test_the_progress_page_shows_catches_and_placements_apart(
    client: Client,
    teacher: User,
    school_class: SchoolClass,
    riff_raffed: tuple[GameSession, ...],
) -> None:
    ava = school_class.students.get(display_name="Ava")
    client.force_login(teacher)
    response = client.get(reverse("student_progress", args=[school_class.pk, ava.pk]))
    text = response.content.decode()
    # Each session (9 trials) has no figures of its own: 6 of 9 right would mix both kinds.
    # Under it, catches (caught 3 of 4; d' = z(3.5 / 5) - z(0.5 / 1) = 0.52) and placements.
    # Riff Raff has no noise trials: no d' column (its heads are its own: catch time, and
    # each kind's rate, "Catch rate / Stayed aboard").
    rows = _body_rows(text)
    assert [row[1:] for row in _figures_only(rows)] == [
        ["Wave 0.5", "9", "—", "—"],
        ["", "4", "600 ms", "75 %"],
        ["", "5", "—", "60 %"],
        ["Wave 0.5", "9", "—", "—"],
        ["", "4", "450 ms", "75 %"],
        ["", "5", "—", "80 %"],
    ]
    assert '<th scope="col">Catch time</th><th scope="col">Catch rate / Stayed aboard</th>' in text
    assert rows[1][0].endswith(": Catches")  # the date for screen readers, then the kind
    assert rows[2][0].endswith(": Placements (stayed on board)")
    assert "67 %" not in text
    # A sentence per kind: catches 600 -> 450 ms (faster), 75 % both times (steady);
    # placements have no RT, and 60 -> 80 % stayed is up.
    assert "Catches: Faster than 3 weeks ago; accuracy steady." in text
    assert "Placements (stayed on board): Accuracy up." in text
    # Two sessions three weeks apart: two calendar weeks, so no rate per week yet.
    assert "points per week" not in text
    assert text.count(NOT_ENOUGH_WEEKS) == 2

    # No d' chart: Riff Raff has no noise trials.
    rt_chart, accuracy_chart = response.context["charts"]
    assert "Catches" in rt_chart.svg
    assert "Placements" not in rt_chart.svg  # placements have no reaction time
    # ...nor a learning line on the chart, which would show the rate the page holds back.
    assert "Learning line (fitted to this student)" not in rt_chart.svg
    assert "Catches" in accuracy_chart.svg
    assert "Placements (stayed on board)" in accuracy_chart.svg


def test_the_overview_shows_a_catches_row_and_a_placements_row(
    client: Client,
    teacher: User,
    school_class: SchoolClass,
    riff_raffed: tuple[GameSession, ...],
) -> None:
    client.force_login(teacher)
    url = reverse("class_overview", args=[school_class.pk])
    response = client.get(url)
    text = response.content.decode()
    rows = {row["student"].display_name: row for row in response.context["rows"]}
    ava = rows["Ava"]
    assert ava["accuracy"] is None  # no whole-session accuracy for a mixed game
    catches, placements = ava["kinds"]
    assert (catches["kind"], catches["median_rt"], catches["accuracy"]) == (
        "riff_raff.catch",
        450,
        75,
    )
    assert (placements["kind"], placements["median_rt"], placements["accuracy"]) == (
        "riff_raff.placement",
        None,
        80,
    )
    # Ava's catches: 600 -> 450 ms mean, faster; her placements: 60 -> 80 % stayed, better.
    # Two children: too few to measure a reliability to judge a change by, so no verdict.
    assert (catches["rt_change"], placements["rate_change"]) == (None, None)
    # Figures, IES (mean RT / accuracy: 450 / 0.75, 750 / 0.5) and BIS (catches against
    # catches: +2 / -2) per kind; nothing for the whole session. No d' column: Riff Raff
    # has no noise trials.
    figures = [row[:1] + row[4:8] for row in _body_rows(text)[:6]]
    assert figures == [
        ["Ava", "—", "—", "—", "—"],
        # With their 95 % intervals: a bootstrap of the median, Wilson's for a share.
        ["Ava: Catches", "450 ms (400–500)", "75 % (30–95)", "600 ms", "2.00"],
        ["Ava: Placements (stayed on board)", "—", "80 % (38–96)", "—", "—"],
        ["Ben", "—", "—", "—", "—"],
        ["Ben: Catches", "750 ms (700–800)", "50 % (15–85)", "1500 ms", "-2.00"],
        ["Ben: Placements (stayed on board)", "—", "50 % (9–91)", "—", "—"],
    ]
    assert "d′" not in text

    # Sorting uses the catches' figures: Ava is faster and more accurate than Ben.
    by_rt = client.get(url, {"sort": "rt"}).content.decode()
    assert by_rt.index(">Ava<") < by_rt.index(">Ben<")
    by_accuracy = client.get(url, {"sort": "accuracy"}).content.decode()
    assert by_accuracy.index(">Ava<") < by_accuracy.index(">Ben<")


def test_the_printed_report_shows_each_kind(
    client: Client,
    teacher: User,
    school_class: SchoolClass,
    riff_raffed: tuple[GameSession, ...],
) -> None:
    ava = school_class.students.get(display_name="Ava")
    client.force_login(teacher)
    url = reverse("class_progress_print", args=[school_class.pk])
    text = client.get(url, {"student": ava.pk}).content.decode()
    rows = _body_rows(text)
    assert rows[1][3:] == ["600 ms (500–700)", "75 % (30–95)"]  # with their intervals
    assert [row[1:] for row in _figures_only(rows)][:3] == [
        ["Wave 0.5", "9", "—", "—"],
        ["", "4", "600 ms", "75 %"],
        ["", "5", "—", "60 %"],
    ]
    assert "Catches: Faster than 3 weeks ago; accuracy steady." in text
    assert "Placements (stayed on board): Accuracy up." in text


def test_palm_strike_beside_riff_raff_still_shows_whole_sessions(
    client: Client,
    teacher: User,
    school_class: SchoolClass,
    played: tuple[GameSession, ...],
    riff_raffed: tuple[GameSession, ...],
) -> None:
    ava = school_class.students.get(display_name="Ava")
    client.force_login(teacher)
    url = reverse("student_progress", args=[school_class.pk, ava.pk])
    everything = client.get(url)
    text = everything.content.decode()
    assert text.count('<tr class="row-sub">') == 4  # only the Riff Raff sessions split
    figures = [row[1:] for row in _figures_only(_body_rows(text))]
    assert ["Beginner", "20", "575 ms", "80 %", "1.50"] in figures  # Palm Strike, whole
    assert "Palm Strike: Faster than 3 weeks ago; accuracy up at the beginner level." in text
    assert "Catches: Faster than 3 weeks ago; accuracy steady." in text
    rt_chart = everything.context["charts"][0]
    assert "Palm Strike" in rt_chart.svg
    assert "Catches" in rt_chart.svg
    # Two RT lines: a single dashed learning line could belong to either.
    assert "Learning line (fitted to this student)" not in rt_chart.svg

    # Palm Strike alone looks as it always did.
    palm_strike = client.get(url, {"game": "palm_strike"})
    text = palm_strike.content.decode()
    assert "row-sub" not in text
    assert "Catches" not in text
    sentence = "Faster than 3 weeks ago; accuracy up at the beginner level."
    assert f'<p class="summary-sentence">{sentence}</p>' in text  # no "Palm Strike:" before it
    # Two sessions a week apart: no rate per week yet (it needs three different weeks).
    assert "ms per week" not in text
    assert NOT_ENOUGH_WEEKS in text
    assert text.count("<svg") == 3
    assert "Learning line (fitted to this student)" not in palm_strike.context["charts"][0].svg
    overview = client.get(
        reverse("class_overview", args=[school_class.pk]), {"game": "palm_strike"}
    )
    assert "row-sub" not in overview.content.decode()
    assert "430 ms" in overview.content.decode()


def test_a_teacher_sees_only_their_own_riff_raff_figures(
    client: Client,
    teacher: User,
    other_teacher: User,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    riff_raffed: tuple[GameSession, ...],
) -> None:
    theirs = class_create(teacher=other_teacher, name="Year 4 Owls", student_names=["Ava"])
    their_ava = theirs.students.get()
    session = make_session(owner=other_teacher, school_class=theirs)
    seat = played_session(session=session, students=[their_ava], game="riff_raff")[their_ava.pk]
    riff_raff_played(seat, catch_rts=[999], stayed=[False, False, False])

    client.force_login(other_teacher)
    ava = school_class.students.get(display_name="Ava")
    for url in [
        reverse("class_overview", args=[school_class.pk]),
        reverse("student_progress", args=[school_class.pk, ava.pk]),
        reverse("class_progress_print", args=[school_class.pk]),
        reverse("student_progress", args=[theirs.pk, ava.pk]),
    ]:
        assert client.get(url).status_code == 404, url
    own = client.get(reverse("class_overview", args=[theirs.pk])).content.decode()
    assert "999 ms" in own
    assert "450 ms" not in own

    client.force_login(teacher)
    mine = client.get(reverse("class_overview", args=[school_class.pk])).content.decode()
    assert "999 ms" not in mine
