"""A whole class joining makes a join take seconds: a child who taps Join again meanwhile
still ends up in the lobby, on one seat."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import APIResponse, Page, Request, Route, expect

from tests.e2e.conftest import guest_session_create, screenshot

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e


def test_a_second_tap_on_join_while_the_first_is_answered_keeps_one_seat(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    code = guest_session_create(teacher_page, username="ms-slow")
    console_url = teacher_page.url
    tablet = new_tablet()
    tablet.goto(f"/join/{code}/")

    # The tap is answered at once: the button spins and says the tablet is joining. (Seen
    # with the page kept from leaving: a page on its way to the next one cannot be read.)
    tablet.evaluate("window.addEventListener('submit', (event) => event.preventDefault())")
    tablet.get_by_label("Your name").fill("Mia")
    tablet.get_by_role("button", name="Join").click()
    busy = tablet.get_by_role("button", name="Joining…")
    expect(busy).to_have_attribute("aria-busy", "true")
    expect(tablet.locator(".join-form")).to_have_attribute("aria-busy", "true")
    screenshot(tablet, "join-busy")

    # The same with a server that seats Mia at once but whose answer is held back, as on a
    # busy morning: the child taps again meanwhile.
    tablet.reload()
    tablet.get_by_label("Your name").fill("Mia")
    posts: list[Request] = []
    held: list[tuple[Route, APIResponse]] = []

    def slow_server(route: Route) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        posts.append(route.request)
        answer = route.fetch()
        if len(posts) == 1:
            # Not yet at the tablet: the cookie of its seat comes with the answer, held here.
            tablet.context.clear_cookies(name=re.compile("^seat_"))
            held.append((route, answer))
        else:
            route.fulfill(response=answer)

    tablet.route(f"**/join/{code}/", slow_server)
    join = tablet.get_by_role("button", name="Join")
    box = join.bounding_box()
    assert box is not None
    join.click(no_wait_after=True)
    for _ in range(50):
        if held:
            break
        tablet.wait_for_timeout(100)
    assert held, "the first tap never reached the server"
    # A tap as the screen sends it: Playwright's own click would wait for the page's
    # navigation to end first.
    tablet.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tablet.wait_for_timeout(1000)
    assert len(posts) == 1, "the second tap was sent again"

    route, answer = held[0]
    route.fulfill(response=answer)
    expect(tablet.get_by_text("Hi, Mia!")).to_be_visible()
    expect(tablet).to_have_url(re.compile(rf"/play/{code}/$"))

    teacher_page.goto(console_url)
    expect(teacher_page.get_by_text("Mia", exact=True)).to_have_count(1)
