"""Two students and two bots race a Commotion round to OUT on tablets."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, Route, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

ROUND_TIMEOUT_S = 150


def _create_commotion_session(teacher: Page) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Commotion")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill("4")
    teacher.get_by_label("Refill pile").fill("6")
    teacher.get_by_label("Target score").fill("5")
    teacher.get_by_label("Bot speed").select_option("quick")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


TAP_MS = 2000  # bots keep the table moving: a card may be gone by the time we tap it


def _move(tablet: Page) -> bool:
    """One sensible move on this tablet, by tapping like a child would. False: round over."""
    try:
        return _try_move(tablet)
    except PlaywrightTimeoutError:
        return True  # the table changed under the finger (a bot was quicker): look again


def _try_move(tablet: Page) -> bool:
    view: dict[str, Any] = tablet.evaluate("pageModules.commotion?.tablet.view")
    if view["phase"] in ("round_over", "game_over") or view.get("ended"):
        return False
    if view["phase"] != "playing":
        tablet.wait_for_timeout(100)
        return True
    if view["you_can_out"]:
        tablet.get_by_role("button", name="OUT!").tap(timeout=TAP_MS)
        return True
    if view["playable"]:
        option = view["playable"][0]
        if option["source"] == "waste":
            cards = tablet.locator("[data-waste] .cm-pick")
        else:
            cards = tablet.locator("[data-tableau] .cm-pick").nth(option["card"])
        cards.first.tap(timeout=TAP_MS)
        if len(option["piles"]) > 1:
            pile = option["piles"][0]
            target = (
                tablet.locator(".cm-new-pile")
                if pile == -1
                else tablet.locator(".cm-pile").nth(pile)
            )
            target.tap(timeout=TAP_MS)
        return True
    if view["you_can_extra"]:
        tablet.get_by_role("button", name="Take a 6th card").tap(timeout=TAP_MS)
        return True
    stock = tablet.locator("[data-stock]")
    if stock.get_attribute("aria-disabled") != "true":
        stock.tap(timeout=TAP_MS)
    return True


# What animates among the cards a child judges (the centre piles, the row, the waste): the
# onset of a play opportunity is the first frame the card is drawn as playable, so it must
# be whole then (issue 18: no scale-in or fade on the judged stimulus). A held card lifts.
ANIMATED_CARDS = """() => document.getAnimations().map((a) => a.effect && a.effect.target)
  .filter((t) => t && t.closest && t.closest('[data-centre], [data-tableau], [data-waste]')
                 && !t.closest('.is-held'))
  .map((t) => t.className)"""


OPTION_URL = re.compile(r"/seats/\d+/option/$")


def _hold_a_smaller_pile(teacher: Page) -> list[Route]:
    """The teacher gives the first child a refill pile of 5; the change is held on its way
    to the server (the route is released with ``_release``)."""
    held: list[Route] = []
    teacher.route(OPTION_URL, lambda route: held.append(route))
    teacher.get_by_label("Refill pile", exact=True).first.select_option("5")
    return held


def _release(teacher: Page, held: list[Route]) -> None:
    for _ in range(100):
        if held:
            break
        teacher.wait_for_timeout(50)
    held[0].continue_()


def test_start_stays_disabled_through_a_live_redraw_while_an_option_is_on_its_way(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    """A child joins while the teacher's change of a refill pile is on its way: the console is
    drawn again from the socket, and its fresh Start button must stay disabled until the
    server has the change (seen on a busy machine: the redraw gave an enabled Start)."""
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-commotion-redraw")
    _create_class(teacher)
    code = _create_commotion_session(teacher)
    _join_by_roster(new_tablet(), code, "Ava")
    expect(teacher.locator(".status-line")).to_contain_text("1 student")
    held = _hold_a_smaller_pile(teacher)
    start = teacher.get_by_role("button", name="Start")
    expect(start).to_be_disabled()
    _join_by_roster(new_tablet(), code, "Ben")
    expect(teacher.locator(".status-line")).to_contain_text("2 students")  # drawn again
    expect(start).to_be_disabled()
    _release(teacher, held)
    expect(start).to_be_enabled()
    expect(teacher.get_by_label("Refill pile", exact=True).first).to_have_value("5")
    teacher.unroute(OPTION_URL)


def test_students_and_bots_race_a_round_to_out_with_a_smaller_pile_for_one(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-commotion")
    _create_class(teacher)
    code = _create_commotion_session(teacher)
    tablets = {name: new_tablet() for name in ("Ava", "Ben")}
    for name, tablet in tablets.items():
        _join_by_roster(tablet, code, name)
    # Ava is younger: the teacher gives her a refill pile of 5 from the console. The change is
    # held on its way to the server: meanwhile Start cannot be pressed, or the tables would be
    # dealt before the server heard of it (seen in CI: Ava dealt 6).
    held = _hold_a_smaller_pile(teacher)
    start = teacher.get_by_role("button", name="Start")
    expect(start).to_be_disabled()
    _release(teacher, held)
    expect(start).to_be_enabled()  # the console redrawn from the server's answer
    expect(teacher.get_by_label("Refill pile", exact=True).first).to_have_value("5")
    teacher.unroute(OPTION_URL)
    start.click()
    for tablet in tablets.values():
        expect(tablet.get_by_role("region", name="Centre piles")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.commotion?.tablet && pageModules.commotion?.tablet.view"
        )
    ava = tablets["Ava"]
    view = ava.evaluate("pageModules.commotion?.tablet.view")
    assert len(view["players"]) == 4  # two students, two bots
    refills = {p["seat"]: p["refill_size"] for p in view["players"]}
    assert refills[view["you"]] == 5
    assert sorted(refills.values()) == [5, 6, 6, 6]

    deadline = time.monotonic() + ROUND_TIMEOUT_S
    playing = True
    screenshot_taken = False
    animated: set[str] = set()
    while playing and time.monotonic() < deadline:
        playing = all([_move(tablet) for tablet in tablets.values()])
        animated |= set(ava.evaluate(ANIMATED_CARDS))
        if (
            not screenshot_taken
            and ava.evaluate("pageModules.commotion?.tablet.view.centre.length") >= 3
        ):
            screenshot(ava, "commotion-tablet-playing")
            ava.set_viewport_size({"width": 768, "height": 1024})  # the tablet turned upright
            screenshot(ava, "commotion-tablet-portrait")
            ava.set_viewport_size({"width": 1024, "height": 768})
            screenshot_taken = True
    assert not playing, "the round did not end in time"
    assert not animated, f"judged cards animate, so their onset is not honest: {animated}"

    expect(ava.locator("[data-over]")).to_be_visible(timeout=5000)
    screenshot(ava, "commotion-round-over")
    view = ava.evaluate("pageModules.commotion?.tablet.view")
    rows = [row for row in view["rounds"] if row["round"] == view["round"]]
    shown = ava.locator(".cm-scores tr").all_inner_texts()[1:]
    assert len(shown) == len(rows) == 4
    for row, text in zip(rows, shown, strict=True):
        assert text.split("\t")[-1].strip() == str(row["total"])  # the engine's totals, shown
        assert row["round_score"] == row["centre_cards"] - 2 * row["refill_left"] + row["out_bonus"]
    expect(teacher.locator(".game-tile-status")).to_contain_text(
        re.compile("Round|Game over"), timeout=5000
    )
    screenshot(teacher, "commotion-console")

    # The play opportunities are trials like any other: they reach the report.
    teacher.get_by_role("link", name="Full report").click()
    report = teacher.locator("table.data-table").first
    expect(report).to_contain_text("Ava")
    expect(report).to_contain_text("Ben")
    expect(teacher.get_by_role("rowheader", name="Clear 5 cards, turn 3 at a time")).to_be_visible()
    screenshot(teacher, "commotion-report")
