"""Reports for home as a teacher gets them: the class page's and a child's progress page's
button, the task worker's build, the page that follows it, and the finished file; only the
teacher who asked, and only while they may see the class."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from classroom.models import Export
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.classes import class_create
from classroom.services.exports import HOME, export_run
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import GameSession, SchoolClass

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("queued_tasks")]

HTMX = {"HX-Request": "true"}


@pytest.fixture
def played(make_session: Callable[..., GameSession], school_class: SchoolClass) -> None:
    """Ava and Ben played two sessions a week apart; the others never played."""
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"]).order_by("pk")
    for days in (9, 2):
        at = timezone.now() - timedelta(days=days)
        session = make_session(school_class=school_class)
        seats = played_session(session=session, students=[ava, ben], started=at)
        for flip in range(10):
            for seat in seats.values():
                trial_add(
                    seat=seat, target=True, responded=True, rt_ms=500 + flip,
                    at=at + timedelta(seconds=flip), flip=flip + 1,
                )  # fmt: skip


def _pages(html: str) -> list[str]:
    return re.findall(r'<article class="home-page">(.*?)</article>', html, flags=re.DOTALL)


def test_the_class_set_is_prepared_by_the_worker_one_page_a_child(
    teacher_client: Client, school_class: SchoolClass, played: None, transactional_db: None
) -> None:
    detail = teacher_client.get(reverse("class_detail", args=[school_class.pk])).content.decode()
    action = reverse("class_home_reports_prepare", args=[school_class.pk])
    assert action in detail
    response = teacher_client.post(action, {"period": "4w", "language": "en"})
    export = Export.objects.get(kind=HOME, school_class=school_class)
    assert response["Location"] == reverse("home_report_status", args=[export.pk])
    assert (export.status, export.student, export.period) == ("queued", None, "4w")
    # A second click while it waits: the same one, nothing queued twice.
    teacher_client.post(action, {"period": "4w", "language": "en"})
    assert Export.objects.filter(kind=HOME).count() == 1

    status = reverse("home_report_status", args=[export.pk])
    waiting = teacher_client.get(status).content.decode()
    assert "Reports: waiting to start…" in waiting
    assert 'hx-trigger="every 1s"' in waiting
    assert reverse("home_report_file", args=[export.pk]) not in waiting

    # The task worker, as ``make run`` starts it, builds it.
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--niceness", "0", "-v", "0")
    export.refresh_from_db()
    assert export.status == Export.Status.READY
    assert export.done == export.total == school_class.students.count()

    polled = teacher_client.get(status, headers=HTMX).content.decode()
    assert "hx-trigger" not in polled
    file_url = reverse("home_report_file", args=[export.pk])
    assert file_url in polled
    opened = teacher_client.get(file_url)
    assert opened["Content-Type"] == "text/html; charset=utf-8"
    assert opened["Cache-Control"] == "private, no-store"
    # The site's policy: its style sheet, nothing inline.
    assert "style-src 'self'" in opened["Content-Security-Policy"]
    html = opened.content.decode()
    pages = _pages(html)
    names = list(
        school_class.students.order_by("display_name").values_list("display_name", flat=True)
    )
    assert len(pages) == len(names)
    for name, page in zip(names, pages, strict=True):
        # Each page names its own child, and no other.
        assert f"<h1>{name}</h1>" in page
        assert [other for other in names if other != name and other in page] == []
    assert "Palm Strike" in pages[0]  # Ava played
    assert "has not played in this period yet" in pages[2]  # Chen did not
    assert "css/home_report" in html


def test_one_childs_report_from_their_progress_page_in_chinese(
    teacher_client: Client, school_class: SchoolClass, played: None
) -> None:
    ava = school_class.students.get(display_name="Ava")
    progress = teacher_client.get(
        reverse("student_progress", args=[school_class.pk, ava.pk])
    ).content.decode()
    action = reverse("student_home_report_prepare", args=[school_class.pk, ava.pk])
    assert action in progress
    teacher_client.post(action, {"period": "12w", "language": "zh-hant"})
    export = Export.objects.get(kind=HOME, student=ava)
    assert (export.language, export.period) == ("zh-hant", "12w")
    export_run(export_id=export.pk)
    html = teacher_client.get(reverse("home_report_file", args=[export.pk])).content.decode()
    assert '<html lang="zh-Hant">' in html
    (page,) = _pages(html)
    assert "給家長的報告" in page
    assert "最近 12 週" in page
    assert "Ben" not in page
    # The same child in English is another file: a family may need both.
    teacher_client.post(action, {"period": "12w", "language": "en"})
    assert Export.objects.filter(kind=HOME, student=ava).count() == 2


def test_a_bad_period_or_language_changes_nothing(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    action = reverse("class_home_reports_prepare", args=[school_class.pk])
    for data in ({"period": "1y", "language": "en"}, {"period": "4w", "language": "fr"}, {}):
        response = teacher_client.post(action, data)
        assert response.status_code == 302
        assert response["Location"] == reverse("class_overview", args=[school_class.pk])
    assert not Export.objects.exists()


def test_another_teacher_sees_none_of_it(
    teacher_client: Client,
    intruder: Client,
    school_class: SchoolClass,
    played: None,
    make_teacher: Callable[..., User],
) -> None:
    ava = school_class.students.get(display_name="Ava")
    data = {"period": "4w", "language": "en"}
    teacher_client.post(reverse("class_home_reports_prepare", args=[school_class.pk]), data)
    export = Export.objects.get(kind=HOME)
    export_run(export_id=export.pk)
    for url in (
        reverse("home_report_status", args=[export.pk]),
        reverse("home_report_file", args=[export.pk]),
    ):
        assert intruder.get(url).status_code == 404
    for url in (
        reverse("class_home_reports_prepare", args=[school_class.pk]),
        reverse("student_home_report_prepare", args=[school_class.pk, ava.pk]),
    ):
        assert intruder.post(url, data).status_code == 404
    assert Export.objects.count() == 1
    # A child of another class, under this class's address: 404 too.
    other = class_create(teacher=make_teacher("ms-ho"), name="Other", student_names=["Zoe"])
    zoe = other.students.get()
    url = reverse("student_home_report_prepare", args=[school_class.pk, zoe.pk])
    assert teacher_client.post(url, data).status_code == 404
    # The workbook and print routes do not hand the file out either.
    assert teacher_client.get(reverse("export_file", args=[export.pk])).status_code == 404


def test_a_colleague_whose_share_is_revoked_loses_their_reports(
    teacher: User,
    school_class: SchoolClass,
    played: None,
    make_teacher: Callable[..., User],
    client: Client,
) -> None:
    colleague = make_teacher("mr-tan")
    share = class_share_grant(
        school_class=school_class, by=teacher, colleague="mr-tan", role="co_teacher"
    )
    client.force_login(colleague)
    client.post(
        reverse("class_home_reports_prepare", args=[school_class.pk]),
        {"period": "all", "language": "en"},
    )
    export = Export.objects.get(kind=HOME, owner=colleague)
    export_run(export_id=export.pk)
    file_url = reverse("home_report_file", args=[export.pk])
    assert client.get(file_url).status_code == 200
    class_share_revoke(share=share, by=teacher)
    assert client.get(file_url).status_code == 404


def test_a_file_gone_from_disk_is_not_found(
    teacher_client: Client, school_class: SchoolClass, queued_tasks: Any
) -> None:
    teacher_client.post(
        reverse("class_home_reports_prepare", args=[school_class.pk]),
        {"period": "4w", "language": "en"},
    )
    export = Export.objects.get(kind=HOME)
    export_run(export_id=export.pk)
    for path in queued_tasks.rglob("*.html"):
        path.unlink()
    assert teacher_client.get(reverse("home_report_file", args=[export.pk])).status_code == 404
