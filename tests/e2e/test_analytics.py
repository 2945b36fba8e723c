"""The teacher watches skills live during a scripted game, then opens the reports."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import ARTIFACTS, screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster
from tests.e2e.test_palm_strike import slap_matches

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

PLAYERS = ["Ava", "Ben", "Chen"]


def _create_auto_class_session(teacher: Page) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_label("Matching level").select_option("beginner")
    teacher.get_by_label("Response window (seconds)").fill("1.5")
    teacher.get_by_label("Flip pacing").select_option("auto")
    teacher.get_by_label("Auto-flip every (seconds)").fill("2")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def started_with_tablets(
    teacher: Page, code: str, new_tablet: Callable[[], Page]
) -> dict[str, Page]:
    """Ava, Ben and Chen join on their tablets by the class list; the teacher starts the game
    and the tablets show their cards. The tablets by name."""
    tablets = {name: new_tablet() for name in PLAYERS}
    for name, tablet in tablets.items():
        _join_by_roster(tablet, code, name)
    teacher.get_by_role("button", name="Start").click()
    for tablet in tablets.values():
        expect(tablet.get_by_role("region", name="Your cards")).to_be_visible(timeout=20000)
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view"
        )
    return tablets


def _trials_shown(teacher: Page, name: str) -> int:
    tile = teacher.locator(".student-tile", has_text=name)
    text = tile.locator("dt:has-text('Trials') + dd").inner_text()
    return int(text)


def test_the_dashboard_changes_during_play_and_the_reports_open_after(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-analytics")
    _create_class(teacher)
    class_url = teacher.url
    code = _create_auto_class_session(teacher)
    console_url = teacher.url
    ava = started_with_tablets(teacher, code, new_tablet)["Ava"]

    dashboard = teacher.get_by_role("region", name="Live skills")
    expect(dashboard.locator(".student-tile")).to_have_count(3, timeout=15000)
    first_count = _trials_shown(teacher, "Ava")
    # Ava slaps the matching cards of a few flips; the tiles follow without a reload.
    assert slap_matches(ava, slaps=2, seconds=45) == 2
    expect(dashboard.locator(".student-tile", has_text="Ava").locator("dd").first).to_contain_text(
        "ms", timeout=8000
    )
    teacher.wait_for_function(
        f"""() => {{
            const tile = [...document.querySelectorAll('.student-tile')]
                .find(t => t.textContent.includes('Ava'));
            const dd = tile && [...tile.querySelectorAll('dt')]
                .find(dt => dt.textContent.includes('Trials')).nextElementSibling;
            return dd && parseInt(dd.textContent) > {first_count};
        }}""",
        timeout=10000,
    )
    assert teacher.url == console_url  # live, never reloaded
    dashboard.get_by_label("Sort by").select_option("rt")
    expect(dashboard.locator(".student-tile").first).to_contain_text("Ava")
    dashboard.scroll_into_view_if_needed()
    screenshot(teacher, "analytics-live-dashboard")
    # A few answers are no trend: no arrow yet, and the legend says when one will show.
    expect(dashboard.locator(".student-tile .trend")).to_have_count(0)
    expect(dashboard.locator("[data-trend-legend]")).to_contain_text("right answers")
    dashboard.screenshot(path=str(ARTIFACTS / "console-trend-legend.png"))

    teacher.get_by_role("button", name="End session").click()
    expect(teacher.locator(".status-ended").first).to_be_visible(timeout=15000)
    teacher.get_by_role("link", name="Full report").click()
    expect(teacher.get_by_role("heading", name=re.compile("Session report"))).to_be_visible()
    expect(teacher.locator(".chart svg").first).to_be_visible()
    screenshot(teacher, "analytics-session-report")
    # The workbook is prepared by the task worker (tests/e2e/test_exports.py); these stream.
    for link, suffix in [("Trials (CSV)", "-trials.csv"), ("Codebook (CSV)", "-codebook.csv")]:
        with teacher.expect_download() as download_info:
            teacher.get_by_role("link", name=link).click()
        download = download_info.value
        assert download.suggested_filename.endswith(suffix)
        path = download.path()
        assert path is not None
        assert path.stat().st_size > 200
    teacher.get_by_role("link", name="Ava").click()
    expect(teacher.get_by_role("heading", name="Every trial")).to_be_visible()
    expect(teacher.locator(".trial-table tbody tr").first).to_be_visible()

    teacher.goto(class_url)
    teacher.get_by_role("link", name="Progress").click()
    expect(teacher.get_by_role("heading", name="Class progress")).to_be_visible()
    teacher.get_by_role("link", name="Accuracy").click()
    expect(teacher).to_have_url(re.compile(r"sort=accuracy"))
    screenshot(teacher, "analytics-class-overview")
    # The first of her links: her row of the progress table (the verdicts name her again).
    teacher.get_by_role("link", name="Ava").first.click()
    expect(teacher.locator(".summary-sentence")).to_be_visible()
    expect(teacher.locator(".chart svg")).to_have_count(3)
    screenshot(teacher, "analytics-student-progress")
    teacher.get_by_role("link", name="Printable report").click()
    expect(teacher.locator(".print-page")).to_have_count(1)
    teacher.emulate_media(media="print")
    screenshot(teacher, "analytics-print-report")
    expect(teacher.get_by_role("button", name="Print or save as PDF")).to_be_hidden()
