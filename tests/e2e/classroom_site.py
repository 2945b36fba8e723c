"""A classroom in full swing, built through the site's own pages, for page-by-page audits.

One teacher with two classes; one Palm Strike session played and ended (so the reports have
trials); Palm Strike, Commotion and Riff Raff running at once; a session still in its lobby
(one student waiting, one removed by the teacher); a guest session. Every student has a
browser context of their own (the seat cookie is the tablet's identity), kept for the
module so each page can be opened again in either language.
"""

from __future__ import annotations

import re
import sqlite3
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.e2e.conftest import LAPTOP, TABLET, settings_fill, warmup_skip

if TYPE_CHECKING:
    from pathlib import Path

PASSWORD = "tablets-and-tigers-42"
CLASS_NAME = "Year 3 Otters"
STUDENTS = ["Ava", "Ben", "Chen", "Dara", "Eli", "Fay"]
OTHER_CLASS_NAME = "Year 4 Foxes"
OTHER_STUDENTS = ["Gus"]
# Trials the ended session must hold before the reports are worth auditing.
FINISHED_TRIALS = 4
# The classroom is built once per module, often beside the other worker's browser test: a slow
# answer while building is no fault of the page under test, and a failed build errors the
# whole module (45 tests in one run with a load average of 15). So its waits are generous.
BUILD_WAIT_MS = 20_000
GAMES = {"palm_strike": "Palm Strike", "commotion": "Commotion", "riff_raff": "Riff Raff"}


@dataclass
class Site:
    """Where things are: ``ids`` fills the placeholders of page paths (see site_pages.py)."""

    url: str
    database: Path
    teacher: BrowserContext
    tablets: dict[str, BrowserContext] = field(default_factory=dict)
    ids: dict[str, str] = field(default_factory=dict)

    def context_for(self, who: str) -> BrowserContext:
        return self.teacher if who == "teacher" else self.tablets[who]

    def query_one(self, sql: str, *params: object) -> str:
        with sqlite3.connect(self.database) as connection:
            row = connection.execute(sql, params).fetchone()
        assert row is not None, (sql, params)
        return str(row[0])


def new_tablet_context(browser: Browser, url: str) -> BrowserContext:
    return browser.new_context(base_url=url, viewport=TABLET, has_touch=True, device_scale_factor=1)


def new_laptop_context(browser: Browser, url: str) -> BrowserContext:
    return browser.new_context(base_url=url, viewport=LAPTOP)


def _sign_up(page: Page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("link", name="New class")).to_be_visible(timeout=BUILD_WAIT_MS)


def _create_class(page: Page, name: str, students: list[str]) -> str:
    page.goto("/classes/new/")
    page.get_by_label("Class name").fill(name)
    page.get_by_label("Student names").fill("\n".join(students))
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name=name)).to_be_visible(timeout=BUILD_WAIT_MS)
    found = re.search(r"/classes/(\d+)/", page.url)
    assert found, page.url
    return found.group(1)


def _create_session(page: Page, game: str, players: int, settings: dict[str, str]) -> str:
    """A session of ``game`` for the class (settings by their form label); returns its code."""
    page.goto("/sessions/new/")
    page.get_by_label("Game", exact=True).select_option(label=game)
    expect(page.locator("#game-settings legend")).to_contain_text(game, timeout=BUILD_WAIT_MS)
    page.get_by_label("Class", exact=True).select_option(label=CLASS_NAME)
    page.get_by_label("Players per table").fill(str(players))
    settings_fill(page, settings)
    page.get_by_role("button", name="Create session").click()
    return page.get_by_label("Session code").inner_text().strip()


def _console_action(page: Page, button: str) -> None:
    page.get_by_role("button", name=button, exact=True).click()
    expect(page.get_by_role("button", name=button, exact=True)).to_be_hidden(timeout=BUILD_WAIT_MS)


def _join(browser: Browser, site: Site, code: str, name: str) -> Page:
    context = site.tablets.get(name) or new_tablet_context(browser, site.url)
    site.tablets[name] = context
    tablet = context.new_page()
    tablet.goto(f"/join/{code}/")
    tablet.get_by_role("button", name=name).click()
    expect(tablet.get_by_text(f"Hi, {name}!")).to_be_visible(timeout=BUILD_WAIT_MS)
    return tablet


def _session_id(page: Page) -> str:
    found = re.search(r"/sessions/(\d+)/", page.url)
    assert found, page.url
    return found.group(1)


def _play_and_end(browser: Browser, site: Site, teacher: Page) -> None:
    """A short auto-flipping Palm Strike game for Ava and Ben, then the teacher ends it."""
    code = _create_session(
        teacher,
        "Palm Strike",
        2,
        {
            "Matching level": "beginner",
            "Response window (seconds)": "1",
            "Flip pacing": "auto",
            "Auto-flip every (seconds)": "2",
        },
    )
    site.ids["finished_id"] = _session_id(teacher)
    tablets = [_join(browser, site, code, name) for name in ("Ava", "Ben")]
    _console_action(teacher, "Start")
    deadline = time.monotonic() + 60
    while int(_trial_count(site, site.ids["finished_id"])) < FINISHED_TRIALS:
        assert time.monotonic() < deadline, "no trials after a minute of auto-flips"
        time.sleep(0.5)
    _console_action(teacher, "End session")
    for tablet in tablets:
        tablet.close()
    site.ids["finished_seat_id"] = site.query_one(
        "SELECT id FROM classroom_seat WHERE session_id = ? AND name = 'Ava'",
        int(site.ids["finished_id"]),
    )


def _trial_count(site: Site, session_id: str) -> str:
    return site.query_one(
        "SELECT COUNT(*) FROM classroom_trial AS trial"
        " JOIN classroom_seat AS seat ON seat.id = trial.seat_id WHERE seat.session_id = ?",
        int(session_id),
    )


def _start_game(
    browser: Browser,
    site: Site,
    teacher: Page,
    key: str,
    players: list[str],
    settings: dict[str, str] | None = None,
) -> None:
    """A running game: the students join, bots fill the table of two, the teacher starts."""
    code = _create_session(teacher, GAMES[key], 2, settings or {})
    site.ids[f"{key}_code"] = code
    site.ids[f"{key}_id"] = _session_id(teacher)
    for name in players:
        # The tablet stays open (closing a page mid-navigation to the game has hung); its
        # student's audits open a page of their own beside it.
        _join(browser, site, code, name)
    _console_action(teacher, "Start")


def build_site(browser: Browser, url: str, database: Path, username: str) -> Site:
    teacher_context = new_laptop_context(browser, url)
    site = Site(url=url, database=database, teacher=teacher_context)
    teacher = teacher_context.new_page()
    teacher.on("dialog", lambda dialog: dialog.accept())
    _sign_up(teacher, username)
    site.ids["other_class_id"] = _create_class(teacher, OTHER_CLASS_NAME, OTHER_STUDENTS)
    site.ids["class_id"] = class_id = _create_class(teacher, CLASS_NAME, STUDENTS)
    for name in STUDENTS:
        site.ids[f"{name.lower()}_id"] = site.query_one(
            "SELECT id FROM classroom_student WHERE school_class_id = ? AND display_name = ?",
            int(class_id),
            name,
        )
    # The badge of a class with no open session: its landing page says so.
    site.ids["badge_token"] = site.query_one(
        "SELECT token FROM classroom_student WHERE school_class_id = ?",
        int(site.ids["other_class_id"]),
    )

    _play_and_end(browser, site, teacher)
    # Palm Strike flipped by hand, so the table waits for its players between audits.
    _start_game(browser, site, teacher, "palm_strike", ["Ava", "Ben"])
    # Gentle bots and a far target: the game is still on when the last page is audited.
    slow = {"Bot speed": "gentle", "Target score": "300"}
    _start_game(browser, site, teacher, "commotion", ["Chen"], slow)
    _start_game(browser, site, teacher, "riff_raff", ["Dara"], {"Cargo pieces per player": "8"})

    # A session still in its lobby: Eli waits, Fay was removed by the teacher.
    site.ids["lobby_code"] = _create_session(teacher, "Palm Strike", 2, {})
    site.ids["lobby_id"] = _session_id(teacher)
    for name in ("Eli", "Fay"):
        _join(browser, site, site.ids["lobby_code"], name).close()
    teacher.reload()
    teacher.get_by_role("button", name="Remove Fay").click()
    expect(teacher.get_by_role("button", name="Let back in: Fay")).to_be_visible(
        timeout=BUILD_WAIT_MS
    )

    # Practice: the teacher sets some; Gus (whose class has no game open) scans his badge,
    # practises Palm Strike alone and finishes, then leaves Commotion running.
    teacher.goto(f"/classes/{site.ids['other_class_id']}/practice/")
    teacher.get_by_role("button", name="Open practice by code").click()
    site.ids["practice_code"] = teacher.get_by_label("Practice code").inner_text().strip()
    teacher.get_by_label("Game").select_option(label="Commotion")
    teacher.get_by_label("How much").fill("2")
    teacher.get_by_role("button", name="Set practice").click()
    expect(teacher.get_by_text("0 of 1 done")).to_be_visible(timeout=BUILD_WAIT_MS)
    gus = site.tablets["Gus"] = new_tablet_context(browser, site.url)
    practice = gus.new_page()
    practice.goto(f"/b/{site.ids['badge_token']}/")
    practice.get_by_role("button", name="Play alone").click()
    warmup_skip(practice)
    practice.wait_for_function(
        "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view"
    )
    practice.get_by_role("button", name="I'm done").click()
    expect(practice.get_by_role("heading", name="Well played!")).to_be_visible(
        timeout=BUILD_WAIT_MS
    )
    site.ids["practice_done_code"] = practice.url.rstrip("/").rsplit("/", 1)[-1]
    practice.goto("/practice/")
    practice.get_by_role("button", name="Start").click()
    warmup_skip(practice)
    practice.wait_for_function(
        "pageModules.commotion?.tablet && pageModules.commotion?.tablet.view"
    )
    site.ids["practice_playing_code"] = practice.url.rstrip("/").rsplit("/", 1)[-1]

    # Guests type a nickname instead of tapping their name.
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Class", exact=True).select_option(index=0)
    teacher.get_by_role("button", name="Create session").click()
    site.ids["guest_code"] = teacher.get_by_label("Session code").inner_text().strip()
    teacher.close()
    return site


def close_site(site: Site) -> None:
    for context in [site.teacher, *site.tablets.values()]:
        context.close()
