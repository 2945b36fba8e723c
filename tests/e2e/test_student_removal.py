"""A child taken off the class list mid-game, in a real browser: their tablet is told, the
classmate's table plays on with a robot in the seat, and the name is gone from the tablets,
the console and the report; then the teacher deletes the ended session."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_lobby import _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

NAME = "Zofia Quill"


def _flip(tablet: Page) -> int:
    return int(tablet.evaluate("pageModules.palm_strike?.tablet.view.flip || 0"))


def test_a_child_removed_mid_game_leaves_the_table_playing_and_no_name_behind(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-removal")
    teacher.get_by_role("link", name="New class").click()
    teacher.get_by_label("Class name").fill("Year 5 Herons")
    teacher.get_by_label("Student names").fill(f"{NAME}\nBen")
    teacher.get_by_role("button", name="Save").click()
    class_url = teacher.url
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 5 Herons")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_label("Flip pacing").select_option("auto")
    teacher.get_by_label("Auto-flip every (seconds)").fill("2")
    teacher.get_by_label("Response window (seconds)").fill("1")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    console_url = teacher.url
    zofia, ben = new_tablet(), new_tablet()
    _join_by_roster(zofia, code, NAME)
    _join_by_roster(ben, code, "Ben")
    teacher.get_by_role("button", name="Start").click()
    for tablet in (zofia, ben):
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view",
            timeout=15_000,
        )
    expect(ben.get_by_text(NAME)).to_be_visible()

    # The teacher takes Zofia off the class list while the game runs.
    class_page = teacher.context.new_page()
    class_page.on("dialog", lambda dialog: dialog.accept())
    class_page.goto(class_url)
    class_page.get_by_role("button", name=f"Remove {NAME} from the class").click()
    expect(class_page.get_by_text(NAME)).to_have_count(0)

    expect(zofia.get_by_text("Your teacher removed you from this session.")).to_be_visible()
    # Ben's table plays on, with a robot in her seat, and her name leaves his tablet at once.
    flip = _flip(ben)
    ben.wait_for_function(
        f"pageModules.palm_strike?.tablet.view.flip >= {flip + 2}", timeout=15_000
    )
    # The robot's seat label, with its points beside it when the game keeps score.
    expect(ben.get_by_text(re.compile(r"^Robot( · \d+)?$"))).to_be_visible()
    expect(ben.get_by_text(NAME)).to_have_count(0)
    screenshot(ben, "removal-classmate-tablet")

    teacher.goto(console_url)
    expect(teacher.get_by_text("Robo Rita")).to_be_visible()
    expect(teacher.get_by_text(NAME)).to_have_count(0)
    screenshot(teacher, "removal-console")
    teacher.get_by_role("button", name="End session", exact=True).click()
    expect(teacher.get_by_role("button", name="End session", exact=True)).to_be_hidden()
    teacher.get_by_role("link", name="Full report").click()
    expect(teacher.get_by_role("link", name="Ben")).to_be_visible()
    expect(teacher.get_by_text(NAME)).to_have_count(0)

    # Deleting the ended session: a confirmation, then nothing of it is left.
    teacher.get_by_role("link", name="Delete session").click()
    expect(teacher.get_by_role("heading", name=f"Delete session {code}?")).to_be_visible()
    teacher.get_by_role("button", name="Delete session").click()
    expect(teacher.get_by_text(re.compile(rf"Session {code} deleted"))).to_be_visible()
    # The home page's list has no link to it any more (only the message names the code).
    expect(teacher.get_by_role("link", name=re.compile(code))).to_have_count(0)
