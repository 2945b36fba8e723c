"""Extra time on real tablets: the teacher gives Ava x2 on the class page; at a Palm Strike
table her slap after the table's window has closed (where Ben's tablet already says the card
is over) still counts, and the teacher's report marks her run."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_colour_vision import _create_session
from tests.e2e.test_lobby import _create_class, _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

# A 2 s window, Ava's own 4 s, and a card every 6 s: time to tap between the two ends, and
# for pictures before the next card.
WINDOW_MS = 2000
SETTINGS = {
    "Flip pacing": "auto",
    "Auto-flip every (seconds)": "6",
    "Response window (seconds)": "2",
    "Points target": "0",
}
VIEW = "pageModules.palm_strike?.tablet?.view"


def _view(tablet: Page) -> dict[str, Any]:
    return dict(tablet.evaluate(VIEW))


def _closed_for_ben_open_for_ava(ava: Page, ben: Page, after: int) -> int:
    """Wait for a flip later than ``after`` whose card Ben's tablet shows as closed while it
    is still open on Ava's; its number."""
    ben.wait_for_function(
        f"{VIEW} && {VIEW}.flip > {after} && {VIEW}.phase === 'open'"
        f" && {VIEW}.window_closes_ms === null",
        timeout=20000,
    )
    flip = int(ben.evaluate(f"{VIEW}.flip"))
    ava.wait_for_function(
        f"{VIEW} && {VIEW}.flip === {flip} && {VIEW}.window_closes_ms !== null", timeout=2000
    )
    return flip


def _touch_card(tablet: Page) -> None:
    box = tablet.locator(".slap-target").first.bounding_box()
    assert box is not None
    tablet.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_child_with_double_time_slaps_after_the_tables_window_and_it_counts(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-extra-time")
    _create_class(teacher)
    # The choice is stored by htmx's request: a reload before its answer would cancel it.
    with teacher.expect_response(lambda response: response.request.method == "POST"):
        teacher.get_by_label("Extra time for Ava").select_option("x2")
    expect(teacher.get_by_label("Extra time for Ava")).to_have_value("x2")
    teacher.reload()
    expect(teacher.get_by_label("Extra time for Ava")).to_have_value("x2")
    expect(teacher.get_by_label("Extra time for Ben")).to_have_value("")
    screenshot(teacher, "extra-time-class-page")

    code = _create_session(teacher, "Palm Strike", settings=SETTINGS)
    ava, ben = new_tablet(), new_tablet()
    _join_by_roster(ava, code, "Ava")
    _join_by_roster(ben, code, "Ben")
    teacher.get_by_role("button", name="Start", exact=True).click()

    flip = _closed_for_ben_open_for_ava(ava, ben, 0)
    # Ben's window is over: his tablet says so and answers a tap at once, sending nothing.
    _touch_card(ben)
    # Ava is past the table's window too, and still inside her own.
    waited = float(ava.evaluate("performance.now() - pageModules.palm_strike.tablet.onset"))
    _touch_card(ava)
    assert waited >= WINDOW_MS
    expect(ben.locator("[data-status]")).to_have_text("Wait for the next card.")
    expect(ben.locator("[data-feedback-text]")).to_contain_text(re.compile("late", re.I))
    screenshot(ben, "extra-time-ben-card-closed")
    # The race is judged when no other seat can still slap (the table's answer may come after
    # the slap's own "waiting"): wait for the judgement, up to the end of Ava's window.
    ava.wait_for_function(
        f"{VIEW}.mine && {VIEW}.mine.flip === {flip} && {VIEW}.mine.result !== 'waiting'",
        timeout=2 * WINDOW_MS + 3000,
    )
    mine = _view(ava)["mine"]
    # Nobody else slapped inside their window: Ava's late slap won the race.
    assert mine["result"] in {"first", "first_no_match"}
    assert mine["winner"] == _view(ava)["you"]
    screenshot(ava, "extra-time-ava-slap-counts")
    assert _view(ben)["mine"] is None  # Ben's tap never reached the table

    # The same on a Chinese tablet: Ben's page in zh-Hant at the next flip.
    ben.context.add_cookies(
        [{"name": "django_language", "value": "zh-hant", "url": teacher.url.split("/sessions")[0]}]
    )
    ben.reload()
    _closed_for_ben_open_for_ava(ava, ben, flip)
    expect(ben.locator("[data-status]")).to_have_text("等下一張牌。")
    screenshot(ben, "extra-time-ben-card-closed-zh-hant")

    ava.wait_for_function(f"{VIEW}.window_closes_ms === null", timeout=5000)
    teacher.get_by_role("button", name="End session").click()
    expect(teacher.locator(".status-ended").first).to_be_visible(timeout=15000)
    teacher.get_by_role("link", name="Full report").click()
    ava_row = teacher.locator("tr.row-main", has_text="Ava")
    expect(ava_row.locator(".pill-extra-time")).to_have_text("extra time ×2")
    expect(
        teacher.locator("tr.row-main", has_text="Ben").locator(".pill-extra-time")
    ).to_have_count(0)
    screenshot(teacher, "extra-time-session-report")
    ava_row.get_by_role("link", name="Ava").click()
    expect(teacher.locator("h1 .pill-extra-time")).to_have_text("extra time ×2")
    # Her slap is in her trials, with a reaction time longer than the table's window.
    rts = [
        int(text.strip().split()[0])
        for text in teacher.locator(".trial-table td").all_inner_texts()
        if re.fullmatch(r"\s*\d+ ms\s*", text)
    ]
    assert any(rt >= WINDOW_MS for rt in rts), rts
    screenshot(teacher, "extra-time-seat-report")

    teacher.context.add_cookies(
        [{"name": "django_language", "value": "zh-hant", "url": teacher.url.split("/sessions")[0]}]
    )
    teacher.go_back()
    teacher.reload()
    expect(teacher.locator("tr.row-main", has_text="Ava").locator(".pill-extra-time")).to_have_text(
        "延長時間 ×2"
    )
    screenshot(teacher, "extra-time-session-report-zh-hant")
    teacher.goto("/")
    teacher.get_by_role("link", name="Year 3 Otters").first.click()
    expect(teacher.get_by_label("Ava 的延長時間")).to_have_value("x2")
    screenshot(teacher, "extra-time-class-page-zh-hant")
