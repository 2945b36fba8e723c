"""Analytics pages: what a teacher opens after class, and that nobody else can."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import Trial
from tests.classroom.trial_rows import played_session, trial_add, worked_example

if TYPE_CHECKING:
    from collections.abc import Callable

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
    assert "Learning line over 2 sessions: -48 ms per week" in text

    overview = client.get(reverse("class_overview", args=[school_class.pk])).content.decode()
    assert "430 ms" in overview  # Ava's latest median
    assert "not yet" in overview  # Chen never played


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
    client: Client, teacher: User, school_class: SchoolClass, played: tuple[GameSession, ...]
) -> None:
    client.force_login(teacher)
    url = reverse("class_progress_print", args=[school_class.pk])
    text = client.get(url).content.decode()
    assert text.count('class="print-page') == school_class.students.count()
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
