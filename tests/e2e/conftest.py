"""Real-browser fixtures: a live Daphne on its own SQLite file, and the system Chromium."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from playwright.sync_api import Error as PlaywrightError

from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS
from tests.e2e.page_modules import PAGE_MODULES_SCRIPT

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from tests.e2e.classroom_site import Site

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = ROOT / "test-artifacts"
TABLET = {"width": 1024, "height": 768}
LAPTOP = {"width": 1366, "height": 900}
PROJECTOR = {"width": 1920, "height": 1080}


# A first game's how-to-play demo covers the table for up to 20 s: every tablet of the tests
# is one that never starts it by itself (static/js/lib/how_to_play.js), but for the tests of
# the demo (tests/e2e/test_how_to_play.py), which clear it.
HOW_TO_PLAY_OFF_SCRIPT = (
    'try { localStorage.setItem("snapclass.how-to-play.auto", "off"); } catch (error) {}'
)


# What the browser refused under the Content-Security-Policy ("Refused to execute inline
# script…", "Refused to apply inline style…"): every browser test fails on one.
CSP_VIOLATIONS: list[str] = []


def _watch_for_csp_violations(context: BrowserContext) -> BrowserContext:
    def seen(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            CSP_VIOLATIONS.append(f"{message.location.get('url')}: {message.text}")

    context.on("console", seen)
    return context


@pytest.fixture(autouse=True)
def _no_csp_violations() -> Iterator[None]:
    # Checked after each test and not cleared before it, so a violation while a module's
    # shared site was built is reported by that module's first test.
    yield
    violations = list(CSP_VIOLATIONS)
    CSP_VIOLATIONS.clear()
    assert violations == [], "the Content-Security-Policy blocked:\n" + "\n".join(violations)


# A browser test that fails leaves a picture and the text of every page still open
# (test-artifacts/failed-<test>-<n>.png/.txt): a flake on CI can then be read, not guessed.
@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call" and report.failed and "browser" in getattr(item, "funcargs", {}):
        seen = _keep_open_pages(item.funcargs["browser"], item.name)
        # CI keeps only what the run printed: the pages' own words go into the report too.
        report.sections.append(("open pages", seen))
    return report


def _keep_open_pages(browser: Browser, test_name: str) -> str:
    ARTIFACTS.mkdir(exist_ok=True)
    stem = "failed-" + re.sub(r"[^\w.-]+", "-", test_name)[:80]
    pages = [page for context in browser.contexts for page in context.pages]
    seen = []
    for number, page in enumerate(pages):
        try:
            page.screenshot(path=str(ARTIFACTS / f"{stem}-{number}.png"), timeout=5000)
            text = page.evaluate("() => document.body ? document.body.innerText : ''")
        except Exception as error:  # a crashed page must not hide the test's own failure
            text = repr(error)
        (ARTIFACTS / f"{stem}-{number}.txt").write_text(f"{page.url}\n\n{text}")
        seen.append(f"--- page {number}: {page.url}\n{' '.join(str(text).split())[:1500]}")
    return "\n".join(seen)


# Playwright polls a predicate given as an expression with eval() inside the page, which the
# site's Content-Security-Policy refuses ('unsafe-eval' is not allowed); a predicate given as a
# function it calls as it is. So every expression handed to wait_for_function becomes one.
_FUNCTION_SOURCE = re.compile(r"\s*(async\s+)?(function\b|\([^)]*\)\s*=>|\w+\s*=>)")
_wait_for_function = Page.wait_for_function


def _wait_for_function_under_csp(self: Page, expression: str, **kwargs: Any) -> Any:
    if not _FUNCTION_SOURCE.match(expression):
        expression = f"() => ({expression})"
    return _wait_for_function(self, expression, **kwargs)


Page.wait_for_function = _wait_for_function_under_csp  # type: ignore[method-assign]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_until_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Daphne exited early:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - loopback
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Daphne did not answer at {url}:\n{log.read_text()}")


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return site_env(tmp_path_factory.mktemp("e2e-server"))


def site_env(workdir: Path) -> dict[str, str]:
    """A site of its own in ``workdir`` (database, static and prepared files), migrated and
    with its static files collected, as the browser tests serve it."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "STATIC_ROOT": str(workdir / "static"),
        # Prepared downloads (tests/e2e/test_exports.py runs a task worker beside Daphne).
        "EXPORTS_ROOT": str(workdir / "exports"),
        "SECRET_KEY": "e2e-" + "x" * 60,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "classroom.settings",
        # Every browser test signs its teachers up from 127.0.0.1.
        "SIGNUPS_PER_ADDRESS_PER_HOUR": "100000",
    }
    for command in (["migrate", "--noinput", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True)
    return env


@pytest.fixture(scope="session")
def live_url(server_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(server_env, tmp_path_factory.mktemp("e2e-log") / "daphne.log") as url:
        yield url


@contextmanager
def served(env: dict[str, str], log: Path) -> Iterator[str]:
    """Daphne serving the site of ``env`` on a free port of 127.0.0.1: its address."""
    port = _free_port()
    with log.open("wb") as log_file:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "classroom.server.serve", "-b", "127.0.0.1", "-p", str(port),
                "--websocket-max-message-size", "65536", *DAPHNE_TIMEOUT_ARGS,
                "classroom.asgi:application",
            ],
            cwd=ROOT, env=env, stdout=log_file, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_up(url + "/", process, log)
            yield url
        finally:
            process.terminate()
            # Daphne gives each open connection's application up to --application-close-timeout
            # (10 s) to finish: a socket a browser left open may use it all.
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


# Chromium keeps only the last --disable-features it is given, so Playwright's own list (its
# chromiumSwitches.ts, 1.65) is repeated here with ours. Ours: every window Playwright opens
# (one per context) also starts a renderer for the address bar's WebUI suggestion popup, which
# no test shows: a fifth of Chromium's CPU on a browser file (/proc sampling of
# test_palm_strike_play.py and test_session_controls.py: 21 of 100 s).
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled",
    "PreconnectToSearch", "msForceBrowserSignIn", "msEdgeUpdateLaunchServicesPreferredVersion",
]  # fmt: skip
OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup"]
DISABLED_FEATURES = [*PLAYWRIGHT_DISABLED_FEATURES, *OMNIBOX_POPUP_FEATURES]


# Module scope: sync Playwright keeps an event loop running in this thread while it is open,
# which would break the async tests that run after the browser tests.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: /usr/bin/chromium is missing")
        pytest.skip("Chromium is not installed here (Debian package: chromium)")
    with sync_playwright() as playwright:
        launched = chromium_launch(playwright)
        yield launched
        launched.close()


def chromium_launch(playwright: Playwright) -> Browser:
    """The system Chromium, headless, whose every new context watches for what the CSP
    blocked and has the page-module and how-to-play scripts above."""
    launched = _chromium_start(playwright)
    new_context = launched.new_context

    def watched_context(**kwargs: Any) -> BrowserContext:
        context = _watch_for_csp_violations(new_context(**kwargs))
        context.add_init_script(PAGE_MODULES_SCRIPT)
        context.add_init_script(HOW_TO_PLAY_OFF_SCRIPT)
        return context

    launched.new_context = watched_context  # type: ignore[method-assign]
    return launched


def _chromium_start(playwright: Playwright) -> Browser:
    """The browser, started once more if it died while starting: a crash of Chromium itself
    as it starts (a SIGSEGV before its first page, seen on a loaded CI machine) says nothing
    about the site, and would otherwise fail every test of the module."""
    try:
        return _chromium_process(playwright)
    except PlaywrightError as crash:
        print(
            f"Chromium died while starting, started again: {crash.message[:200]}", file=sys.stderr
        )
        return _chromium_process(playwright)


def _chromium_process(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            # The compositor in the browser process: one process less per browser, and no
            # hop between them for every frame (100 → 93 busy CPU-s on the same two files).
            "--in-process-gpu",
            "--disable-features=" + ",".join(DISABLED_FEATURES),
        ],
    )


@pytest.fixture
def new_tablet(browser: Browser, live_url: str) -> Iterator[object]:
    """Open a fresh tablet (its own cookies and storage, touch, 1024 x 768)."""
    contexts: list[BrowserContext] = []

    def open_tablet() -> Page:
        context = browser.new_context(
            base_url=live_url, viewport=TABLET, has_touch=True, device_scale_factor=1
        )
        contexts.append(context)
        return context.new_page()

    yield open_tablet
    for context in contexts:
        context.close()


@pytest.fixture
def open_tablet(browser: Browser, live_url: str) -> Iterator[Callable[..., Page]]:
    """A tablet of a given size, language and motion setting (touch, its own cookies)."""
    contexts: list[BrowserContext] = []

    def opener(
        viewport: dict[str, int] = TABLET, language: str = "en", motion: str = "no-preference"
    ) -> Page:
        context = browser.new_context(
            base_url=live_url,
            viewport=viewport,  # type: ignore[arg-type]
            has_touch=True,
            device_scale_factor=1,
            reduced_motion=motion,  # type: ignore[arg-type]
        )
        context.add_cookies([{"name": "django_language", "value": language, "url": live_url}])
        contexts.append(context)
        return context.new_page()

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture
def task_worker(server_env: dict[str, str], tmp_path: Path) -> Iterator[None]:
    """The task worker beside the live server, as ``make run`` starts it (prepared files),
    but at the servers' priority: at its own (nice 19) it yields to the site it serves, and in
    ``make test`` also to every other worker's servers and browsers, behind which it starved (a
    class's printed reports stood at 1 of 30 for four minutes)."""
    log = (tmp_path / "worker.log").open("wb")
    command = [sys.executable, "manage.py", "tasks_worker", "-v", "0", "--interval", "0.3"]
    worker = subprocess.Popen(
        [*command, "--niceness", "0"],
        cwd=ROOT, env=server_env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    yield
    worker.terminate()
    worker.wait(timeout=20)
    log.close()


@pytest.fixture
def teacher_page(browser: Browser, live_url: str) -> Iterator[Page]:
    context = browser.new_context(base_url=live_url, viewport=LAPTOP)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()


def settings_fill(page: Page, settings: dict[str, str]) -> None:
    """Fill the new-session form's fields by their exact label: a choice or a typed value."""
    for label, value in settings.items():
        control = page.get_by_label(label, exact=True)
        if control.evaluate("el => el.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    return path


def warmup_skip(page: Page) -> None:
    """Practice starts with the 20-tap warm-up (on unless turned off): skip it for the game
    (in any language)."""
    expect(page.locator("[data-warmup]")).to_be_visible()
    # The page's module marks the warm-up ready once its buttons answer: a click before that
    # (a busy machine loads the module late) would be lost.
    expect(page.locator("[data-warmup][data-ready]")).to_be_attached()
    page.locator("[data-warmup] [data-skip]").click()


def teacher_sign_up(page: Page, username: str) -> None:
    """A new teacher signs up from the home page and lands on their own (empty) home."""
    page.goto("/")
    page.get_by_role("main").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("tablets-and-tigers-42")
    page.get_by_label("Password confirmation").fill("tablets-and-tigers-42")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("link", name="New class")).to_be_visible()


def seeded_class(page: Page, username: str, script: str, server_env: dict[str, str]) -> int:
    """Sign ``username`` up, then run ``script`` (with ``%s`` for the username) against the live
    server's database: the class it seeds, whose id it prints last."""
    teacher_sign_up(page, username)
    seeded = subprocess.run(
        [sys.executable, "-c", script % username],
        cwd=ROOT, env=server_env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return int(seeded.stdout.strip().splitlines()[-1])


def guest_session_create(teacher: Page, *, username: str) -> str:
    """Sign a new teacher up and open a guest Palm Strike session (tables of two); its code."""
    teacher_sign_up(teacher, username)
    teacher.get_by_role("link", name="New session").click()
    teacher.get_by_label("Game").select_option(label="Palm Strike")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    assert re.fullmatch(r"[A-HJKMNP-Z2-9]{6}", code), code
    return code


@pytest.fixture(scope="module")
def classroom_site(
    browser: Browser, live_url: str, server_env: dict[str, str], request: pytest.FixtureRequest
) -> Iterator[Site]:
    """A classroom in full swing (see classroom_site.py), one per test module."""
    from tests.e2e.classroom_site import build_site, close_site

    database = Path(server_env["DATABASE_URL"].removeprefix("sqlite:///"))
    username = "ms-" + request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    site = build_site(browser, live_url, database, username.replace("_", "-"))
    yield site
    close_site(site)
