"""Extra time per child: the class page's choice, and reports and exports that mark the runs
played with it (speed not scored for "no speed scoring")."""

from __future__ import annotations

import csv
import html
import io
import re
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from django.utils import translation

from classroom.services.sessions import session_create
from tests.classroom.prepared_reports import reports_printed
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from pathlib import Path

    from django.contrib.auth.models import User
    from django.test import Client
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


# --------------------------------------------------------------------------------------------
# The class page: a choice per student


@pytest.mark.parametrize("htmx", [False, True])
def test_the_teacher_chooses_a_students_extra_time(
    teacher_client: Client, school_class: SchoolClass, htmx: bool
) -> None:
    ava = school_class.students.get(display_name="Ava")
    url = reverse("student_extra_time", args=[school_class.pk, ava.pk])
    page = _text(teacher_client.get(reverse("class_detail", args=[school_class.pk])))
    assert page.count('name="extra_time"') == 5
    assert "Response window ×2" in page
    headers = {"HX-Request": "true"} if htmx else {}

    response = teacher_client.post(url, {"extra_time": "x2"}, headers=headers)

    ava.refresh_from_db()
    assert ava.extra_time == "x2"
    if htmx:
        row = _text(response)
        assert f'id="student-{ava.pk}"' in row
        assert '<option value="x2" selected>' in row
        assert "<html" not in row
    else:
        assert response["Location"] == reverse("class_detail", args=[school_class.pk])
    teacher_client.post(url, {"extra_time": ""}, headers=headers)
    ava.refresh_from_db()
    assert ava.extra_time == ""
    assert teacher_client.get(url).status_code == 405


def test_a_value_that_is_not_a_choice_is_refused_and_changes_nothing(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    url = reverse("student_extra_time", args=[school_class.pk, ava.pk])
    teacher_client.post(url, {"extra_time": "x1.5"})
    row = _text(teacher_client.post(url, {"extra_time": "x3"}, headers={"HX-Request": "true"}))
    assert "Choose one of the listed values." in row
    ava.refresh_from_db()
    assert ava.extra_time == "x1.5"


def test_another_teacher_cannot_give_extra_time(
    client: Client, other_teacher: User, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    client.force_login(other_teacher)
    url = reverse("student_extra_time", args=[school_class.pk, ava.pk])
    assert client.post(url, {"extra_time": "x2"}).status_code == 404
    ava.refresh_from_db()
    assert ava.extra_time == ""


def test_the_class_page_offers_the_choice_in_chinese(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    with translation.override("zh-hant"):
        page = _text(
            teacher_client.get(
                reverse("class_detail", args=[school_class.pk]),
                headers={"accept-language": "zh-hant"},
            )
        )
    assert "延長時間" in page
    assert "不計速度" in page


# --------------------------------------------------------------------------------------------
# Reports and exports


def _played(teacher: User, school_class: SchoolClass, mark: str) -> tuple[GameSession, Seat]:
    """Ava played with extra time ``mark``, Ben with the table's window."""
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"]).order_by("pk")
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=school_class,
        players_per_table=2,
        settings={},
    )
    seats = played_session(session=session, students=[ava, ben])
    for flip in range(1, 4):
        trial = trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=900, flip=flip)
        trial.data["extra_time"] = mark
        trial.save(update_fields=["data"])
        trial_add(seat=seats[ben.pk], target=True, responded=True, rt_ms=520, flip=flip)
    return session, seats[ava.pk]


def _main_rows(page: str) -> dict[str, str]:
    return {
        name: row
        for row in re.findall(r'<tr class="row-main">(.*?)</tr>', page, re.S)
        for name in ("Ava", "Ben")
        if f">{name}</a>" in row
    }


def test_the_session_report_marks_the_run_with_extra_time(
    teacher_client: Client, teacher: User, school_class: SchoolClass
) -> None:
    session, _ava = _played(teacher, school_class, "x2")
    page = _text(teacher_client.get(reverse("session_report", args=[session.pk])))
    rows = _main_rows(page)
    assert "extra time ×2" in rows["Ava"]
    assert "extra time" not in rows["Ben"]
    assert "not scored" not in rows["Ava"]  # a longer window still has its times
    assert "stay out of the school's norms" in page


def test_an_untimed_runs_speed_is_shown_as_not_scored(
    teacher_client: Client, teacher: User, school_class: SchoolClass, tmp_path: Path
) -> None:
    session, ava = _played(teacher, school_class, "untimed")
    rows = _main_rows(_text(teacher_client.get(reverse("session_report", args=[session.pk]))))
    assert "no speed scoring" in rows["Ava"]
    assert "not scored" in rows["Ava"]
    assert "ms" not in re.sub(r"<[^>]+>", "", rows["Ava"])  # no time anywhere in her row
    assert "ms" in re.sub(r"<[^>]+>", "", rows["Ben"])
    seat_page = _text(teacher_client.get(reverse("session_report_seat", args=[session.pk, ava.pk])))
    assert "no speed scoring" in seat_page
    assert "not scored" in seat_page
    student = ava.student
    assert student is not None
    progress = _text(
        teacher_client.get(reverse("student_progress", args=[school_class.pk, student.pk]))
    )
    assert "no speed scoring" in progress
    assert "not scored" in progress
    printed = html.unescape(reports_printed(teacher_client, school_class, exports_root=tmp_path))
    assert "no speed scoring" in printed


def test_the_trials_export_has_the_extra_time_column_and_its_codebook_entry(
    teacher_client: Client, teacher: User, school_class: SchoolClass
) -> None:
    session, _ava = _played(teacher, school_class, "x1.5")
    response = teacher_client.get(reverse("session_export", args=[session.pk, "trials.csv"]))
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {row["Name"]: row["Extra time"] for row in rows} == {"Ava": "x1.5", "Ben": ""}
    response = teacher_client.get(reverse("session_export", args=[session.pk, "codebook.csv"]))
    codebook = list(csv.reader(io.StringIO(response.content.decode())))
    items = {row[1]: row for row in codebook if len(row) > 1}
    assert "untimed" in items["Extra time"][3]
    assert any("school's norms" in row[2] for row in codebook if row[1] == "Extra time")
