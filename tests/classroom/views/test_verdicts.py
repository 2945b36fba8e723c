"""Verdicts on the teacher's pages (the class's progress, a student's progress), in both
languages; never on a child's tablet or on the projector."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from classroom.analytics.verdicts import BAND_TEXT
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.practice_access import practice_code_open
from classroom.services.seats import seat_join_student
from classroom.services.sessions import session_create, session_start
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db

# What a verdict says, in English and Traditional Chinese: none of it may reach a child.
VERDICT_WORDS = (
    *BAND_TEXT.values(),
    "Percentile",
    "How each child is doing",
    "How this child is doing",
    "進度正常",
    "需要留意",
    "可能需要協助",
    "還不確定",
    "百分等級",
)


def _text(response: TestResponse) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.fixture
def seeded(teacher: User) -> SchoolClass:
    return demo_class_seed(teacher=teacher, students=12, sessions=3, trials_per_session=80)


def test_the_class_progress_shows_each_childs_verdicts_with_intervals(
    teacher_client: Client, seeded: SchoolClass
) -> None:
    page = _text(teacher_client.get(reverse("class_overview", args=[seeded.pk])))
    assert "How each child is doing" in page
    section = page[page.index('id="verdicts"') :]
    # A row per child and skill: the band's word, the percentile with its interval, and whom
    # they are compared with (the class: twelve children, no year group).
    assert len(re.findall(r'class="verdict verdict-', section)) == 2 * 12
    assert re.search(r"\d+ <span class=\"interval\">\(\d+–\d+\)</span>", section)
    assert "this class (11 children): no year group set" in section
    assert "ROAR" in section


def test_the_class_progress_shows_verdicts_in_traditional_chinese(
    teacher: User, seeded: SchoolClass
) -> None:
    client = Client(headers={"accept-language": "zh-hant"})
    client.force_login(teacher)
    page = _text(client.get(reverse("class_overview", args=[seeded.pk])))
    assert "每位學生的情況" in page
    assert "百分等級" in page
    assert "本班（11 位學生）：未設定年級" in page
    assert "百分等級是這個孩子勝過他們的比例" in page  # the legend, in Chinese too


def test_a_students_progress_shows_their_own_verdicts(
    teacher_client: Client, seeded: SchoolClass
) -> None:
    student = seeded.students.order_by("display_name").first()
    assert student is not None
    page = _text(teacher_client.get(reverse("student_progress", args=[seeded.pk, student.pk])))
    assert "How this child is doing" in page
    section = page[page.index('id="verdicts"') :]
    assert len(re.findall(r'class="verdict verdict-', section)) == 2
    # Only this child's: no other child's name in the verdicts.
    others = seeded.students.exclude(pk=student.pk).values_list("display_name", flat=True)
    table = section[: section.index("</table>")]
    assert not any(name in table for name in others)


def test_a_childs_printed_page_has_their_verdicts_and_careful_or_hasty_reading(
    teacher: User, teacher_client: Client
) -> None:
    # Enough match cards a session for a careful-or-hasty reading (40 a child).
    seeded = demo_class_seed(teacher=teacher, students=6, sessions=2, trials_per_session=160)
    student = seeded.students.order_by("display_name").first()
    assert student is not None
    url = reverse("class_progress_print", args=[seeded.pk])
    page = _text(teacher_client.get(url, {"student": student.pk}))
    table = page[page.index("How this child is doing") :]
    table = table[: table.index("</table>")]
    assert len(re.findall(r'class="verdict verdict-', table)) == 2
    assert re.search(r"\d+ <span class=\"interval\">\(\d+–\d+\)</span>", table)
    others = seeded.students.exclude(pk=student.pk).values_list("display_name", flat=True)
    assert not any(name in table for name in others)
    assert "Careful or hasty" in page
    assert "EZ-diffusion: drift rate" in page
    client = Client(headers={"accept-language": "zh-hant"})
    client.force_login(teacher)
    zh = _text(client.get(url, {"student": student.pk}))
    assert "百分等級" in zh
    assert zh.count('class="verdict verdict-') == 2


def test_another_teacher_never_sees_the_verdicts(intruder: Client, seeded: SchoolClass) -> None:
    assert intruder.get(reverse("class_overview", args=[seeded.pk])).status_code == 404


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_no_tablet_or_projector_page_says_a_verdict(
    teacher: User, seeded: SchoolClass, language: str
) -> None:
    student = seeded.students.order_by("display_name").first()
    assert student is not None
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=seeded, players_per_table=2, settings={}
    )
    seat = seat_join_student(session=session, student=student)
    session_start(session=session)
    tablet = Client(headers={"accept-language": language})
    tablet.cookies[seat_cookie_name(session.code)] = seat.token
    pages = [_text(tablet.get(reverse("play_lobby", args=[session.code])))]
    practice_code_open(school_class=seeded)
    practice = Client(headers={"accept-language": language})
    practice.post(reverse("practice_sign_in"), {"code": seeded.practice_code})
    practice.post(
        reverse("practice_sign_in_class", args=[seeded.practice_code]), {"student": student.pk}
    )
    pages += [_text(practice.get(reverse(name))) for name in ("practice_home", "practice_progress")]
    teacher_screen = Client(headers={"accept-language": language})
    teacher_screen.force_login(teacher)
    pages.append(_text(teacher_screen.get(reverse("session_projector", args=[session.pk]))))
    # The same teacher's own page does show them (the words are the ones a page would use).
    overview = _text(teacher_screen.get(reverse("class_overview", args=[seeded.pk])))
    assert any(word in overview for word in VERDICT_WORDS)
    for page in pages:
        assert not [word for word in VERDICT_WORDS if word in page]
        assert 'class="verdict' not in page


# --------------------------------------------------------------------------------------------
# The year group on the class page


@pytest.mark.parametrize("htmx", [False, True])
def test_the_teacher_sets_a_students_year_group(
    teacher_client: Client, school_class: SchoolClass, htmx: bool
) -> None:
    student = school_class.students.get(display_name="Ava")
    page = _text(teacher_client.get(reverse("class_detail", args=[school_class.pk])))
    assert f'id="year-group-{student.pk}"' in page
    url = reverse("student_year_group", args=[school_class.pk, student.pk])
    headers = {"HX-Request": "true"} if htmx else {}
    response = teacher_client.post(url, {"year_group": "3"}, headers=headers)
    assert response.status_code == (200 if htmx else 302)
    student.refresh_from_db()
    assert student.year_group == "3"
    if htmx:
        assert '<option value="3" selected>' in response.content.decode()
    refused = teacher_client.post(url, {"year_group": "blue"}, headers=headers, follow=True)
    student.refresh_from_db()
    assert student.year_group == "3"  # refused: nothing changed
    said = _text(refused)
    assert "Choose a year group from the list." in said
    if htmx:  # beside the year group's choice, not the new badge's button
        year_form = said[said.index(f'id="year-group-{student.pk}"') :]
        assert 'role="alert"' in year_form.split("</form>")[0]
    teacher_client.post(url, {"year_group": ""}, headers=headers)
    student.refresh_from_db()
    assert student.year_group == ""


def test_another_teacher_cannot_set_a_year_group(
    intruder: Client, school_class: SchoolClass
) -> None:
    student = school_class.students.get(display_name="Ava")
    url = reverse("student_year_group", args=[school_class.pk, student.pk])
    assert intruder.post(url, {"year_group": "3"}).status_code == 404
    student.refresh_from_db()
    assert student.year_group == ""
