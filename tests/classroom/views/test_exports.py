"""The workbook panel: Prepare, progress while the worker builds it, the file when ready, a
clear message and a retry when it fails; only its owner sees any of it."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from classroom.exports.downloads import WORKBOOK
from classroom.models import ClassShare, Export
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.exports import export_prepare, export_run

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

HTMX = {"HX-Request": "true"}

pytestmark = pytest.mark.usefixtures("queued_tasks")


def test_the_report_offers_to_prepare_the_workbook_and_a_codebook(
    teacher_client: Client, class_session: GameSession
) -> None:
    page = teacher_client.get(reverse("session_report", args=[class_session.pk])).content.decode()
    assert 'id="workbook-panel"' in page
    assert reverse("session_export_prepare", args=[class_session.pk]) in page
    assert "Prepare workbook (.xlsx)" in page
    assert reverse("session_export", args=[class_session.pk, "codebook.csv"]) in page


def test_prepare_shows_progress_that_polls_until_the_file_is_ready(
    teacher_client: Client, class_session: GameSession
) -> None:
    url = reverse("session_export_prepare", args=[class_session.pk])
    panel = teacher_client.post(url, headers=HTMX)
    assert panel.status_code == 200
    export = Export.objects.get()
    status_url = reverse("export_status", args=[export.pk])
    text = panel.content.decode()
    assert f'hx-get="{status_url}"' in text
    assert 'hx-trigger="every 1s"' in text
    assert "Workbook: waiting to start…" in text

    Export.objects.filter(pk=export.pk).update(status="running", done=40, total=100)
    running = teacher_client.get(status_url).content.decode()
    assert 'value="40"' in running
    assert "Preparing the workbook… 40 %" in running
    assert "40 of 100 trials written" in running

    Export.objects.filter(pk=export.pk).update(status="queued")  # as the worker finds it
    export_run(export_id=export.pk)
    ready = teacher_client.get(status_url).content.decode()
    assert "hx-trigger" not in ready  # the polling stops
    assert f'href="{reverse("export_file", args=[export.pk])}"' in ready
    assert "Download workbook (.xlsx)" in ready
    assert "Prepare again" in ready

    download = teacher_client.get(reverse("export_file", args=[export.pk]))
    assert download.status_code == 200
    assert download["Content-Type"].startswith("application/vnd.openxmlformats")
    assert download["Cache-Control"] == "private, no-store"
    assert f"snapclass-{class_session.code}-workbook.xlsx" in download["Content-Disposition"]


def test_a_second_click_shows_the_same_export(
    teacher_client: Client, class_session: GameSession
) -> None:
    url = reverse("session_export_prepare", args=[class_session.pk])
    teacher_client.post(url, headers=HTMX)
    teacher_client.post(url, headers=HTMX)
    assert Export.objects.count() == 1


def test_without_htmx_prepare_returns_to_the_page(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    response = teacher_client.post(reverse("class_export_prepare", args=[school_class.pk]))
    assert response.status_code == 302
    assert response["Location"] == (
        reverse("class_overview", args=[school_class.pk]) + "#downloads"
    )
    page = teacher_client.get(response["Location"]).content.decode()
    assert "Workbook: waiting to start…" in page


def test_a_failure_is_told_with_a_retry(
    teacher_client: Client, teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    Export.objects.filter(pk=export.pk).update(
        status="failed", error="The server could not write the file (No space left on device)."
    )
    panel = teacher_client.get(reverse("export_status", args=[export.pk])).content.decode()
    assert 'role="alert"' in panel
    assert "No space left on device" in panel
    retry = reverse("export_again", args=[export.pk])
    assert f'hx-post="{retry}"' in panel
    again = teacher_client.post(retry, headers=HTMX)
    assert again.status_code == 200
    assert "Workbook: waiting to start…" in again.content.decode()
    assert Export.objects.filter(status="queued").count() == 1


def test_retrying_a_ready_file_is_refused_with_a_reason(
    teacher_client: Client, teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    export_run(export_id=export.pk)
    response = teacher_client.post(reverse("export_again", args=[export.pk]), headers=HTMX)
    assert response.status_code == 409
    assert "This file is ready" in response.content.decode()
    assert Export.objects.count() == 1


def test_the_codebook_describes_every_column(
    teacher_client: Client, class_session: GameSession
) -> None:
    response = teacher_client.get(
        reverse("session_export", args=[class_session.pk, "codebook.csv"])
    )
    assert response.status_code == 200
    assert f"snapclass-{class_session.code}-codebook.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "Section",
        "Item",
        "Value or meaning",
        "Unit or values",
        "Formula and source",
    ]
    columns = [row for row in rows if row[0] in {"Trials file columns", "Summary file columns"}]
    assert len(columns) > 30
    assert all(row[2] for row in columns), [row[1] for row in columns if not row[2]]
    by_item = {row[1]: row for row in columns}
    assert by_item["Game number"][3] == "count"
    assert by_item["RT (ms)"][3] == "ms"
    assert "Hautus 1995" in by_item["d′ (sensitivity)"][4]
    assert "``" not in by_item["Median correct RT (ms)"][4]
    file_rows = {row[1]: row[2] for row in rows if row[0] == "This file"}
    assert file_rows["Made by"].startswith("Snapclass ")
    assert file_rows["Of"] == f"Session {class_session.code}"


# --------------------------------------------------------------------------------------------
# Only the owner


def test_another_teacher_gets_404_for_every_export_url(
    intruder: Client, teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    export_run(export_id=export.pk)
    for name in ("export_status", "export_file"):
        assert intruder.get(reverse(name, args=[export.pk])).status_code == 404
    assert intruder.post(reverse("export_again", args=[export.pk])).status_code == 404
    assert (
        intruder.post(reverse("session_export_prepare", args=[class_session.pk])).status_code == 404
    )
    assert (
        intruder.get(reverse("session_export", args=[class_session.pk, WORKBOOK])).status_code
        == 404
    )
    assert Export.objects.count() == 1


def test_the_owner_does_not_see_another_teachers_export_of_a_shared_thing(
    teacher_client: Client, other_teacher: User, make_session: Any
) -> None:
    # Another teacher's session: the owner of this client has no way to its export.
    theirs = make_session(owner=other_teacher)
    export = export_prepare(owner=other_teacher, kind=WORKBOOK, session=theirs)
    assert teacher_client.get(reverse("export_status", args=[export.pk])).status_code == 404


def test_a_colleague_prepares_their_own_workbook_and_loses_it_when_the_share_is_revoked(
    teacher: User, other_teacher: User, class_session: GameSession
) -> None:
    share = class_share_grant(
        school_class=class_session.school_class,
        by=teacher,
        colleague=other_teacher.username,
        role=ClassShare.Role.SUBSTITUTE,
    )
    colleague = Client()
    colleague.force_login(other_teacher)
    assert colleague.post(reverse("session_export_prepare", args=[class_session.pk])).status_code
    export = Export.objects.get(owner=other_teacher)
    export_run(export_id=export.pk)
    assert colleague.get(reverse("export_file", args=[export.pk])).status_code == 200

    class_share_revoke(share=share, by=teacher)
    for name in ("export_status", "export_file"):
        assert colleague.get(reverse(name, args=[export.pk])).status_code == 404
    assert colleague.post(reverse("export_again", args=[export.pk])).status_code == 404


def test_prepare_is_post_only(teacher_client: Client, class_session: GameSession) -> None:
    url = reverse("session_export_prepare", args=[class_session.pk])
    assert teacher_client.get(url).status_code == 405
    assert not Export.objects.exists()
