"""The warm-up on a tablet, by touch, in both languages: a child starts practice, taps the
star 20 times, goes on to the game, and the teacher sees the warm-up and the decision time
on the child's progress page."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import TABLET, screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class
from tests.e2e.test_palm_strike import slap_matches
from tests.e2e.test_practice import _open_practice_by_code

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

CARDS = 20
DONE = {"en": "Well done! Ready to play.", "zh-hant": "做得好！準備開始玩。"}
TITLE = {"en": "Warm-up", "zh-hant": "熱身"}
TOO_SOON = {"en": "Too soon! Wait for the star.", "zh-hant": "太快了！等星星出現。"}


# 20 cards of up to 2 s each and a few flips: longer than a page test, on a busy machine.
@pytest.mark.timeout(420)
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_child_taps_the_warmup_by_touch_and_the_teacher_sees_the_decision_time(
    teacher_page: Page, open_tablet: Callable[..., Page], language: str
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-warmup-{language}")
    _create_class(teacher)
    class_url = teacher.url
    teacher.get_by_role("link", name="Practice").click()
    code = _open_practice_by_code(teacher)

    ava = open_tablet(TABLET, language)
    ava.goto(f"/practice/sign-in/{code}/")
    ava.get_by_role("button", name="Ava").click()
    expect(ava.locator(".practice-warmup-choice [aria-pressed='true']")).to_be_visible()
    ava.locator(".practice-game-palm_strike button").last.click()  # alone

    expect(ava.get_by_role("heading", name=TITLE[language])).to_be_visible()
    pad = ava.locator("[data-pad]")
    box = pad.bounding_box()
    assert box is not None
    assert box["width"] >= 0.8 * TABLET["width"] - 100  # a big target, nearly the screen wide
    assert box["height"] >= 0.4 * TABLET["height"]
    screenshot(ava, f"warmup-start-{language}")
    expect(ava.locator("[data-warmup][data-ready]")).to_be_attached()
    ava.locator("[data-start]").tap()
    star = ava.locator("[data-card]")
    # A tap before the star is too soon: that card waits again and nothing is counted.
    pad.tap()
    expect(ava.locator("[data-say]")).to_have_text(TOO_SOON[language])
    for card in range(CARDS):
        expect(star).to_be_visible(timeout=5000)
        expect(ava.locator("[data-count]")).to_contain_text(str(card + 1))
        ava.wait_for_timeout(120)  # the child sees it, then taps
        if card == 4:
            screenshot(ava, f"warmup-card-{language}")
        pad.tap()
        expect(star).to_be_hidden()
    expect(ava.locator("[data-say]")).to_have_text(DONE[language], timeout=10000)
    screenshot(ava, f"warmup-done-{language}")
    ava.locator("[data-go]").tap()
    ava.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    # The game page told the server which tablet it is on, for its trials.
    slap_matches(ava, slaps=2, seconds=40, flips=4)

    teacher.goto(class_url)
    teacher.goto(teacher.url.rstrip("/") + "/progress/")
    teacher.get_by_role("link", name="Ava").first.click()
    card = teacher.locator(
        "section",
        has=teacher.get_by_role("heading", name="Deciding, apart from seeing and tapping"),
    )
    expect(card).to_be_visible()
    row = card.locator("tbody tr").first
    expect(row).to_contain_text("practice")
    expect(row).to_contain_text("1024 × 768 screen")
    cells = row.locator("td")
    warmup_ms = int(cells.nth(0).inner_text().split()[0])
    assert 100 <= warmup_ms <= 1500  # the taps' median, by Playwright's touch
    card.scroll_into_view_if_needed()
    screenshot(teacher, f"warmup-teacher-progress-{language}")
