"""A seeded class with two children who fell behind: the class's progress page shows each
child's verdicts with their percentile intervals, a child's progress page their own, in
English and in Traditional Chinese; the teacher sets a year group on the class page."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT, TABLET, screenshot, teacher_sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.e2e

TEACHER = "ms-verdicts"


@pytest.fixture
def seeded(teacher_page: Page, server_env: dict[str, str]) -> dict[str, object]:
    """A class of 24 in year 3 whose first two children fell behind in their latest session
    (``tests.seeding.verdicts``)."""
    teacher_sign_up(teacher_page, TEACHER)
    script = f"from tests.seeding.verdicts import main; main({TEACHER!r})"
    command = [sys.executable, "manage.py", "shell", "-c", script]
    output = subprocess.check_output(command, cwd=ROOT, env=server_env, text=True)
    found: dict[str, object] = json.loads(output.strip().splitlines()[-1])
    return found


@pytest.mark.timeout(300)
def test_the_teacher_sees_verdicts_with_intervals(
    teacher_page: Page, seeded: dict[str, object], browser: Browser
) -> None:
    teacher = teacher_page
    behind = [int(pk) for pk in seeded["behind"]]  # type: ignore[attr-defined]
    names = [str(name) for name in seeded["behind_names"]]  # type: ignore[attr-defined]
    teacher.goto(f"/classes/{seeded['class']}/progress/")
    verdicts = teacher.locator("#verdicts")
    expect(verdicts.get_by_role("heading", name="How each child is doing")).to_be_visible()
    # Two rows per child (speed, accuracy); the percentile with its interval in brackets.
    expect(verdicts.locator("tbody tr")).to_have_count(2 * 24)
    expect(verdicts.locator(".interval").first).to_have_text(re.compile(r"^\(\d+–\d+\)$"))
    for name in names:
        # The row of their name is their speed's (the accuracy row follows it).
        row = verdicts.get_by_role("row").filter(has=teacher.get_by_role("rowheader", name=name))
        expect(row.locator(".verdict")).to_have_text("may need support")
    expect(verdicts).to_contain_text("this class (23 children): 23 in Year 3 at this school")
    expect(verdicts.locator(".verdict-not_sure").first).to_be_visible()
    verdicts.get_by_role("heading").scroll_into_view_if_needed()
    screenshot(teacher, "verdicts-class-progress")

    teacher.goto(f"/classes/{seeded['class']}/students/{behind[0]}/progress/")
    own = teacher.locator("#verdicts")
    expect(own.get_by_role("heading", name="How this child is doing")).to_be_visible()
    expect(own.locator(".verdict").first).to_have_text("may need support")
    expect(own).to_contain_text("Among the lowest quarter of the children compared with")
    own.get_by_role("heading").scroll_into_view_if_needed()
    screenshot(teacher, "verdicts-student-progress")

    # The year group on the class page: chosen from the list, saved at once.
    teacher.goto(f"/classes/{seeded['class']}/")
    select = teacher.get_by_label(f"Year group of {names[0]}")
    expect(select).to_have_value("3")
    # The reload waits for the save's answer: one sent before it can show the old value.
    with teacher.expect_response(lambda answer: answer.request.method == "POST") as saved:
        select.select_option("4")
    assert saved.value.ok
    expect(teacher.get_by_label(f"Year group of {names[0]}")).to_have_value("4")
    teacher.reload()
    expect(teacher.get_by_label(f"Year group of {names[0]}")).to_have_value("4")
    screenshot(teacher, "verdicts-class-year-group")

    # The same pages on a tablet-sized screen, in Traditional Chinese.
    context = browser.new_context(
        base_url=teacher.url.split("/classes/")[0],
        viewport=TABLET,
        has_touch=True,
        locale="zh-TW",
        extra_http_headers={"Accept-Language": "zh-TW,zh;q=0.9"},
    )
    context.add_cookies(teacher.context.cookies())
    tablet = context.new_page()
    tablet.goto(f"/classes/{seeded['class']}/progress/")
    zh = tablet.locator("#verdicts")
    expect(zh.get_by_role("heading", name="每位學生的情況")).to_be_visible()
    expect(zh).to_contain_text("可能需要協助")
    expect(zh).to_contain_text("百分等級")
    zh.get_by_role("heading").scroll_into_view_if_needed()
    screenshot(tablet, "verdicts-class-progress-zh-tablet")
    tablet.goto(f"/classes/{seeded['class']}/students/{behind[1]}/progress/")
    expect(tablet.locator("#verdicts")).to_contain_text("在所比較的孩子中最後四分之一")
    tablet.locator("#verdicts").get_by_role("heading").scroll_into_view_if_needed()
    screenshot(tablet, "verdicts-student-progress-zh-tablet")
    context.close()
