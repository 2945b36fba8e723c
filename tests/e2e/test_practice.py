"""Practice on a tablet, the way a class uses it: the teacher sets practice, a child scans
their badge, practises Palm Strike against a robot at an adapted level, sees how it went and
their progress; the teacher sees the practice done."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, Route, expect

from tests.e2e.conftest import screenshot, teacher_sign_up, warmup_skip
from tests.e2e.test_lobby import _create_class, _create_session, _join_by_roster
from tests.e2e.test_palm_strike import slap_matches

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e


def _set_practice(teacher: Page) -> str:
    """Palm Strike for the whole class, one game, easiest four levels; returns the code."""
    teacher.get_by_role("link", name="Practice").click()
    expect(teacher.get_by_role("heading", name="Set practice")).to_be_visible()
    # While the chosen game's levels load, the level lists and the button wait for them: a
    # level picked now would be replaced, a form sent now would carry the last game's levels.
    held: list[Route] = []
    teacher.route(re.compile(r"/practice/levels/"), lambda route: held.append(route))
    teacher.get_by_label("Game").select_option(label="Palm Strike")
    expect(teacher.get_by_role("button", name="Set practice")).to_be_disabled()
    expect(teacher.get_by_label("Hardest level")).to_be_disabled()
    for _ in range(100):
        if held:
            break
        teacher.wait_for_timeout(50)
    held[0].continue_()
    teacher.unroute(re.compile(r"/practice/levels/"))
    teacher.get_by_label("Hardest level").select_option(index=3)
    teacher.get_by_label("How much").fill("1")
    teacher.get_by_label("Counted in").select_option("games")
    teacher.get_by_role("button", name="Set practice").click()
    expect(teacher.get_by_text("Practice set.")).to_be_visible()
    expect(teacher.get_by_text("0 of 4 done")).to_be_visible()
    screenshot(teacher, "practice-teacher-set")
    return teacher.get_by_label("Practice code").inner_text().strip()


def _open_practice_by_code(teacher: Page) -> str:
    """On the class's Practice page: open sign-in by code (an hour); returns the code."""
    teacher.get_by_role("button", name="Open practice by code").click()
    expect(teacher.get_by_text("Children can sign in with the practice code now.")).to_be_visible()
    return teacher.get_by_label("Practice code").inner_text().strip()


def _badge_url(teacher: Page, class_url: str, name: str) -> str:
    teacher.goto(class_url)
    teacher.get_by_role("link", name="Print badges").click()
    badge = teacher.locator(".badge", has_text=name)
    url = badge.get_attribute("data-badge-url")
    assert url is not None
    assert "/b/" in url
    return url


def test_badge_practice_progress_and_the_teacher_sees_it_done(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-practice")
    _create_class(teacher)
    class_url = teacher.url
    practice_code = _set_practice(teacher)
    assert len(practice_code) == 6
    badge = _badge_url(teacher, class_url, "Ava")

    ava = new_tablet()
    ava.goto(badge)
    expect(ava.get_by_role("heading", name="Hi, Ava!")).to_be_visible()
    expect(ava.get_by_text("0 of 1 game")).to_be_visible()
    expect(ava.locator(".practice-game", has_text="Palm Strike")).to_contain_text("Level 1 of 9")
    screenshot(ava, "practice-home")

    ava.get_by_role("button", name="Start").click()
    warmup_skip(ava)
    expect(ava.get_by_role("button", name="I'm done")).to_be_visible()
    ava.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    assert slap_matches(ava, slaps=2, seconds=60, flips=4) >= 1, "no match came up in a minute"
    view = ava.evaluate("pageModules.palm_strike?.tablet.view")
    assert view["adaptive"]["rungs"] == 9
    expect(ava.locator("[data-adaptive-level]")).to_have_text(re.compile(r"^Level [1-4] of 9$"))
    screenshot(ava, "practice-palm-strike")

    ava.get_by_role("button", name="I'm done").click()
    expect(ava.get_by_role("heading", name="Well played!")).to_be_visible()
    expect(ava.locator(".practice-figures")).to_contain_text("Right answers")
    screenshot(ava, "practice-result")

    ava.get_by_role("link", name="My progress").click()
    game = ava.locator(".practice-progress-game", has_text="Palm Strike")
    expect(game.locator(".level-step.is-practice")).to_have_count(1)
    expect(game.locator(".practice-table")).to_contain_text("practice")
    screenshot(ava, "practice-progress")

    ava.get_by_role("link", name="Practise").click()
    expect(ava.locator(".practice-done")).to_contain_text("1 of 1 game")

    teacher.goto(class_url)
    teacher.get_by_role("link", name="Practice").click()
    row = teacher.locator("tr", has_text="Ava")
    expect(row).to_contain_text("Complete")
    expect(teacher.get_by_text("1 of 4 done")).to_be_visible()
    row.get_by_role("link", name="Ava").click()
    expect(teacher.get_by_role("heading", name="Level track")).to_be_visible()
    screenshot(teacher, "practice-teacher-progress")


def test_class_code_sign_in_and_palm_strike_alone(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "mr-solo")
    _create_class(teacher)
    teacher.get_by_role("link", name="Practice").click()
    code = _open_practice_by_code(teacher)

    ben = new_tablet()
    ben.goto("/practice/")
    ben.get_by_label("Class practice code").fill("WRONG1")
    ben.get_by_role("button", name="Next").click()
    expect(ben.get_by_role("alert")).to_contain_text("couldn't find a class")
    ben.get_by_label("Class practice code").fill(code.lower())
    ben.get_by_role("button", name="Next").click()
    ben.get_by_role("button", name="Ben").click()
    expect(ben.get_by_role("heading", name="Hi, Ben!")).to_be_visible()

    ben.locator(".practice-game", has_text="Palm Strike").get_by_role(
        "button", name="Play alone"
    ).click()
    warmup_skip(ben)
    ben.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    view = ben.evaluate("pageModules.palm_strike?.tablet.view")
    assert len(view["players"]) == 1, "alone means no robot at the table"
    screenshot(ben, "practice-palm-strike-alone")


@pytest.mark.parametrize(("game", "rungs"), [("Commotion", 8), ("Riff Raff", 6)])
def test_commotion_and_riff_raff_practice_at_an_adapted_level(
    teacher_page: Page, new_tablet: Callable[[], Page], game: str, rungs: int
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, f"practice-{game.lower().replace(' ', '-')}")
    _create_class(teacher)
    teacher.get_by_role("link", name="Practice").click()
    code = _open_practice_by_code(teacher)

    chen = new_tablet()
    chen.goto(f"/practice/sign-in/{code}/")
    chen.get_by_role("button", name="Chen").click()
    card = chen.locator(".practice-game", has_text=game)
    expect(card).to_contain_text(f"Level 1 of {rungs}")
    card.get_by_role("button", name="Play with robots").click()
    warmup_skip(chen)
    expect(chen.locator("[data-adaptive-level]")).to_have_text(f"Level 1 of {rungs}", timeout=10000)
    chen.wait_for_timeout(1500)  # the countdown / first round gets going
    screenshot(chen, f"practice-{game.lower().replace(' ', '-')}")
    chen.get_by_role("button", name="I'm done").click()
    expect(chen.get_by_role("heading", name="Well played!")).to_be_visible()


def test_a_code_sign_in_is_not_the_badge(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    """Issue 15 §1 as a class would meet it: someone who read the practice code taps Ava's
    name while Ava plays, and is kindly refused her seat; Ben's new badge signs out the
    tablet practising with the old one; turning the code off signs out code tablets."""
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-badge")
    _create_class(teacher)
    class_url = teacher.url
    teacher.get_by_role("link", name="Practice").click()
    practice_url = teacher.url
    code = _open_practice_by_code(teacher)
    screenshot(teacher, "practice-code-open")

    # Ben practises with his badge; the teacher gives him a new one: that tablet stops.
    ben = new_tablet()
    ben.goto(_badge_url(teacher, class_url, "Ben"))
    expect(ben.get_by_role("heading", name="Hi, Ben!")).to_be_visible()
    ben.locator(".practice-game", has_text="Palm Strike").get_by_role(
        "button", name="Play alone"
    ).click()
    warmup_skip(ben)
    ben.wait_for_function("pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view")
    teacher.goto(class_url)
    teacher.get_by_role("button", name="New badge for Ben").click()
    expect(teacher.get_by_role("status")).to_contain_text("New badge for Ben")
    expect(ben.get_by_text("Your badge was replaced")).to_be_visible()
    screenshot(ben, "practice-badge-replaced")
    ben.goto("/practice/")
    expect(ben.get_by_role("alert")).to_contain_text("Scan your new badge")

    # Ava plays in class; a tablet signed in by code as Ava cannot take her seat.
    game_code = _create_session(teacher)
    ava = new_tablet()
    _join_by_roster(ava, game_code, "Ava")
    other = new_tablet()
    other.goto("/practice/")
    other.get_by_label("Class practice code").fill(code)
    other.get_by_role("button", name="Next").click()
    other.get_by_role("button", name="Ava").click()
    expect(other.get_by_role("heading", name="Hi, Ava!")).to_be_visible()
    other.get_by_role("button", name="Join your class").click()
    expect(other.get_by_role("alert")).to_contain_text("Ava is already playing on another tablet")
    screenshot(other, "practice-code-join-refused")
    expect(ava.get_by_text("Hi, Ava!")).to_be_visible()  # Ava keeps her seat
    ava.reload()
    expect(ava.get_by_text("Hi, Ava!")).to_be_visible()

    # The teacher turns code sign-in off: the code tablet is signed out, kindly.
    teacher.goto(practice_url)
    teacher.get_by_role("button", name="Turn code sign-in off").click()
    expect(teacher.get_by_text("1 tablet was signed out.")).to_be_visible()
    other.goto("/practice/")
    expect(other.get_by_role("alert")).to_contain_text("closed right now")
