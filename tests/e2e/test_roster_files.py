"""A teacher adds students from a school export: the preview marks a problem on its line,
the teacher leaves that line out and confirms."""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import expect

from tests.e2e.conftest import screenshot, teacher_sign_up

if TYPE_CHECKING:
    from pathlib import Path

    from playwright.sync_api import Page

EXPORT = "Student number,First name,Last name\n101,Mia,Lee\n102,,Chen\n103,Noah,Kao\n104,Mia,Kao\n"


def test_a_teacher_uploads_a_class_list_drops_the_bad_line_and_confirms(
    teacher_page: Page, tmp_path: Path
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-roster")
    teacher.get_by_role("link", name="New class").click()
    teacher.get_by_label("Class name").fill("Year 4 Owls")
    teacher.get_by_label("Student names").fill("Ava")
    teacher.get_by_role("button", name="Save").click()
    class_url = teacher.url

    teacher.get_by_role("link", name="Add from a file").click()
    export = tmp_path / "owls.csv"
    export.write_text(EXPORT, encoding="utf-8")
    teacher.get_by_label("Class list file (CSV)").set_input_files(str(export))
    teacher.get_by_role("button", name="Show the list").click()

    problem = teacher.locator("#roster-line-3")
    expect(problem).to_have_class("roster-problem")
    expect(problem).to_contain_text("No first name on this line.")
    expect(teacher.locator("#roster-line-2")).to_contain_text("Mia L.")
    expect(teacher.get_by_text("1 line has a problem")).to_be_visible()
    screenshot(teacher, "roster-preview")

    # Confirming with the problem kept saves nothing and says why.
    teacher.get_by_role("button", name="Add these students").click()
    expect(teacher.get_by_text("Nothing was saved.")).to_be_visible()
    expect(teacher.locator("#roster-line-3")).to_have_class("roster-problem")

    teacher.get_by_label("Leave out line 3").check()
    teacher.get_by_role("button", name="Add these students").click()
    teacher.wait_for_url(class_url)
    expect(teacher.get_by_text("3 students added from the file.")).to_be_visible()
    students = teacher.get_by_role("table").get_by_role("rowheader")
    expect(students).to_have_text(["Ava", "Mia K.", "Mia L.", "Noah"])
    screenshot(teacher, "roster-added")
