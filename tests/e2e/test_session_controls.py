"""The class controls in a real browser: scoring off, the leaderboard hidden, late join off,
made-up and refused nicknames, and the projector's celebration after End.

Tablets are 1024 x 768 with touch; the projector is 1920 x 1080.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.e2e.conftest import PROJECTOR, screenshot, teacher_sign_up

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

ACCURACY_FEEDBACK = re.compile(r"^(Well spotted! That was a match\.|No match this time.*)$")


def _new_session(
    teacher: Page,
    *,
    game: str = "Palm Strike",
    players: int = 2,
    leaderboard: str | None = None,
    scoring: str | None = None,
    late_join: str | None = None,
    auto_flip: bool = False,
) -> str:
    """A guest session made on the new-session page; its code."""
    teacher.goto("/sessions/new/")
    if game != "Palm Strike":
        # While the chosen game's settings load, the settings and Create wait for them: a
        # setting changed now would be replaced, and a form sent now would be refused.
        held: list[Route] = []
        teacher.route(re.compile(r"/sessions/new/settings/"), lambda route: held.append(route))
        teacher.get_by_label("Game").select_option(label=game)
        expect(teacher.get_by_role("button", name="Create session")).to_be_disabled()
        expect(teacher.get_by_label("Players per table")).to_be_enabled()
        expect(teacher.locator("#game-settings select").first).to_be_disabled()
        for _ in range(100):
            if held:
                break
            teacher.wait_for_timeout(50)
        held[0].continue_()
        teacher.unroute(re.compile(r"/sessions/new/settings/"))
        expect(teacher.locator("#game-settings legend")).to_have_text(f"{game} settings")
        expect(teacher.get_by_role("button", name="Create session")).to_be_enabled()
    teacher.get_by_label("Players per table").fill(str(players))
    if auto_flip:
        teacher.get_by_label("Flip pacing").select_option("auto")
        teacher.get_by_label("Auto-flip every (seconds)").fill("2.5")
        teacher.get_by_label("Response window (seconds)").fill("2")
    if leaderboard:
        teacher.get_by_label("Show the leaderboard").select_option(leaderboard)
    if scoring:
        teacher.get_by_label("Scoring", exact=True).select_option(scoring)
    if late_join:
        teacher.get_by_label("Latecomers").select_option(late_join)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _join(tablet: Page, code: str, name: str) -> None:
    tablet.goto(f"/join/{code}/")
    tablet.get_by_label("Your name").fill(name)
    tablet.get_by_role("button", name="Join").click()
    expect(tablet.get_by_text(f"Hi, {name}!")).to_be_visible()


def _projector(teacher: Page) -> Page:
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    session_id = re.search(r"/sessions/(\d+)/", teacher.url)
    assert session_id is not None, teacher.url
    projector.goto(f"/sessions/{session_id.group(1)}/projector/")
    return projector


def _fresh_flip(tablet: Page, *, after: int) -> int:
    """Wait for a Palm Strike flip newer than ``after``, open for a child's reaction time
    (faster than a human can react counts as implausible and wins nothing); its number."""
    tablet.wait_for_function(
        "(after) => { const ps = pageModules.palm_strike?.tablet; return ps && ps.view"
        " && ps.view.window_closes_ms !== null && ps.shownFlip > after && ps.onset !== null"
        " && performance.now() - ps.onset > 350 && performance.now() - ps.onset < 900; }",
        arg=after,
        timeout=15_000,
    )
    return int(tablet.evaluate("pageModules.palm_strike?.tablet.shownFlip"))


def _control(teacher: Page, group: str, button: str) -> None:
    """Press one of the console's class controls and wait for the console to show it."""
    teacher.bring_to_front()  # a page in the background gets almost no animation frames
    choice = teacher.get_by_role("group", name=group).get_by_role("button", name=button)
    # A click can land on the controls just as the console's socket swaps them for a new
    # draw, and go nowhere; pressing the same choice again changes nothing else.
    for _attempt in range(2):
        choice.click()
        try:
            expect(choice).to_have_attribute("aria-pressed", "true", timeout=7500)
        except AssertionError:
            continue
        return
    expect(choice).to_have_attribute("aria-pressed", "true")


def test_scoring_off_shows_no_points_on_the_tablet_and_the_teacher_can_turn_it_on(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-scoring")
    code = _new_session(teacher, game="Commotion", scoring="off")
    expect(
        teacher.get_by_role("group", name="Scoring").get_by_role("button", name="Accuracy only")
    ).to_have_attribute("aria-pressed", "true")
    ava, ben = new_tablet(), new_tablet()
    _join(ava, code, "Ava")
    _join(ben, code, "Ben")
    teacher.get_by_role("button", name="Start").click()
    ava.wait_for_function("pageModules.commotion?.tablet && pageModules.commotion?.tablet.view")
    opponent = ava.locator(".cm-opponent-name").first
    expect(opponent).to_have_text("Ben")
    screenshot(ava, "controls-scoring-off-tablet")

    # Live: the teacher turns scoring on mid-game and the tablet shows points at once.
    _control(teacher, "Scoring", "Points and winners")
    expect(opponent).to_have_text(re.compile(r"^Ben · \d+ pts$"), timeout=10_000)
    _control(teacher, "Scoring", "Accuracy only")
    expect(opponent).to_have_text("Ben", timeout=10_000)


def test_scoring_off_gives_accuracy_feedback_instead_of_first(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "mr-accuracy")
    code = _new_session(teacher, scoring="off", auto_flip=True)
    ava, ben = new_tablet(), new_tablet()
    _join(ava, code, "Ava")
    _join(ben, code, "Ben")
    teacher.get_by_role("button", name="Start").click()
    ava.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    feedback = ava.locator("[data-feedback]")
    last_flip = 0
    for slap in range(2):
        # Slap an open flip: right or wrong, the tablet says which, never "First!".
        last_flip = _fresh_flip(ava, after=last_flip)
        ava.locator(f'[data-flip="{last_flip}"]').tap()
        expect(feedback).to_be_visible(timeout=4000)
        expect(feedback).to_have_text(ACCURACY_FEEDBACK)
        if slap == 0:
            screenshot(ava, "controls-accuracy-feedback-tablet")
    expect(ava.locator("[data-level]")).to_contain_text(re.compile(r"Right: \d of 2"))


def test_leaderboard_never_keeps_counts_and_winners_off_the_projector(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-never")
    code = _new_session(teacher, leaderboard="never", auto_flip=True)
    ava, ben = new_tablet(), new_tablet()
    _join(ava, code, "Ava")
    _join(ben, code, "Ben")
    projector = _projector(teacher)
    teacher.get_by_role("button", name="Start").click()
    expect(projector.get_by_role("heading", name="Playing!")).to_be_visible(timeout=10_000)
    table = projector.locator(".projector-table").first
    expect(table).to_contain_text("Ava", timeout=5000)
    # How far the table is, instead of who leads.
    progress = table.locator(".projector-centre")
    expect(progress).to_have_text(re.compile(r"^Flip [1-9]"), timeout=8000)
    expect(projector.locator(".card-count")).to_have_count(0)
    expect(projector.locator(".is-winner")).to_have_count(0)
    projector.bring_to_front()
    screenshot(projector, "controls-leaderboard-never-projector")

    # The teacher puts the leaderboard up: the projector shows the counts at once.
    _control(teacher, "Leaderboard", "Always")
    expect(projector.locator(".card-count")).to_have_count(2, timeout=10_000)
    projector.bring_to_front()
    screenshot(projector, "controls-leaderboard-always-projector")


def test_late_join_off_turns_a_latecomer_away_kindly_but_lets_a_player_back(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "mr-late")
    code = _new_session(teacher, late_join="off")
    ava, ben = new_tablet(), new_tablet()
    _join(ava, code, "Ava")
    _join(ben, code, "Ben")
    teacher.get_by_role("button", name="Start").click()
    expect(ava.get_by_role("region", name="Your cards")).to_be_visible(timeout=5000)

    latecomer = new_tablet()
    latecomer.goto(f"/join/{code}/")
    expect(latecomer.get_by_role("heading", name="Hello there!")).to_be_visible()
    expect(latecomer.get_by_role("status")).to_contain_text(
        "This game has already started, so new players can't join it."
    )
    expect(latecomer.get_by_label("Your name")).to_have_count(0)
    screenshot(latecomer, "controls-late-join-refused-tablet")

    # Ava's tablet reloads mid-game: still her seat, straight back into the game.
    ava.reload()
    expect(ava.get_by_role("region", name="Your cards")).to_be_visible(timeout=5000)

    # The teacher opens the door again: the latecomer can join now (at a table of their own).
    _control(teacher, "Latecomers", "Let in")
    latecomer.goto(f"/join/{code}/")
    latecomer.get_by_label("Your name").fill("Zed")
    latecomer.get_by_role("button", name="Join").click()
    expect(latecomer.locator(".ps-me-name")).to_have_text("Zed", timeout=5000)


def test_pick_a_name_fills_the_field_and_a_blocked_name_is_refused(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-names")
    teacher.get_by_role("link", name="Settings").click()
    teacher.get_by_label("Words not allowed in nicknames").fill("Banana\nKevin")
    teacher.get_by_role("button", name="Save").click()
    expect(teacher.get_by_text("Settings saved.")).to_be_visible()
    screenshot(teacher, "controls-teacher-settings")
    code = _new_session(teacher)

    tablet = new_tablet()
    tablet.goto(f"/join/{code}/")
    field = tablet.get_by_label("Your name")
    tablet.get_by_role("button", name="Pick a name for me").tap()
    expect(field).to_have_value(re.compile(r"^[A-Z][a-z]+ [A-Z][a-z]+$"))
    first = field.input_value()
    tablet.get_by_role("button", name="Pick a name for me").tap()
    expect(field).not_to_have_value(first)
    screenshot(tablet, "controls-nickname-picked-tablet")

    field.fill("Big Ba-na-na")
    tablet.get_by_role("button", name="Join").tap()
    expect(tablet.get_by_role("alert")).to_have_text("Please choose a different name.")
    screenshot(tablet, "controls-nickname-refused-tablet")
    field.fill("stu pid")
    tablet.get_by_role("button", name="Join").tap()
    expect(tablet.get_by_role("alert")).to_have_text("Please choose a different name.")

    tablet.get_by_role("button", name="Pick a name for me").tap()
    expect(field).not_to_have_value("stu pid")
    picked = field.input_value()
    tablet.get_by_role("button", name="Join").tap()
    expect(tablet.get_by_text(f"Hi, {picked}!")).to_be_visible()
    expect(teacher.locator(".seat-name", has_text=picked)).to_be_visible(timeout=10_000)

    # The teacher would rather have another name for this guest: renamed from the console.
    teacher.get_by_label(f"Rename {picked}").click()
    teacher.get_by_label(f"New name for {picked}").fill("Calm Koala")
    teacher.get_by_role("button", name="Save", exact=True).click()
    expect(teacher.locator(".seat-name", has_text="Calm Koala")).to_be_visible(timeout=10_000)
    screenshot(teacher, "controls-guest-renamed-console")


def test_pick_a_name_speaks_chinese_on_a_chinese_tablet(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "mr-zh")
    code = _new_session(teacher)
    tablet = new_tablet()
    tablet.context.add_cookies(
        [{"name": "django_language", "value": "zh-hant", "url": teacher.url.split("/sessions")[0]}]
    )
    tablet.goto(f"/join/{code}/")
    tablet.get_by_role("button", name="幫我取個名字").tap()
    expect(tablet.get_by_label("你的名字")).to_have_value(re.compile(r"^\S+的\S+$"))
    screenshot(tablet, "controls-nickname-picked-tablet-zh")


def test_the_projector_celebrates_when_the_session_ends(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-party")
    code = _new_session(teacher, auto_flip=True)
    ava, ben = new_tablet(), new_tablet()
    _join(ava, code, "Ava")
    _join(ben, code, "Ben")
    projector = _projector(teacher)
    teacher.get_by_role("button", name="Start").click()
    ava.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    # Let two flips close (every seat gets a trial per flip), slapping one of them.
    flip = _fresh_flip(ava, after=0)
    ava.locator(f'[data-flip="{flip}"]').tap()
    ava.wait_for_function("pageModules.palm_strike?.tablet.view.flip >= 3", timeout=15_000)

    teacher.bring_to_front()  # a page in the background gets almost no animation frames
    teacher.get_by_role("button", name="End session").click()
    projector.bring_to_front()
    celebration = projector.locator(".celebration")
    expect(celebration).to_be_visible(timeout=10_000)
    expect(celebration.get_by_role("heading", name="Well played, everyone!")).to_be_visible()
    expect(celebration).to_contain_text("Class: Accuracy")
    expect(celebration.locator(".celebration-stat dd").first).to_have_text(re.compile(r"^\d+ %$"))
    expect(projector.locator(".projector-join")).to_be_hidden()  # the code is no use any more
    # The page may swap the fragment once more (late table updates after the end): measure
    # the heading as it is once it holds still.
    title_box = None
    for _attempt in range(30):
        title_box = celebration.get_by_role("heading").bounding_box()
        if title_box is not None:
            break
        projector.wait_for_timeout(100)
    assert title_box is not None
    assert title_box["height"] >= 0.09 * PROJECTOR["height"]  # readable from the back row
    projector.wait_for_timeout(1200)  # mid-confetti
    screenshot(projector, "controls-celebration-projector")

    # Reduced motion: nothing moves; the confetti hangs still.
    projector.emulate_media(reduced_motion="reduce")
    animation = projector.locator(".confetti-piece").first.evaluate(
        "piece => getComputedStyle(piece).animationName"
    )
    assert animation == "none"
    screenshot(projector, "controls-celebration-projector-reduced-motion")
