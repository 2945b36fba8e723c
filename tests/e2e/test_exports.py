"""A teacher prepares a class workbook of 120,000 trials: Prepare, progress, the download, and
the same file again later without building it again; then the class's printed reports the same
way (the task worker runs beside Daphne, as ``make run`` starts it)."""

from __future__ import annotations

import io
import re
import sqlite3
from pathlib import Path

import openpyxl
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, seeded_class

pytestmark = pytest.mark.e2e

TEACHER = "ms-exports"
SEED = """
import django
django.setup()
from django.contrib.auth.models import User
from tests.seeding.palm_strike import demo_class_seed as seed
school_class = seed(teacher=User.objects.get(username="%s"), students=30, sessions=20,
                    trials_per_session=200, seed=3)
print(school_class.pk)
"""


def _exports(database: Path) -> list[tuple[str, int, int]]:
    """This teacher's exports: the live server's database is shared with the other browser
    tests of the worker, some of which ask for workbooks of their own."""
    with sqlite3.connect(database) as db:
        return db.execute(
            "SELECT e.status, e.done, e.total FROM classroom_export e"
            " JOIN auth_user u ON u.id = e.owner_id WHERE u.username = ? ORDER BY e.id",
            (TEACHER,),
        ).fetchall()


# Seeding 120,000 trials and building their workbook take a minute or more on a busy machine.
@pytest.mark.timeout(600)
@pytest.mark.usefixtures("task_worker")
def test_prepare_download_shows_progress_and_keeps_the_file(
    teacher_page: Page, server_env: dict[str, str]
) -> None:
    teacher = teacher_page
    class_id = seeded_class(teacher, TEACHER, SEED, server_env)
    database = Path(server_env["DATABASE_URL"].removeprefix("sqlite:///"))

    teacher.goto(f"/classes/{class_id}/progress/")
    teacher.get_by_role("button", name="Prepare workbook (.xlsx)").click()
    panel = teacher.locator("#workbook-panel")
    expect(panel.locator("progress")).to_be_visible(timeout=5000)
    # The bar moves while the worker writes the rows (htmx asks again every second).
    teacher.wait_for_function(
        "() => { const p = document.querySelector('#workbook-panel progress');"
        " return p && p.value > 0; }",
        timeout=240000,
    )
    expect(panel).to_contain_text("trials written")
    screenshot(teacher, "exports-progress")
    download_link = panel.get_by_role("link", name="Download workbook (.xlsx)")
    expect(download_link).to_be_visible(timeout=240000)
    expect(panel).to_contain_text("Prepared")
    screenshot(teacher, "exports-ready")
    assert _exports(database) == [("ready", 120000, 120000)]

    with teacher.expect_download() as downloaded:
        download_link.click()
    path = downloaded.value.path()
    assert downloaded.value.suggested_filename.endswith("-workbook.xlsx")
    workbook = openpyxl.load_workbook(io.BytesIO(Path(path).read_bytes()), read_only=True)
    assert workbook.sheetnames == ["Trials", "Summary", "About"]
    assert workbook["Trials"].max_row == 1 + 120000

    # Later: the page offers the same file, and nothing is built again.
    teacher.reload()
    again = teacher.locator("#workbook-panel").get_by_role("link", name="Download workbook (.xlsx)")
    expect(again).to_be_visible()
    assert len(_exports(database)) == 1

    # The class's printed reports: prepared by the same worker, shown on their page when ready.
    teacher.goto(f"/classes/{class_id}/progress/")
    teacher.get_by_role("button", name="Print reports").click()
    expect(teacher).to_have_url(f"/classes/{class_id}/progress/print/")
    reports = teacher.locator("#prepared-reports")
    # Waiting, being prepared, or (the worker was quicker than this page) ready already.
    expect(reports).to_contain_text(
        re.compile(r"Reports: waiting to start|Preparing the reports|Prepared")
    )
    expect(teacher.locator(".print-page")).to_have_count(30, timeout=240000)
    expect(reports.get_by_role("button", name="Print or save as PDF")).to_be_visible()
    expect(reports).to_contain_text("Prepared")
    screenshot(teacher, "exports-printed-reports")
    assert _exports(database)[-1] == ("ready", 30, 30)
    # Later, from the overview's link: the same reports, nothing built again.
    teacher.goto(f"/classes/{class_id}/progress/")
    teacher.get_by_role("link", name="Reports of").click()
    expect(teacher.locator(".print-page")).to_have_count(30)
    assert len(_exports(database)) == 2
