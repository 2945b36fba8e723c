"""Teacher accounts in a real browser, on a site of its own whose mail goes to a real SMTP
server (aiosmtpd) started here: a school admin invites a teacher, who signs up by the mailed
link; a teacher resets a forgotten password by mail; the admin disables a teacher, whose open
console closes."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import LAPTOP, ROOT, screenshot, served, site_env, teacher_sign_up
from tests.mail_server import body, mail_server_run

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

    from tests.mail_server import Mailbox

pytestmark = pytest.mark.e2e

PASSWORD = "tablets-and-tigers-42"
NEW_PASSWORD = "lanterns-over-the-harbour-9"
ADMIN = "head-office"


class Accounts:
    def __init__(self, url: str, mailbox: Mailbox, env: dict[str, str]) -> None:
        self.url, self.mailbox, self.env = url, mailbox, env

    def link_in_mail(self, number: int, to: str) -> str:
        """The link of the ``number``-th mail (from 1), which went to ``to``."""
        message = self.mailbox.wait_for(number)[number - 1]
        assert message["To"] == to
        found = re.search(re.escape(self.url) + r"(/\S+)", body(message))
        assert found, body(message)
        return found.group(1)


@pytest.fixture(scope="module")
def accounts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Accounts]:
    for mailbox, port in mail_server_run():
        env = site_env(tmp_path_factory.mktemp("accounts-site"))
        env |= {
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(port),
            "EMAIL_USE_TLS": "0",
            "DEFAULT_FROM_EMAIL": "snapclass@school.example",
        }
        log: Path = tmp_path_factory.mktemp("accounts-log") / "daphne.log"
        with served(env, log) as url:
            yield Accounts(url, mailbox, env)


@pytest.fixture
def open_page(browser: Browser, accounts: Accounts) -> Iterator[Callable[..., Page]]:
    contexts = []

    def opener(language: str = "en") -> Page:
        context = browser.new_context(base_url=accounts.url, viewport=LAPTOP)
        if language != "en":
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": accounts.url}]
            )
        contexts.append(context)
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        return page

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def admin_made(accounts: Accounts, browser: Browser) -> str:
    """The school's first admin: signed up, then made admin by ``manage.py school_admin``."""
    context = browser.new_context(base_url=accounts.url, viewport=LAPTOP)
    teacher_sign_up(context.new_page(), ADMIN)
    context.close()
    result = subprocess.run(
        [sys.executable, "manage.py", "school_admin", ADMIN],
        cwd=ROOT, env=accounts.env, capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return ADMIN


def _log_in(page: Page, username: str, password: str) -> None:
    """(By the fields' names: the page may be in either language.)"""
    page.goto("/accounts/login/")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.locator("main button[type=submit]").click()


def _invite(admin: Page, accounts: Accounts, email: str) -> str:
    """The admin invites ``email``; the invitation's link, from the mail that arrived."""
    admin.goto("/school/teachers/")
    admin.get_by_label("Teacher's e-mail address").fill(email)
    sent = len(accounts.mailbox.messages)
    admin.get_by_role("button", name="Invite", exact=True).click()
    expect(admin.locator(".flash-list")).to_contain_text(f"Invitation sent to {email}")
    return accounts.link_in_mail(sent + 1, email)


def _accept(page: Page, link: str, email: str) -> None:
    page.goto(link)
    expect(page.get_by_text(email)).to_be_visible()
    page.get_by_label("New password", exact=True).fill(PASSWORD)
    page.get_by_label("New password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Make my account").click()
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()


def _teacher_invited(
    accounts: Accounts, admin: str, open_page: Callable[..., Page], email: str
) -> tuple[Page, Page]:
    """The admin's page, signed in, and the page of the teacher they invited, signed up."""
    admin_page, teacher = open_page(), open_page()
    _log_in(admin_page, admin, PASSWORD)
    _accept(teacher, _invite(admin_page, accounts, email), email)
    return admin_page, teacher


def test_an_invited_teacher_signs_up_by_the_mailed_link(
    accounts: Accounts, admin_made: str, open_page: Callable[..., Page]
) -> None:
    admin = open_page()
    _log_in(admin, admin_made, PASSWORD)
    expect(admin.get_by_role("link", name="Teachers")).to_be_visible()
    link = _invite(admin, accounts, "ms.chen@school.example")
    expect(admin.locator("main")).to_contain_text("Waiting to be accepted")
    screenshot(admin, "accounts-admin-invited")

    teacher = open_page()
    teacher.goto(link)
    screenshot(teacher, "accounts-invitation")
    _accept(teacher, link, "ms.chen@school.example")
    expect(teacher.locator(".topnav-user")).to_have_text("ms.chen@school.example")

    # The link worked once.
    again = open_page()
    again.goto(link)
    expect(again.get_by_role("alert")).to_contain_text("expired or was used already")

    admin.goto("/school/teachers/")
    row = admin.get_by_role("row", name=re.compile("ms.chen@school.example"))
    expect(row).to_contain_text("Active")
    screenshot(admin, "accounts-admin-teachers")
    admin.get_by_role("link", name="Audit log").click()
    expect(admin.locator("main")).to_contain_text("Signed up by invitation")
    screenshot(admin, "accounts-admin-audit")

    zh = open_page("zh-hant")
    _log_in(zh, admin_made, PASSWORD)
    zh.goto("/school/teachers/")
    expect(zh.get_by_role("heading", name="老師", exact=True)).to_be_visible()
    screenshot(zh, "accounts-admin-teachers-zh-hant")
    visitor = open_page("zh-hant")
    visitor.goto(link)
    expect(visitor.get_by_role("alert")).to_contain_text("這個連結已過期或已經用過")
    screenshot(visitor, "accounts-invitation-used-zh-hant")


def test_a_teacher_resets_a_forgotten_password_by_mail(
    accounts: Accounts, admin_made: str, open_page: Callable[..., Page]
) -> None:
    email = "mr.wu@school.example"
    _admin, _teacher = _teacher_invited(accounts, admin_made, open_page, email)

    page = open_page()
    page.goto("/accounts/login/")
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(email)
    screenshot(page, "accounts-reset-form")
    sent = len(accounts.mailbox.messages)
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    link = accounts.link_in_mail(sent + 1, email)

    page.goto(link)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    screenshot(page, "accounts-reset-new-password")
    page.get_by_role("button", name="Set my password").click()
    expect(page.get_by_role("heading", name="Password set")).to_be_visible()

    _log_in(page, email, PASSWORD)
    expect(page.get_by_role("alert")).to_contain_text("correct username and password")
    _log_in(page, email, NEW_PASSWORD)
    expect(page.get_by_role("heading", name="My classes")).to_be_visible()
    page.goto(link)
    expect(page.get_by_role("alert")).to_contain_text("expired or was used already")

    zh = open_page("zh-hant")
    zh.goto("/accounts/password/reset/")
    expect(zh.get_by_role("heading", name="重設密碼")).to_be_visible()
    screenshot(zh, "accounts-reset-form-zh-hant")


def test_a_disabled_teachers_open_console_closes(
    accounts: Accounts, admin_made: str, open_page: Callable[..., Page]
) -> None:
    email = "ms.ho@school.example"
    admin, teacher = _teacher_invited(accounts, admin_made, open_page, email)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Game").select_option(label="Palm Strike")
    with teacher.expect_websocket(lambda socket: "/console/" in socket.url) as opened:
        teacher.get_by_role("button", name="Create session").click()
    console = opened.value
    console.expect_event("framereceived")  # the console's first live frame: the socket is open
    console_url = teacher.url

    admin.goto("/school/teachers/")
    admin.get_by_role("button", name=f"Disable {email}").click()
    expect(admin.locator("main")).to_contain_text(f"{email} is disabled")
    row = admin.get_by_role("row", name=re.compile(re.escape(email)))
    expect(row).to_contain_text("Disabled")
    screenshot(admin, "accounts-admin-disabled")

    # The socket closed (4403), and the console loaded itself again: the log-in page.
    if not console.is_closed():
        console.wait_for_event("close")
    expect(teacher).to_have_url(re.compile(r"/accounts/login/"), timeout=15_000)
    screenshot(teacher, "accounts-disabled-teacher-signed-out")
    teacher.goto(console_url)
    expect(teacher).to_have_url(re.compile(r"/accounts/login/"))
    _log_in(teacher, email, PASSWORD)
    expect(teacher.get_by_role("alert")).to_contain_text("correct username and password")

    admin.get_by_role("button", name=f"Re-enable {email}").click()
    expect(admin.locator("main")).to_contain_text(f"{email} can sign in again.")
    _log_in(teacher, email, PASSWORD)
    expect(teacher.get_by_role("heading", name="My classes")).to_be_visible()
