"""A seeded class with a child who changed and a flagged run: the class overview and the
progress page say "improved" by the reliable-change rule, the per-child page says why a run
was flagged, and the teacher keeps it; in English and in Traditional Chinese."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT, TABLET, screenshot, teacher_sign_up

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator

pytestmark = pytest.mark.e2e

TEACHER = "ms-change"
SEED = """
import json
import django
django.setup()
from django.contrib.auth.models import User
from tests.seeding.changes import changed_class_seed
found = changed_class_seed(teacher=User.objects.get(username="%s"))
print(json.dumps({
    "class": found.school_class.pk, "changed": found.changed.pk,
    "changed_name": found.changed.display_name, "anticipator": found.anticipator.pk,
    "anticipator_name": found.anticipator.display_name, "session": found.latest.pk,
    "seat": found.flagged_seat.pk,
}))
"""


@pytest.fixture
def seeded(teacher_page: Page, server_env: dict[str, str]) -> dict[str, object]:
    teacher_sign_up(teacher_page, TEACHER)
    done = subprocess.run(
        [sys.executable, "-c", SEED % TEACHER],
        cwd=ROOT, env=server_env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    found: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


@pytest.mark.timeout(300)
def test_reliable_change_and_keeping_a_flagged_run(
    teacher_page: Page, seeded: dict[str, object], browser: Browser
) -> None:
    teacher = teacher_page
    overview = f"/classes/{seeded['class']}/progress/"
    teacher.goto(overview)
    # Her first row: the progress table's (the verdicts below name her again).
    changed_row = (
        teacher.get_by_role("row")
        .filter(has=teacher.get_by_role("rowheader", name=str(seeded["changed_name"])))
        .first
    )
    expect(changed_row.locator(".trend-up")).to_contain_text("improved")
    # Figures with their intervals in brackets after them.
    expect(changed_row.locator(".interval").first).to_have_text(re.compile(r"^\(.+–.+\)$"))
    flagged_row = (
        teacher.get_by_role("row")
        .filter(
            has=teacher.get_by_role("rowheader", name=str(seeded["anticipator_name"]), exact=False)
        )
        .first
    )
    expect(flagged_row.locator(".run-flag-mark")).to_be_visible()
    screenshot(teacher, "reliable-change-overview")
    # What "needs more play" is measured against: each measure's reliability in the class.
    reliabilities = teacher.locator("details.reliabilities")
    # A fold-out says it opens: a marker before its title, turned once open.
    closed_marker = _marker(reliabilities)
    assert closed_marker not in ("none", "normal", '""'), closed_marker
    reliabilities.locator("summary").click()
    assert _marker(reliabilities) != closed_marker
    expect(reliabilities.get_by_role("rowheader", name="Median RT")).to_be_visible()
    expect(reliabilities).to_contain_text("Palm Strike · Advanced")
    reliabilities.scroll_into_view_if_needed()
    screenshot(teacher, "reliable-change-class-reliability")

    teacher.goto(f"/classes/{seeded['class']}/students/{seeded['changed']}/progress/")
    change = teacher.locator(".reliable-change")
    expect(change.get_by_role("heading", name="Reliable change")).to_be_visible()
    expect(change.locator(".change-line")).to_contain_text("speed ▲ improved")
    change.scroll_into_view_if_needed()
    screenshot(teacher, "reliable-change-progress")

    # The session's report: every child's figures with their intervals.
    teacher.goto(f"/sessions/{seeded['session']}/report/")
    expect(teacher.locator("#by-student ~ .table-scroll .interval").first).to_be_visible()
    screenshot(teacher, "reliable-change-session-report")

    teacher.goto(f"/sessions/{seeded['session']}/report/seats/{seeded['seat']}/")
    run = teacher.locator("#run-flag")
    expect(run).to_contain_text("many taps before the card could be seen")
    expect(run).to_contain_text("may retake")
    expect(run).to_contain_text("Left out of trends")
    run.get_by_role("button", name="Keep this run").click()
    expect(run.get_by_role("status")).to_have_text(
        "Kept: this run counts in trends and the class’s norms."
    )
    run.scroll_into_view_if_needed()
    screenshot(teacher, "reliable-change-kept-run")
    # Kept, it counts again: the overview no longer marks it, and the page remembers.
    teacher.goto(overview)
    expect(flagged_row.locator(".run-flag-mark")).to_have_count(0)
    # Every tap before the card: the speed cell says why it has no number.
    expect(flagged_row).to_contain_text("no right answer to time")
    flagged_row.scroll_into_view_if_needed()
    screenshot(teacher, "reliable-change-overview-no-right-answer")
    teacher.goto(f"/sessions/{seeded['session']}/report/seats/{seeded['seat']}/")
    teacher.locator("#run-flag").get_by_role("button", name="Leave this run out").click()
    expect(teacher.locator("#run-flag")).to_contain_text("Left out of trends")
    # The class's files, as the overview's buttons download them: the run left out of the
    # summary's figures, and said so; each of its trials marked.
    teacher.goto(overview)
    summary = _downloaded_csv(teacher, "Summary (CSV)")
    name = str(seeded["anticipator_name"])
    (row,) = [r for r in summary if r["Name"] == name and r["Level"] == "all"]
    assert row["Run flags"] == "1 flagged run left out of these figures"
    trials = _downloaded_csv(teacher, "Trials (CSV)")
    flags = {r["Run flag"] for r in trials if r["Name"] == name}
    assert flags == {"", "many taps before the card could be seen; flagged, left out"}

    # The same pages on a tablet, in Traditional Chinese.
    context = browser.new_context(
        base_url=teacher.url.split("/sessions/")[0],
        viewport=TABLET,
        has_touch=True,
        locale="zh-TW",
        extra_http_headers={"Accept-Language": "zh-TW,zh;q=0.9"},
    )
    context.add_cookies(teacher.context.cookies())
    tablet = context.new_page()
    tablet.goto(f"/classes/{seeded['class']}/students/{seeded['changed']}/progress/")
    expect(tablet.locator(".reliable-change")).to_contain_text("進步了")
    tablet.locator(".reliable-change").scroll_into_view_if_needed()
    screenshot(tablet, "reliable-change-progress-zh-tablet")
    tablet.goto(f"/sessions/{seeded['session']}/report/seats/{seeded['seat']}/")
    expect(tablet.locator("#run-flag")).to_contain_text("可以重做一次")
    tablet.locator("#run-flag").get_by_role("button", name="保留這一回合").click()
    expect(tablet.locator("#run-flag").get_by_role("status")).to_contain_text("保留")
    screenshot(tablet, "reliable-change-kept-run-zh-tablet")
    context.close()


def _downloaded_csv(page: Page, link: str) -> list[dict[str, str]]:
    with page.expect_download() as downloaded:
        page.get_by_role("link", name=link).click()
    text = Path(downloaded.value.path()).read_text(encoding="utf-8-sig")
    return list(csv.DictReader(text.splitlines()))


def _marker(details: Locator) -> str:
    """What a fold-out's title shows before it (its ``::before`` content)."""
    return str(
        details.locator("summary").evaluate("el => getComputedStyle(el, '::before').content")
    )
