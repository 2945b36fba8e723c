"""A teacher shares a class with a colleague, who runs a session of it; the owner sees that
session, revokes the share, and the colleague's pages of the class answer 404."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import LAPTOP, screenshot, teacher_sign_up
from tests.e2e.test_lobby import _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.e2e


@pytest.fixture
def colleague_page(browser: Browser, live_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=live_url, viewport=LAPTOP)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def test_a_shared_class_is_run_by_the_colleague_until_the_owner_revokes_it(
    teacher_page: Page, colleague_page: Page, new_tablet: Callable[[], Page]
) -> None:
    owner, colleague = teacher_page, colleague_page
    teacher_sign_up(colleague, "mr-share-wu")
    teacher_sign_up(owner, "ms-share-lin")
    owner.get_by_role("link", name="New class").click()
    owner.get_by_label("Class name").fill("Year 5 Herons")
    owner.get_by_label("Student names").fill("Ava\nBen")
    owner.get_by_role("button", name="Save").click()
    class_url = owner.url

    # The owner shares it; a mistyped name and their own name are refused in the card.
    shares = owner.locator("#class-shares")
    owner.get_by_label("Colleague's username or e-mail").fill("mr-share-woo")
    owner.get_by_role("button", name="Share", exact=True).click()
    expect(shares).to_contain_text(
        "No colleague's account can be shared with as “mr-share-woo”. Check their exact username"
    )
    owner.get_by_label("Colleague's username or e-mail").fill("ms-share-lin")
    owner.get_by_role("button", name="Share", exact=True).click()
    expect(shares).to_contain_text("This is your own class: you have it already.")
    owner.get_by_label("Colleague's username or e-mail").fill("mr-share-wu")
    owner.get_by_label("Role").select_option(label="Co-teacher")
    owner.get_by_role("button", name="Share", exact=True).click()
    expect(shares).to_contain_text("Year 5 Herons is now shared with mr-share-wu (Co-teacher).")
    expect(shares.get_by_role("row", name=re.compile("mr-share-wu"))).to_contain_text("Co-teacher")
    shares.scroll_into_view_if_needed()
    screenshot(owner, "class-shares-owner")

    # The colleague finds it on their home page and runs a session of it.
    colleague.goto("/")
    classes = colleague.locator("#classes-heading").locator("..")
    expect(classes).to_contain_text("Year 5 Herons")
    expect(classes).to_contain_text("shared by ms-share-lin")
    screenshot(colleague, "class-shares-colleague-home")
    classes.get_by_role("link", name="Year 5 Herons").click()
    expect(colleague.get_by_text("Shared with you by ms-share-lin (Co-teacher)")).to_be_visible()
    expect(colleague.get_by_role("link", name="Delete class")).to_have_count(0)
    expect(colleague.locator("#class-shares")).to_have_count(0)
    screenshot(colleague, "class-shares-colleague-class")
    colleague.get_by_role("link", name="New session").click()
    expect(colleague.get_by_label("Class", exact=True)).to_have_value(
        re.compile(r"\d+")
    )  # the shared class, chosen from its page
    colleague.get_by_role("button", name="Create session").click()
    code = colleague.get_by_label("Session code").inner_text().strip()
    console_url = colleague.url
    tablet = new_tablet()
    _join_by_roster(tablet, code, "Ava")
    expect(colleague.locator(".seat", has_text="Ava")).to_be_visible()
    screenshot(colleague, "class-shares-colleague-console")

    # The session belongs to the class: the owner sees it, and who runs it.
    owner.goto("/")
    sessions = owner.locator(".home-sessions")
    expect(sessions).to_contain_text("run by mr-share-wu")
    expect(sessions.get_by_text(code)).to_be_visible()

    # The owner revokes: the colleague gets 404 on the class and on the session they ran.
    owner.goto(class_url)
    owner.get_by_role("button", name="Revoke access for mr-share-wu").click()
    expect(shares).to_contain_text("mr-share-wu no longer has access to Year 5 Herons.")
    expect(shares).to_contain_text("Only you.")
    shares.scroll_into_view_if_needed()
    screenshot(owner, "class-shares-revoked")
    for url in (console_url, class_url):
        response = colleague.goto(url)
        assert response is not None
        assert response.status == 404, url
    screenshot(colleague, "class-shares-colleague-404")
    colleague.goto("/")
    expect(colleague.locator("main")).not_to_contain_text("Year 5 Herons")
