"""Single sign-on in Chromium against a real OpenID Connect provider: a second Django process
with django-oauth-toolkit's OIDC support (tests/e2e/oidc_provider/), its RSA key, users and
registered application made here.

A teacher of the school's domain signs in and lands on the home page with a new account; one
whose address an existing teacher account has is signed in to that account (even while the
log-in page's limit has locked its password out); an address of another domain, or one the
provider does not vouch for, is refused on the log-in page with a message saying why.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from playwright.sync_api import expect

from tests.e2e.conftest import (
    LAPTOP,
    ROOT,
    _free_port,
    _wait_until_up,
    screenshot,
    served,
    site_env,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from playwright.sync_api import Browser, Page

CLIENT_ID = "snapclass-test"
CLIENT_SECRET = "snapclass-test-secret-" + "s" * 20
PASSWORD = "provider-pass-1"
DOMAIN = "school.test"
# At the provider: user, address; "una" is the one whose address it does not vouch for.
PROVIDER_USERS = {
    "ann": f"ann@{DOMAIN}",
    "bob": f"bob@{DOMAIN}",
    "eve": "eve@elsewhere.test",
    "una": f"una@{DOMAIN}",
}
EXISTING_TEACHER = "mr-bob"


def _rsa_key_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


@contextmanager
def _provider(workdir: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The provider serving on a free port of 127.0.0.1: its issuer URL and environment."""
    key = workdir / "provider-key.pem"
    key.write_text(_rsa_key_pem())
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.e2e.oidc_provider.settings",
        "OIDC_PROVIDER_DB": str(workdir / "provider.sqlite3"),
        "OIDC_PROVIDER_KEY": str(key),
        "OIDC_PROVIDER_UNVERIFIED": "una",
    }
    manage = [sys.executable, "-m", "django"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    port = _free_port()
    log = workdir / "provider.log"
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            [*manage, "runserver", f"127.0.0.1:{port}", "--noreload"],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
        )  # fmt: skip
        issuer = f"http://127.0.0.1:{port}/o"
        try:
            _wait_until_up(issuer + "/.well-known/openid-configuration", process, log)
            yield issuer, env
        finally:
            process.terminate()
            process.wait(timeout=20)


@pytest.fixture(scope="module")
def sso_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Snapclass with Google, Microsoft and the test provider as the school's sign-in (only the
    last is ever pressed), and an existing teacher with bob's address: its URL and database."""
    workdir = tmp_path_factory.mktemp("sso")
    with _provider(workdir) as (issuer, provider_env):
        (workdir / "site").mkdir()
        env = site_env(workdir / "site")
        env.update(
            {
                "SSO_PROVIDERS": "google,microsoft,oidc",
                "SSO_ALLOWED_DOMAINS": DOMAIN,
                "SSO_GOOGLE_CLIENT_ID": "unused.apps.example",
                "SSO_GOOGLE_CLIENT_SECRET": "unused",
                "SSO_MICROSOFT_CLIENT_ID": "unused",
                "SSO_MICROSOFT_CLIENT_SECRET": "unused",
                "SSO_MICROSOFT_TENANT": "school.test",
                "SSO_OIDC_CLIENT_ID": CLIENT_ID,
                "SSO_OIDC_CLIENT_SECRET": CLIENT_SECRET,
                "SSO_OIDC_SERVER_URL": issuer,
            }
        )
        create_teacher = (
            "from django.contrib.auth.models import User; "
            f"User.objects.create_user({EXISTING_TEACHER!r}, {PROVIDER_USERS['bob']!r}, "
            "'site-password-1')"
        )
        subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", create_teacher],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        database = workdir / "site" / "db.sqlite3"
        with served(env, workdir / "daphne.log") as url:
            users = [f"{name}:{PASSWORD}:{email}" for name, email in PROVIDER_USERS.items()]
            subprocess.run(
                [
                    sys.executable, "-m", "tests.e2e.oidc_provider.seed", CLIENT_ID,
                    CLIENT_SECRET, f"{url}/accounts/oidc/oidc/login/callback/", *users,
                ],
                cwd=ROOT, env=provider_env, check=True,
            )  # fmt: skip
            yield url, database


def _query(database: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as connection:
        return connection.execute(sql, params).fetchall()


@pytest.fixture
def page(browser: Browser, sso_site: tuple[str, Path]) -> Iterator[Page]:
    url, _ = sso_site
    context = browser.new_context(base_url=url, viewport=LAPTOP)
    yield context.new_page()
    context.close()


def _sign_in_at_provider(page: Page, user: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_role("button", name="Sign in with your school account").click()
    expect(page.get_by_role("heading", name="School sign-in")).to_be_visible()
    page.get_by_label("Username").fill(user)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in to school").click()


def test_a_new_teacher_signs_in_and_lands_home(page: Page, sso_site: tuple[str, Path]) -> None:
    url, database = sso_site
    _sign_in_at_provider(page, "ann")
    page.wait_for_url(url + "/")
    expect(page.locator(".topnav-user")).to_have_text(PROVIDER_USERS["ann"])
    rows = _query(
        database,
        "SELECT u.username, u.email, a.provider FROM auth_user u "
        "JOIN socialaccount_socialaccount a ON a.user_id = u.id WHERE u.email = ?",
        PROVIDER_USERS["ann"],
    )
    assert rows == [(PROVIDER_USERS["ann"], PROVIDER_USERS["ann"], "oidc")]


def test_an_existing_teacher_is_linked_by_verified_address_past_a_password_lock_out(
    page: Page, sso_site: tuple[str, Path]
) -> None:
    url, database = sso_site
    # The log-in page's limit locks the password out after wrong guesses…
    page.goto("/accounts/login/")
    for _ in range(9):
        page.get_by_label("Username").fill(EXISTING_TEACHER)
        page.get_by_label("Password").fill("a wrong guess")
        # Each guess answered before the next is typed: a page still loading drops the typing.
        with page.expect_response(lambda answer: answer.request.method == "POST"):
            page.get_by_role("button", name="Log in", exact=True).click()
    expect(page.get_by_text("Too many attempts")).to_be_visible()
    # …which the school's sign-in does not meet: the provider has checked the person.
    _sign_in_at_provider(page, "bob")
    page.wait_for_url(url + "/")
    expect(page.locator(".topnav-user")).to_have_text(EXISTING_TEACHER)
    linked = _query(
        database,
        "SELECT u.username FROM socialaccount_socialaccount a "
        "JOIN auth_user u ON a.user_id = u.id WHERE u.email = ?",
        PROVIDER_USERS["bob"],
    )
    assert linked == [(EXISTING_TEACHER,)]
    accounts = _query(database, "SELECT count(*) FROM auth_user WHERE email = ?", "bob@school.test")
    assert accounts == [(1,)]


@pytest.mark.parametrize(
    ("user", "said"),
    [
        ("eve", "eve@elsewhere.test is not an address of this school (school.test)"),
        ("una", "did not give a verified e-mail address"),
    ],
)
def test_an_address_not_the_schools_or_not_vouched_for_is_refused(
    page: Page, sso_site: tuple[str, Path], user: str, said: str
) -> None:
    url, database = sso_site
    _sign_in_at_provider(page, user)
    page.wait_for_url(url + "/accounts/login/")
    expect(page.locator(".flash-error")).to_contain_text(said)
    expect(page.locator(".topnav-user")).to_have_count(0)
    made = _query(database, "SELECT count(*) FROM auth_user WHERE email = ?", PROVIDER_USERS[user])
    assert made == [(0,)]
    if user == "eve":
        screenshot(page, "sso-refused-en")


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_the_log_in_page_shows_the_schools_sign_in(
    page: Page, sso_site: tuple[str, Path], language: str
) -> None:
    url, _ = sso_site
    page.context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    page.goto("/accounts/login/")
    buttons = page.locator(".sign-in-providers button")
    expect(buttons).to_have_count(3)
    if language == "zh-hant":
        expect(buttons.first).to_have_text("使用 Google 帳號登入")
        expect(buttons.last).to_have_text("使用學校帳號登入")
    else:
        expect(buttons.first).to_have_text("Sign in with Google")
    screenshot(page, f"sso-login-{language}")
    # allauth's step before the provider, opened directly: the site's own page, translated.
    page.goto("/accounts/oidc/microsoft/login/")
    step = page.locator("main form button")
    expect(step).to_have_text(
        "使用 Microsoft 帳號登入" if language == "zh-hant" else "Sign in with Microsoft"
    )
    screenshot(page, f"sso-step-{language}")
