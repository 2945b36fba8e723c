"""A class's printed reports, prepared in the background: the overview's button queues them,
the print page shows their progress (polled by htmx) and then a page per student; they stay
for later, go when a student leaves the class, and only their preparer sees them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from classroom.models import Export
from classroom.services.classes import student_remove
from classroom.services.exports import REPORTS, export_file_path, export_run
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from django.test import Client

    from classroom.models import GameSession, SchoolClass

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("queued_tasks")]

HTMX = {"HX-Request": "true"}


@pytest.fixture
def played(make_session: Any, school_class: SchoolClass) -> GameSession:
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"])
    session = make_session(school_class=school_class)
    seats = played_session(session=session, students=[ava, ben])
    for rt in (400, 420, 440):
        trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=rt)
        trial_add(seat=seats[ben.pk], target=True, responded=False)
    return session


def _prepare(client: Client, school_class: SchoolClass, **data: str) -> Export:
    response = client.post(reverse("class_reports_prepare", args=[school_class.pk]), data)
    assert response.status_code == 302
    export = Export.objects.get(kind=REPORTS, school_class=school_class, status="queued")
    assert response["Location"].startswith(reverse("class_progress_print", args=[school_class.pk]))
    return export


def test_the_overview_button_queues_the_reports_and_the_page_polls_until_ready(
    teacher_client: Client, school_class: SchoolClass, played: GameSession
) -> None:
    overview = teacher_client.get(
        reverse("class_overview", args=[school_class.pk])
    ).content.decode()
    assert reverse("class_reports_prepare", args=[school_class.pk]) in overview
    export = _prepare(teacher_client, school_class)
    # A second click while they wait: the same reports, nothing queued twice.
    _prepare(teacher_client, school_class)
    assert Export.objects.filter(kind=REPORTS).count() == 1

    url = reverse("class_progress_print", args=[school_class.pk])
    waiting = teacher_client.get(url).content.decode()
    assert "Reports: waiting to start…" in waiting
    assert 'hx-trigger="every 1s"' in waiting
    assert 'class="print-page' not in waiting
    assert "data-print" not in waiting  # nothing to print yet

    export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Export.Status.READY
    assert export.done == export.total == school_class.students.count()

    # htmx's next poll gets only the part, without a trigger: polling stops by itself.
    polled = teacher_client.get(url, headers=HTMX).content.decode()
    assert polled.lstrip().startswith('<div id="prepared-reports"')
    assert "<html" not in polled
    assert "hx-trigger" not in polled
    assert polled.count('class="print-page') == school_class.students.count()
    assert "data-print" in polled
    # Later, without building again: the page and the overview's link show the same file.
    again = teacher_client.get(url).content.decode()
    assert again.count('class="print-page') == school_class.students.count()
    assert Export.objects.filter(kind=REPORTS).count() == 1
    overview = teacher_client.get(
        reverse("class_overview", args=[school_class.pk])
    ).content.decode()
    assert "Reports of " in overview


def test_reports_of_one_game_are_their_own(
    teacher_client: Client, school_class: SchoolClass, played: GameSession
) -> None:
    export = _prepare(teacher_client, school_class, game="palm_strike")
    assert export.game == "palm_strike"
    export_run(export_id=export.pk)
    url = reverse("class_progress_print", args=[school_class.pk])
    assert (
        teacher_client.get(url, {"game": "palm_strike"}).content.decode().count('class="print-page')
        > 0
    )
    # Every game's reports are another file, not prepared yet.
    assert "Prepare the reports" in teacher_client.get(url).content.decode()


def test_a_failed_build_says_why_and_tries_again_from_the_print_page(
    teacher_client: Client, school_class: SchoolClass, played: GameSession, monkeypatch: Any
) -> None:
    export = _prepare(teacher_client, school_class)

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("classroom.services.exports.class_reports_context", broken)
    with pytest.raises(RuntimeError):
        export_run(export_id=export.pk)
    url = reverse("class_progress_print", args=[school_class.pk])
    page = teacher_client.get(url).content.decode()
    assert "The reports could not be prepared: Something went wrong" in page
    assert reverse("export_again", args=[export.pk]) in page
    retried = teacher_client.post(reverse("export_again", args=[export.pk]))
    assert retried.status_code == 302
    assert retried["Location"] == url
    assert Export.objects.filter(kind=REPORTS, status="queued").count() == 1


def test_printed_reports_are_shown_not_downloaded_and_only_to_their_preparer(
    teacher_client: Client, intruder: Client, school_class: SchoolClass, played: GameSession
) -> None:
    export = _prepare(teacher_client, school_class)
    export_run(export_id=export.pk)
    assert teacher_client.get(reverse("export_file", args=[export.pk])).status_code == 404
    for url in [
        reverse("class_progress_print", args=[school_class.pk]),
        reverse("export_status", args=[export.pk]),
        reverse("export_file", args=[export.pk]),
    ]:
        assert intruder.get(url).status_code == 404, url
    assert (
        intruder.post(reverse("class_reports_prepare", args=[school_class.pk])).status_code == 404
    )


def test_a_student_leaving_the_class_takes_every_prepared_file_with_their_name(
    teacher_client: Client,
    school_class: SchoolClass,
    played: GameSession,
    django_capture_on_commit_callbacks: Any,
) -> None:
    export = _prepare(teacher_client, school_class)
    export_run(export_id=export.pk)
    export.refresh_from_db()
    path = export_file_path(export)
    assert path is not None
    assert "Ben" in path.read_text()
    with django_capture_on_commit_callbacks(execute=True):
        student_remove(student=school_class.students.get(display_name="Ben"))
    assert not Export.objects.filter(pk=export.pk).exists()
    assert not path.exists()
    page = teacher_client.get(
        reverse("class_progress_print", args=[school_class.pk])
    ).content.decode()
    assert "Ben" not in page
    assert "Prepare the reports" in page
