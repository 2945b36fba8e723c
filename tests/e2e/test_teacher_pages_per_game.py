"""A class plays each game to game over; every teacher page then speaks that game's measures.

For each game: the console and the projector at game over, the session report, a seat's
report, class progress and a student's progress, each photographed whole
(``test-artifacts/pages-<game>-<page>.png``). The measure names come from the game's site
module (``classroom/gamesite/<game>.py``); another game's words (d', slaps) never show.
"""

from __future__ import annotations

import contextlib
import re
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from classroom.gamesite import game_site
from classroom.pages.render_schedule import DASHBOARD_GAP_S
from tests.e2e.conftest import ARTIFACTS, PROJECTOR, teacher_sign_up
from tests.e2e.test_commotion import _move
from tests.e2e.test_lobby import _create_class, _join_by_roster
from tests.e2e.test_palm_strike import has_match
from tests.e2e.test_riff_raff import _turn

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_S = 180  # Riff Raff takes 2 minutes on a shared 2-core machine
TAP_MS = 2000
STUDENTS = ("Ava", "Ben")


# --------------------------------------------------------------------------------------------
# Each game's smallest honest session, and the fastest way the other tests play it


def _new_session(teacher: Page, game: str, players: int) -> None:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label=game)
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill(str(players))


def _palm_strike_session(teacher: Page) -> None:
    _new_session(teacher, "Palm Strike", 2)
    teacher.get_by_label("Matching level").select_option("beginner")
    teacher.get_by_label("Cards per player").select_option("2")
    teacher.get_by_label("Response window (seconds)").fill("1.5")
    teacher.get_by_label("Flip pacing").select_option("auto")
    teacher.get_by_label("Auto-flip every (seconds)").fill("2")
    teacher.get_by_label("Points target").fill("0")  # one round: the game ends in time


def _commotion_session(teacher: Page) -> None:
    _new_session(teacher, "Commotion", 4)  # two bots fill the table
    teacher.get_by_label("Refill pile").fill("5")
    teacher.get_by_label("Target score").fill("5")
    teacher.get_by_label("Bot speed").select_option("quick")


def _riff_raff_session(teacher: Page) -> None:
    _new_session(teacher, "Riff Raff", 3)  # a bot fills the third seat
    teacher.get_by_label("Wave strength").fill("1")
    teacher.get_by_label("Catch window (seconds)").fill("1.5")  # a missed catch costs less
    teacher.get_by_label("Cargo pieces per player").fill("4")


def _play_palm_strike(tablets: dict[str, Page]) -> None:
    """Ava slaps every match a moment after it shows (each right slap sheds one of her two
    cards); Ben holds back. Anyone asked to choose a card takes the first."""
    for tablet in tablets.values():
        expect(tablet.get_by_role("region", name="Your cards")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view"
        )
    ava = tablets["Ava"]
    handled = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        view: dict[str, Any] = ava.evaluate("pageModules.palm_strike?.tablet.view")
        if view["phase"] == "game_over":
            return
        for tablet in tablets.values():
            choice = tablet.evaluate("pageModules.palm_strike?.tablet.view.choice")
            if choice:
                kind = ".player-choice" if choice["reason"] == "player" else ".card-choice"
                with contextlib.suppress(PlaywrightTimeoutError):
                    tablet.locator(kind).first.tap(timeout=TAP_MS, force=True)
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") and flip > handled and view.get("public"):
            handled = flip
            if has_match(view):
                ava.wait_for_timeout(300)
                with contextlib.suppress(PlaywrightTimeoutError):
                    ava.locator(f'[data-flip="{flip}"]').tap(timeout=TAP_MS)
        ava.wait_for_timeout(30)
    pytest.fail("the Palm Strike game did not end in time")


def _play_commotion(tablets: dict[str, Page]) -> None:
    for tablet in tablets.values():
        expect(tablet.get_by_role("region", name="Centre piles")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.commotion?.tablet && pageModules.commotion?.tablet.view"
        )
    ava = tablets["Ava"]
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        if ava.evaluate("pageModules.commotion?.tablet.view.phase") == "game_over":
            return
        if not all([_move(tablet) for tablet in tablets.values()]):
            ava.wait_for_timeout(200)  # a round is over: the next one deals by itself
    pytest.fail("the Commotion game did not end in time")


def _two_at_once(tablet: Page) -> str:
    """Asked to place one or two pieces on an area with cargo: two (the supply empties, and
    the game ends, sooner). The phase, or "" when not asked."""
    view: dict[str, Any] = tablet.evaluate("pageModules.riff_raff?.tablet.view")
    if view["phase"] != "declaring" or view["active"] != view["you"]:
        return ""
    controls = tablet.locator("[data-controls] button")
    if controls.count():
        controls.last.tap(timeout=TAP_MS)
    return "declaring"


def _play_riff_raff(tablets: dict[str, Page]) -> None:
    for tablet in tablets.values():
        expect(tablet.get_by_role("img", name="The ship and its cargo")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.riff_raff?.tablet && pageModules.riff_raff?.tablet.view"
        )
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        phases = set()
        for name, tablet in tablets.items():
            with contextlib.suppress(PlaywrightTimeoutError):
                phases.add(_two_at_once(tablet) or _turn(tablet, careful=name == "Ava"))
        if "game_over" in phases:
            return
        tablets["Ava"].wait_for_timeout(60)
    pytest.fail("the Riff Raff game did not end in time")


GAMES: dict[str, tuple[Callable[[Page], None], Callable[[dict[str, Page]], None]]] = {
    "palm_strike": (_palm_strike_session, _play_palm_strike),
    "commotion": (_commotion_session, _play_commotion),
    "riff_raff": (_riff_raff_session, _play_riff_raff),
}


# --------------------------------------------------------------------------------------------
# What a teacher must be able to trust on every page

# Words of Palm Strike's measures that mean nothing in a game without signal detection.
DPRIME = "d\u2032"  # d prime
SIGNAL_WORDS = (DPRIME, "Sensitivity", "False alarms", "Correct rejections")
# Palm Strike's own words for a response.
SLAP_WORDS = re.compile(r"\bslap", re.IGNORECASE)
GENERIC_RT = ("Median correct reaction time", "Median RT", "RT (last 10)")


def _photo(page: Page, game: str, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"pages-{game.replace('_', '-')}-{name}.png"
    page.screenshot(path=str(path), full_page=True)


def _visible_words(page: Page) -> str:
    """What the page shows, with the charts' titles, axes and legends (SVG text)."""
    svg = page.locator(".chart-svg").all_text_contents()
    return page.locator("body").inner_text() + "\n" + "\n".join(svg)


def _fits_the_laptop(page: Page, what: str, faults: list[str]) -> None:
    wide = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    if wide[0] > wide[1]:
        faults.append(f"{what} is {wide[0]} px wide in a {wide[1]} px window")


def _tiles_hold_their_words(page: Page, faults: list[str]) -> None:
    """No live-skills tile has words or figures past its edge (a tile is narrow: a figure
    withheld for want of play must wrap inside it)."""
    wide = page.evaluate(
        """[...document.querySelectorAll('.student-tile')]
            .filter((tile) => tile.scrollWidth > tile.clientWidth)
            .map((tile) => [tile.dataset.name, tile.scrollWidth, tile.clientWidth])"""
    )
    faults.extend(
        f"{name}'s live-skills tile holds {inner} px in {outer} px" for name, inner, outer in wide
    )


def _speaks_the_game(
    page: Page, slug: str, what: str, faults: list[str], *, measures: tuple[str, ...]
) -> str:
    """The page names these measures of the game and no other game's words (each fault is
    noted, so one run tells every page's)."""
    site = game_site(slug)
    words = _visible_words(page)
    faults.extend(
        f"{what}: no {label!r}"
        for key in measures
        if (label := str(site.measure(key).label)) not in words
    )
    if not site.signal_detection:
        faults.extend(f"{what} shows {word!r}" for word in SIGNAL_WORDS if word in words)
        if found := SLAP_WORDS.search(words):
            around = words[found.start() - 40 : found.end() + 40]
            faults.append(f"{what} speaks of slaps: {around!r}")
    if site.speed != "median_rt":
        faults.extend(f"{what} says {phrase!r}" for phrase in GENERIC_RT if phrase in words)
    return words


@pytest.mark.timeout(GAME_TIMEOUT_S + 120)
@pytest.mark.parametrize("slug", list(GAMES))
def test_every_teacher_page_speaks_the_games_own_measures(
    slug: str, teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    started = time.monotonic()
    faults: list[str] = []
    site = game_site(slug)
    headline, speed = site.headline, site.speed
    make_session, play = GAMES[slug]
    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-pages-{slug.replace('_', '-')}")
    _create_class(teacher)
    class_url = teacher.url
    make_session(teacher)
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    console_url = teacher.url
    tablets = {name: new_tablet() for name in STUDENTS}
    for name, tablet in tablets.items():
        _join_by_roster(tablet, code, name)
    teacher.get_by_role("button", name="Start").click()
    play(tablets)
    played = time.monotonic() - started

    # The console at game over: the table says so, its last responses have a legend, and the
    # live tiles speak the game's headline rate and speed.
    expect(teacher.locator(".game-tile-status")).to_contain_text("Game over", timeout=8000)
    dashboard = teacher.get_by_role("region", name="Live skills")
    expect(dashboard.locator(".student-tile").first).to_be_visible(timeout=8000)
    legend = teacher.locator(".trial-legend")
    expect(legend).to_be_visible()
    for mark in ("✓", "✗", "—"):
        expect(legend).to_contain_text(mark)
    # The live skills follow the last trials at most DASHBOARD_GAP_S later: the final numbers.
    teacher.wait_for_timeout(DASHBOARD_GAP_S * 1000 + 800)
    _photo(teacher, slug, "console")
    _fits_the_laptop(teacher, "the console", faults)
    _tiles_hold_their_words(teacher, faults)
    _speaks_the_game(teacher, slug, "the console", faults, measures=(headline, speed))
    winners = teacher.locator(".game-table tr.is-winner th").all_inner_texts()

    # The projector, from the back row: "Game over" for the table, and who won.
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(console_url.rstrip("/") + "/projector/")
    over = projector.locator(".projector-over")
    expect(over).to_contain_text("Game over", timeout=8000)
    for winner in winners:
        name = winner.split("(")[0].replace("winner", "").strip()
        expect(over).to_contain_text(f"{name} wins")
    _photo(projector, slug, "projector")
    projector.close()

    # The session report: the game's columns, and charts titled with its own measures.
    teacher.get_by_role("link", name="Full report").click()
    expect(teacher.get_by_role("heading", name=re.compile("Session report"))).to_be_visible()
    expect(teacher.locator(".chart svg").first).to_be_visible()
    _photo(teacher, slug, "session-report")
    _fits_the_laptop(teacher, "the session report", faults)
    _speaks_the_game(
        teacher, slug, "the session report", faults, measures=tuple(m.key for m in site.measures)
    )
    # A chart is named by its caption (a plain figure: axe refuses a role on one).
    titles = [t.strip() for t in teacher.locator("figure.chart > figcaption").all_text_contents()]
    # Each chart is of one of the game's own measures (one no trial has is left out: a game
    # where nothing fell has no catch-time chart), and its rate is charted.
    own = {f"{measure.label} by level" for measure in site.measures}
    faults.extend(
        f"the chart {title!r} is not of a {slug} measure" for title in titles if title not in own
    )
    # A rate is charted: the headline, or in a game of several kinds one kind's (a Riff Raff
    # game where nothing fell has only "Stayed aboard").
    rates = [site.measure(key) for key in site.kind_rates.values()] or [site.headline_measure]
    if not any(f"{rate.label} by level" in titles for rate in rates):
        faults.append(f"the session report charts no rate of {slug}: {titles}")

    # One seat's report: its measures and every trial in the game's own columns.
    teacher.get_by_role("link", name="Ava", exact=True).first.click()
    expect(teacher.get_by_role("heading", name="Every trial")).to_be_visible()
    _photo(teacher, slug, "seat-report")
    _fits_the_laptop(teacher, "the seat report", faults)
    _speaks_the_game(
        teacher, slug, "the seat report", faults, measures=tuple(m.key for m in site.measures)
    )

    # Class progress: the latest session of every student, in the game's headline and speed.
    teacher.goto(class_url)
    teacher.get_by_role("link", name="Progress").click()
    expect(teacher.get_by_role("heading", name="Class progress")).to_be_visible()
    _photo(teacher, slug, "class-progress")
    _fits_the_laptop(teacher, "class progress", faults)
    words = _speaks_the_game(teacher, slug, "class progress", faults, measures=(headline, speed))
    if site.signal_detection and DPRIME not in words:
        faults.append(f"class progress of {slug} has no d'")

    # One student's progress: the summary, charts and numbers of the game.
    # The first of her links: her row of the progress table (the verdicts name her again).
    teacher.get_by_role("link", name="Ava", exact=True).first.click()
    expect(teacher.locator(".summary-sentence").first).to_be_visible()
    _photo(teacher, slug, "student-progress")
    _fits_the_laptop(teacher, "student progress", faults)
    words = _speaks_the_game(teacher, slug, "student progress", faults, measures=(headline, speed))
    if site.signal_detection and DPRIME not in words:
        faults.append(f"student progress of {slug} has no d'")
    print(f"{slug}: played to game over in {played:.1f} s, pages in "
          f"{time.monotonic() - started - played:.1f} s")  # fmt: skip
    assert not faults, "\n".join(faults)
