"""A live Palm Strike game: a child turns careless mid-game; the teacher's console marks them
"needs help" with why, the teacher dismisses it, and the child's tablet never shows it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Error, Locator, Page, expect

from tests.e2e.conftest import ARTIFACTS, settings_fill, teacher_sign_up
from tests.e2e.test_analytics import started_with_tablets
from tests.e2e.test_lobby import _create_class
from tests.e2e.test_palm_strike import has_match, slap_matches

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

REASON = "More mistakes than usual lately"


def _create_long_session(teacher: Page) -> str:
    """Auto flips every 2 s at the advanced level, and a points target no one reaches in this
    test: the game must outlast the child's change."""
    teacher.goto("/sessions/new/")
    settings_fill(
        teacher,
        {
            "Class": "Year 3 Otters",
            "Players per table": "3",
            "Matching level": "advanced",
            "Response window (seconds)": "1.5",
            "Flip pacing": "auto",
            "Auto-flip every (seconds)": "2",
            "Points target": "100",
        },
    )
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _picture(part: Locator, name: str) -> None:
    """A screenshot of a live part: the console's socket may swap it for the same HTML while
    the picture is taken (after a page load it draws once), so a detached one is taken again.
    """
    for attempt in range(5):
        try:
            part.screenshot(path=str(ARTIFACTS / f"{name}.png"))
            return
        except Error:
            if attempt == 4:
                raise


def _play_carelessly(tablet: Page, *, until: Callable[[], bool], seconds: float) -> int:
    """Get every flip wrong until ``until()`` holds: slap a card that matches nothing, a moment
    after it shows, and let a match go by. Every trial is then a mistake, so the console's
    chart climbs the same way whatever the deck deals (slapping every card would get the
    matches right, and a deck heavy in matches can keep the chart under its limit). The flips
    played this way."""
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until():
        view = tablet.evaluate("pageModules.palm_strike?.tablet.view")
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") and flip not in seen and view.get("public"):
            seen.add(flip)
            if not has_match(view):
                tablet.wait_for_timeout(250)
                tablet.locator(f'[data-flip="{flip}"]').tap()
        tablet.wait_for_timeout(30)
    return len(seen)


@pytest.mark.timeout(420)
def test_the_console_marks_a_child_turning_careless_and_the_teacher_dismisses_it(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-needs-help")
    _create_class(teacher)
    code = _create_long_session(teacher)
    tablets = started_with_tablets(teacher, code, new_tablet)
    ava = tablets["Ava"]

    dashboard = teacher.get_by_role("region", name="Live skills")
    tile = dashboard.locator(".student-tile", has_text="Ava")
    mark = tile.locator("[data-needs-help]")
    # Her start: she slaps the matches and nothing else, for 18 flips.
    slap_matches(ava, slaps=0, seconds=90, flips=18)
    expect(tile).to_be_visible(timeout=10000)
    expect(mark).to_have_count(0)
    # Then careless: she gets every flip wrong, until the console marks her.
    careless = _play_carelessly(ava, until=lambda: mark.count() > 0, seconds=90)
    teacher.screenshot(path=str(ARTIFACTS / "needs-help-careless.png"))
    ava.screenshot(path=str(ARTIFACTS / "needs-help-careless-tablet.png"))
    assert careless > 0, "the game ended before she turned careless"
    expect(mark).to_contain_text(REASON, timeout=10000)
    expect(mark).to_contain_text("Needs help")
    # Paused for the pictures: the live skills stop changing, so the tile holds still.
    teacher.get_by_role("button", name="Pause").click()
    expect(teacher.get_by_role("button", name="Resume")).to_be_visible(timeout=10000)
    _picture(tile, "needs-help-tile-en")
    teacher.screenshot(path=str(ARTIFACTS / "needs-help-console-en.png"))
    # Never on her tablet, nor on a classmate's.
    for tablet in tablets.values():
        assert "Needs help" not in tablet.content()
        assert REASON not in tablet.content()

    # The same mark in Traditional Chinese.
    teacher.get_by_role("button", name="中文").click()
    zh_tile = teacher.locator(".student-tile", has_text="Ava")
    expect(zh_tile.locator("[data-needs-help]")).to_contain_text("需要協助", timeout=10000)
    _picture(zh_tile, "needs-help-tile-zh-hant")
    teacher.get_by_role("button", name="English").click()
    expect(tile).to_be_visible(timeout=10000)

    # The teacher dismisses it: gone, and it stays gone while the same departure goes on.
    tile.get_by_role("button", name="Dismiss: Ava needs help").click()
    # The answer redraws the tiles without it; a socket draw begun before the dismissal can
    # show it once more, until the next draw (a few seconds on a busy machine).
    expect(mark).to_have_count(0, timeout=15000)
    teacher.get_by_role("button", name="Resume").click()
    trials = tile.locator("dt:has-text('Trials') + dd")
    before = trials.inner_text()
    _play_carelessly(ava, until=lambda: False, seconds=6)
    expect(trials).not_to_have_text(before, timeout=10000)  # the tile was drawn again
    expect(mark).to_have_count(0)
    assert "Needs help" not in ava.content()

    # The report after the game: following others (Palm Strike), in both languages.
    teacher.get_by_role("button", name="End session").click()
    expect(teacher.locator(".status-ended").first).to_be_visible(timeout=15000)
    teacher.get_by_role("link", name="Full report").click()
    following = teacher.get_by_role("region", name="Following others")
    expect(following).to_contain_text("Ava")
    _picture(following, "following-report-en")
    teacher.get_by_role("button", name="中文").click()
    following_zh = teacher.get_by_role("region", name="跟著別人拍")
    expect(following_zh).to_contain_text("Ava")
    _picture(following_zh, "following-report-zh-hant")
