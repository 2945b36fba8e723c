"""The new-session form as a new teacher meets it (issue 45): the length of one game follows
the settings as they change, and Palm Strike's levels come with their pictures."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.e2e.conftest import screenshot, teacher_sign_up

pytestmark = pytest.mark.e2e


def _palm_strike_form(teacher: Page, username: str) -> Locator:
    """A new teacher's new-session form with Palm Strike chosen: its length, once shown."""
    teacher_sign_up(teacher, username)
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Palm Strike")
    length = teacher.locator("#game-length")
    expect(length).to_have_text("About 3 minutes a game", timeout=10_000)
    return length


def test_the_length_of_a_game_follows_the_settings(teacher_page: Page) -> None:
    teacher = teacher_page
    _palm_strike_form(teacher, "ms-form-length")
    expect(teacher.locator(".match-example[data-level]")).to_have_count(3)
    expect(teacher.get_by_label("Colour words in")).to_be_visible()
    teacher.get_by_label("Points target").fill("0")
    teacher.get_by_label("Points target").dispatch_event("change")
    expect(teacher.locator("#game-length")).to_have_text("Under a minute a game")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_label("Points target").fill("40")
    teacher.get_by_label("Points target").dispatch_event("change")
    expect(teacher.locator("#game-length")).to_have_text("About 14 minutes a game")
    # Another game: its own settings, with the length of its own default game.
    teacher.get_by_label("Game").select_option(label="Riff Raff")
    expect(teacher.locator("#game-settings legend")).to_contain_text("Riff Raff")
    # No colour words on Riff Raff's cards: not asked in which language.
    expect(teacher.get_by_label("Colour words in")).to_be_hidden()
    expect(teacher.locator("#game-length")).to_contain_text("minutes a game", timeout=30_000)
    screenshot(teacher, "session-form-riff-raff")


def test_a_change_made_while_a_length_is_on_its_way_is_not_lost(teacher_page: Page) -> None:
    """The answer to one change lands while the next change waits out its 250 ms: the page
    asks about the later change too, and shows its length."""
    teacher = teacher_page
    length = _palm_strike_form(teacher, "ms-form-race")
    teacher.wait_for_load_state("networkidle")

    held: list[Route] = []

    def hold_the_first(route: Route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    teacher.route("**/sessions/new/length/**", hold_the_first)
    points = teacher.get_by_label("Points target")
    points.fill("0")
    points.dispatch_event("change")
    while not held:
        teacher.wait_for_timeout(20)
    answer = held[0].fetch()  # "Under a minute a game", kept back for now
    teacher.get_by_label("Players per table").fill("2")
    points.fill("40")
    points.dispatch_event("change")
    held[0].fulfill(response=answer)  # lands inside the later change's 250 ms
    expect(length).to_have_text("About 14 minutes a game")
