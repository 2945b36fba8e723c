"""A removed guest stays out until let back in; one seat opened in two tabs plays in one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import guest_session_create, screenshot

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

PAUSED = "Your teacher has paused your place in this game. Ask your teacher."


def _join_as(tablet: Page, code: str, nickname: str) -> None:
    tablet.goto("/join/")
    tablet.get_by_label("Session code").fill(code)
    tablet.get_by_role("button", name="Join").click()
    tablet.get_by_label("Your name").fill(nickname)
    tablet.get_by_role("button", name="Join").click()


def test_a_kick_sticks_until_let_back_in_and_a_seat_has_one_live_tab(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    code = guest_session_create(teacher, username="ms-kicks")
    tablet = new_tablet()
    _join_as(tablet, code, "Mia")
    expect(tablet.get_by_text("Hi, Mia!")).to_be_visible()

    expect(teacher.get_by_text("Mia", exact=True)).to_be_visible()
    teacher.get_by_role("button", name="Remove Mia").click()
    expect(teacher.get_by_text("Tablet kept out")).to_be_visible()
    expect(tablet.get_by_text("Your teacher removed you from this session.")).to_be_visible()

    # A new nickname does not get round it: the tablet is told kindly, with nothing to type.
    tablet.goto("/join/")
    tablet.get_by_label("Session code").fill(code)
    tablet.get_by_role("button", name="Join").click()
    expect(tablet.get_by_text(PAUSED)).to_be_visible()
    expect(tablet.get_by_label("Your name")).to_have_count(0)
    screenshot(tablet, "kick-new-nickname-refused")

    teacher.get_by_role("button", name="Let back in: Mia").click()
    expect(teacher.get_by_text("Tablet kept out")).to_have_count(0)
    _join_as(tablet, code, "Zed")
    expect(tablet.get_by_text("Hi, Zed!")).to_be_visible()

    # The same seat in a second tab: the first is told calmly and stays put.
    teacher.get_by_role("button", name="Start", exact=True).click()
    expect(tablet.get_by_role("region", name="Your cards")).to_be_visible(timeout=10000)
    second = tablet.context.new_page()
    second.goto(f"/play/{code}/")
    expect(second.get_by_role("region", name="Your cards")).to_be_visible(timeout=10000)
    expect(tablet.get_by_text("This seat was opened on another tablet.")).to_be_visible()
    expect(tablet.get_by_text("Reconnecting…")).to_be_hidden()
    screenshot(tablet, "seat-opened-on-another-tablet")
    # The second tab keeps the seat, connected (no overlay, no message).
    expect(second.get_by_role("region", name="Your cards")).to_be_visible()
    expect(second.get_by_text("Reconnecting…")).to_be_hidden()
    expect(second.get_by_text("This seat was opened on another tablet.")).to_have_count(0)
