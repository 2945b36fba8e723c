"""A teacher sets up a class and a session; three tablets join and show up live."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PROJECTOR, screenshot, teacher_sign_up

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

STUDENTS = ["Ava", "Ben", "Chen", "Dara"]


def _create_class(page: Page) -> None:
    page.get_by_role("link", name="New class").click()
    page.get_by_label("Class name").fill("Year 3 Otters")
    page.get_by_label("Student names").fill("\n".join(STUDENTS))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="Year 3 Otters")).to_be_visible()


def _create_session(page: Page) -> str:
    page.goto("/")
    page.get_by_role("link", name="New session").click()
    page.get_by_label("Game").select_option(label="Palm Strike")
    page.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    page.get_by_label("Players per table").fill("2")
    page.get_by_label("Matching level").select_option("intermediate")
    page.get_by_role("button", name="Create session").click()
    code = page.get_by_label("Session code").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code), code
    return code


def _join_by_roster(tablet: Page, code: str, name: str) -> None:
    tablet.goto("/join/")
    tablet.get_by_label("Session code").fill(code.lower())
    tablet.get_by_role("button", name="Join").click()
    tablet.get_by_role("button", name=name).click()
    expect(tablet.get_by_text(f"Hi, {name}!")).to_be_visible()
    # The tap is answered with the lobby itself; the page then shows the lobby's address, so
    # a reload asks for the lobby rather than posting the tap again.
    expect(tablet).to_have_url(re.compile(rf"/play/{code}/$"))


def test_three_tablets_join_live_and_a_reload_keeps_the_seat(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-lin")
    _create_class(teacher)
    code = _create_session(teacher)
    console_url = teacher.url

    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    with teacher.expect_popup() as popup:
        teacher.get_by_role("link", name="Projector").click()
    projector.close()
    projector = popup.value
    projector.set_viewport_size(PROJECTOR)
    expect(projector.get_by_label("Session code")).to_have_text(code)
    expect(projector.get_by_role("img", name="Scan to join")).to_be_visible()

    tablets = [new_tablet() for _ in range(3)]
    for tablet, name in zip(tablets, STUDENTS[:3], strict=True):
        _join_by_roster(tablet, code, name)
        # Live, without reloading either teacher page.
        expect(projector.locator(".name-chip", has_text=name)).to_be_visible(timeout=2000)
        expect(teacher.locator(".seat", has_text=name)).to_be_visible(timeout=2000)

    expect(projector.get_by_text("3 players")).to_be_visible()
    expect(teacher.locator(".seat-state", has_text="connected")).to_have_count(3)
    # Two per table: Ava and Ben at one table, Chen at the other (balanced 2 + 1).
    # (The console's other cards, "Not here yet" for the rest of the class, are no tables.)
    expect(teacher.locator(".table-card:not(.not-here-yet)")).to_have_count(2)
    screenshot(projector, "lobby-projector")
    screenshot(teacher, "lobby-console")
    screenshot(tablets[0], "lobby-tablet")

    # A name already playing elsewhere cannot be taken from the roster.
    intruder = new_tablet()
    intruder.goto(f"/join/{code}/")
    expect(intruder.get_by_role("button", name=re.compile("^Ava"))).to_be_disabled()

    # Chen's tablet reloads: same seat, and the console shows the drop and the return.
    chen = tablets[2]
    table_before = chen.locator(".lobby-table-number").inner_text()
    chen.reload()
    expect(chen.get_by_text("Hi, Chen!")).to_be_visible()
    assert chen.locator(".lobby-table-number").inner_text() == table_before
    expect(teacher.locator("#console-live .seat")).to_have_count(3)
    expect(teacher.locator(".seat", has_text="Chen").locator(".seat-state")).to_have_text(
        "connected"
    )
    # The seat token is in no page and no storage a script can read, only in its cookie.
    # Storage holds only the test browser's own switch for the demo (tests/e2e/conftest.py).
    assert chen.evaluate("JSON.stringify(localStorage)") == '{"snapclass.how-to-play.auto":"off"}'
    assert "seat_" not in chen.evaluate("document.cookie")
    chen.context.clear_cookies()
    chen.reload()  # cookie gone: the join page, where Chen taps his name again
    expect(chen).to_have_url(re.compile(f"/join/{code}/$"))
    # His name is free once the server has seen the old page's socket go.
    chen_state = teacher.locator(".seat", has_text="Chen").locator(".seat-state")
    expect(chen_state).not_to_have_text("connected")
    chen.reload()
    chen.get_by_role("button", name=re.compile("^Chen")).click()
    expect(chen.get_by_text("Hi, Chen!")).to_be_visible()
    assert chen.locator(".lobby-table-number").inner_text() == table_before

    # The teacher starts the session; tablets go to their game, the projector follows.
    teacher.get_by_role("button", name="Start").click()
    expect(teacher.get_by_role("button", name="Pause")).to_be_visible()
    for tablet in tablets:
        expect(tablet.get_by_role("region", name="Your cards")).to_be_visible(timeout=10_000)
    expect(projector.get_by_role("heading", name="Playing!")).to_be_visible(timeout=2000)
    assert teacher.url == console_url


def test_settings_show_only_what_matters(teacher_page: Page) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "mr-chen")
    teacher.goto("/sessions/new/")
    auto_flip = teacher.get_by_label("Auto-flip every (seconds)")
    team_end = teacher.get_by_label("Team mode ends")
    expect(auto_flip).to_be_hidden()
    expect(team_end).to_be_hidden()
    teacher.get_by_label("Flip pacing").select_option("auto")
    expect(auto_flip).to_be_visible()
    teacher.get_by_label("Team mode (whole class)").check()
    expect(team_end).to_be_visible()
    expect(teacher.get_by_label("Centre cards in team mode")).to_be_visible()
    # A guest session in team mode: created, and the console shows it.
    teacher.get_by_role("button", name="Create session").click()
    expect(teacher.get_by_label("Session code")).to_have_text(re.compile(r"^[A-Z2-9]{6}$"))
