"""A class session flows like a lesson: two Palm Strike games in one session with Play again.

Three tablets (one slower, ~1 s, one reading 繁體中文) play a game to its end; the console and
the projector say it is over; the teacher presses Play again and every tablet loads the new
game by itself (no code typed); the second game is played to its end, the session ends, and
the home page lists it. Screenshots in English and 繁體中文 go to /tmp/shots/session-flow/.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page, expect

from games.palm_strike.cards import PlayerCard, PublicCard
from games.palm_strike.rules import matches
from tests.e2e.conftest import PROJECTOR, TABLET
from tests.e2e.test_lobby import _sign_up

if TYPE_CHECKING:
    from collections.abc import Iterator

    from playwright.sync_api import BrowserContext

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_S = 150
SHOTS = Path("/tmp/shots/session-flow")  # noqa: S108  (where the team looks at them)


def _shot(page: Page, name: str, *, full: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full)


def _card(data: dict[str, Any]) -> PlayerCard | PublicCard:
    if data["type"] == "public":
        return PublicCard(bg=data["bg"], word=data["word"], ink=data["ink"])
    return PlayerCard(bg=data["bg"], pic=data["pic"], motif=data.get("motif", "cat"))


def _has_match(view: dict[str, Any]) -> bool:
    public = _card(view["public"])
    return any(
        matches(public, _card(card), view["level"])  # type: ignore[arg-type]
        for player in view["players"]
        for card in player["cards"]
    )


class Tablet:
    def __init__(self, name: str, delay_ms: int, page: Page) -> None:
        self.name = name
        self.delay_ms = delay_ms
        self.page = page
        self.seen: dict[int, float] = {}
        self.slapped: set[int] = set()

    def view(self) -> dict[str, Any]:
        return dict(self.page.evaluate("window.palmStrike ? window.palmStrike.view : null") or {})


def _play_to_the_end(tablets: list[Tablet]) -> None:
    """Every tablet slaps each matching flip its own delay after it first saw it, and taps a
    card when it must give one, until every tablet shows the game over."""
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        views = [tablet.view() for tablet in tablets]
        if all(view.get("phase") == "game_over" for view in views):
            return
        now = time.monotonic() * 1000
        for tablet, view in zip(tablets, views, strict=True):
            if view.get("choice"):
                choice = tablet.page.locator(".card-choice").first
                if choice.count():
                    choice.tap(force=True)
            flip = int(view.get("flip") or 0)
            if not view.get("window_closes_ms") or not view.get("public") or not flip:
                continue
            first_seen = tablet.seen.setdefault(flip, now)
            if flip in tablet.slapped or now - first_seen < tablet.delay_ms:
                continue
            tablet.slapped.add(flip)
            if _has_match(view):
                target = tablet.page.locator(f'[data-flip="{flip}"]')
                if target.count():
                    target.tap(force=True)
        time.sleep(0.03)
    raise AssertionError("the game did not end in time")


@pytest.fixture
def tablets(browser: Browser, live_url: str) -> Iterator[list[Tablet]]:
    contexts: list[BrowserContext] = []

    def tablet(name: str, delay_ms: int, locale: str) -> Tablet:
        context = browser.new_context(
            base_url=live_url,
            viewport=TABLET,
            has_touch=True,
            device_scale_factor=1,
            locale=locale,
        )
        contexts.append(context)
        return Tablet(name, delay_ms, context.new_page())

    yield [tablet("Ava", 350, "en-GB"), tablet("Ben", 500, "zh-TW"), tablet("Cy", 1000, "en-GB")]
    for context in contexts:
        context.close()


def test_two_games_in_one_session_with_play_again(
    teacher_page: Page, browser: Browser, live_url: str, tablets: list[Tablet]
) -> None:
    teacher = teacher_page
    _sign_up(teacher, "flow-teacher")
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_label("Matching level").select_option("beginner")
    teacher.get_by_label("Cards per player").select_option("2")
    teacher.get_by_label("Response window (seconds)").fill("2")
    teacher.get_by_label("Flip pacing").select_option("auto")
    teacher.get_by_label("Auto-flip every (seconds)").fill("2.5")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    console_url = teacher.url

    projector_context = browser.new_context(base_url=live_url, viewport=PROJECTOR)
    projector_context.add_cookies(teacher.context.cookies())
    projector = projector_context.new_page()
    projector.goto(console_url.rstrip("/") + "/projector/")

    for tablet in tablets:
        tablet.page.goto(f"/join/{code}/")
        tablet.page.locator("input[name=nickname]").fill(tablet.name)
        tablet.page.locator("button.btn-huge[type=submit]").click()
        expect(tablet.page.locator(".lobby-hello")).to_contain_text(tablet.name)
    teacher.get_by_role("button", name="Start").click()
    for tablet in tablets:
        tablet.page.wait_for_function("() => window.palmStrike && window.palmStrike.view")
    expect(tablets[1].page.locator("html")).to_have_attribute("lang", "zh-Hant")

    # Game 1 to its end: console and projector say so (not "Playing").
    _play_to_the_end(tablets)
    expect(teacher.locator("[data-game-over]")).to_contain_text("Game 1 is over on every table")
    expect(teacher.locator(".table-card .status").first).to_have_text("Finished")
    expect(projector.locator("[data-projector-state]")).to_have_attribute(
        "data-projector-state", "game-over"
    )
    expect(projector.locator(".projector-status")).to_contain_text("Game 1 is over")
    _shot(teacher, "console-game-over-en", full=True)
    _shot(projector, "projector-game-over-en")
    _shot(tablets[0].page, "tablet-game-over-en")
    _shot(tablets[1].page, "tablet-game-over-zh")

    # Sound: off on the tablets until the teacher turns it on; the projector's after a click.
    assert not tablets[0].page.evaluate("() => window.SnapclassSound.enabled()")
    teacher.get_by_role("group", name="Sound on the tablets").get_by_role(
        "button", name="On"
    ).click()
    for tablet in tablets:
        tablet.page.wait_for_function("() => window.SnapclassSound.enabled()")
    projector.get_by_role("button", name="Sound").click()
    expect(projector.get_by_role("button", name="Sound")).to_have_attribute("aria-pressed", "true")

    # Play again: every tablet follows to game 2 by itself, on the same address.
    urls = [tablet.page.url for tablet in tablets]
    teacher.get_by_role("button", name="Play again", exact=True).click()
    expect(teacher.locator("[data-game-number]").first).to_have_attribute("data-game-number", "2")
    for tablet, url in zip(tablets, urls, strict=True):
        tablet.page.wait_for_function(
            "() => document.querySelector('[data-play-game]')"
            " && document.querySelector('[data-play-game]').dataset.playGame === '2'"
            " && window.palmStrike && window.palmStrike.view"
            " && window.palmStrike.view.phase !== 'game_over'",
            timeout=15000,
        )
        assert tablet.page.url == url
        tablet.seen.clear()
        tablet.slapped.clear()
    expect(projector.locator(".projector-status")).to_contain_text("Game 2")
    projector.wait_for_function(
        "() => window.SnapclassSound.played.some(p => p.cue === 'countdown')"
    )
    _shot(tablets[2].page, "tablet-game-2-en")

    _play_to_the_end(tablets)
    expect(teacher.locator("[data-game-over]")).to_contain_text("Game 2 is over on every table")
    # The reloaded tablets kept the sound on, heard the flips and the end.
    for tablet in tablets:
        cues = tablet.page.evaluate("() => window.SnapclassSound.played.map(p => p.cue)")
        assert "flip" in cues
        assert "over" in cues
    assert "first" in tablets[0].page.evaluate("() => window.SnapclassSound.played.map(p => p.cue)")
    projector.wait_for_function("() => window.SnapclassSound.played.some(p => p.cue === 'over')")

    # The same pages in 繁體中文.
    for page in (teacher, projector):
        page.context.add_cookies([{"name": "django_language", "value": "zh-hant", "url": live_url}])
    teacher.reload()
    projector.reload()
    expect(teacher.locator("[data-game-over]")).to_contain_text("第 2 局都結束了")
    expect(projector.locator(".projector-status")).to_contain_text("第 2 局結束了")
    _shot(teacher, "console-game-over-zh", full=True)
    _shot(projector, "projector-game-over-zh")
    teacher.goto("/")
    _shot(teacher, "home-zh", full=True)
    teacher.context.add_cookies([{"name": "django_language", "value": "en", "url": live_url}])

    teacher.goto(console_url)
    teacher.get_by_role("button", name="End session").click()
    expect(teacher.locator(".status-line .status")).to_have_text("Ended")
    _shot(projector, "projector-ended-zh")
    teacher.goto("/")
    row = teacher.locator("tr[data-session]").first
    expect(row).to_contain_text("Palm Strike")
    expect(row).to_contain_text("2 games")
    expect(row).to_contain_text("Ended")
    _shot(teacher, "home-en", full=True)
    teacher.goto("/sessions/new/")
    expect(teacher.get_by_label("Players per table")).to_have_value("3")
    expect(teacher.get_by_label("Flip pacing")).to_have_value("auto")
    report = teacher.goto(console_url.rstrip("/") + "/report/")
    assert report is not None
    assert report.ok
    expect(teacher.locator("#by-game")).to_be_visible()
    _shot(teacher, "report-by-game-en", full=True)
    projector_context.close()
