"""A class's printed reports as a teacher gets them: the overview's "Print reports" button,
the task worker's build (run here in the test, as ``tasks_worker`` would), then the page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.test import override_settings
from django.urls import reverse

from classroom.models import Export
from classroom.services.exports import REPORTS, export_run

if TYPE_CHECKING:
    from pathlib import Path

    from django.test import Client

    from classroom.models import SchoolClass

# Enqueued into the database, as on the site, and built by calling the task's body.
DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def reports_printed(
    client: Client, school_class: SchoolClass, *, exports_root: Path, game: str = ""
) -> str:
    """The print page after preparing the class's reports (of ``game``, or every game)."""
    with override_settings(TASKS=DATABASE_TASKS, EXPORTS_ROOT=exports_root):
        prepared = client.post(
            reverse("class_reports_prepare", args=[school_class.pk]),
            {"game": game} if game else {},
        )
        assert prepared.status_code == 302, prepared.status_code
        export = Export.objects.filter(kind=REPORTS, school_class=school_class).latest("pk")
        export_run(export_id=export.pk)
        page = client.get(prepared["Location"])
        assert page.status_code == 200
        return page.content.decode()
