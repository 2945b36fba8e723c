"""A rehearsal of docs/deploy.md: the production layout started as its units start it, from the
ExecStart lines of deploy/systemd and the settings of deploy/snapclass.env.example, so neither
can drift from what is tested.

PostgreSQL and Redis (the machine's), the migrations, two Daphne processes and the task worker,
HAProxy terminating TLS with a certificate from deploy/tls-self-signed and the configuration of
``manage.py haproxy_config``. The first teacher, made as the docs make it, signs in over https;
a tablet joins over https and plays a flip over wss in Chromium; the nightly backup and
clean-up run, the backup is restored into a fresh database as the docs restore it, and the
flip's trial is there.
"""

from __future__ import annotations

import datetime
import os
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from classroom.server.haproxy import haproxy_binary
from tests.cluster.processes import drop_database, free_port, free_ports_run
from tests.deploy.units import ENV_EXAMPLE, ROOT, environment_file, exec_starts
from tests.e2e.conftest import (
    CHROMIUM,
    DISABLED_FEATURES,
    HOW_TO_PLAY_OFF_SCRIPT,
    LAPTOP,
    TABLET,
    screenshot,
)
from tests.e2e.page_modules import PAGE_MODULES_SCRIPT
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = [pytest.mark.cluster, pytest.mark.e2e]

STARTUP_S = 60
TEACHER = "ms-rehearsal"
PASSWORD = "tablets-and-tigers-42"


class Layout:
    """The units' processes, each started from its unit's ExecStart with the unit's environment
    file, logging to a file as journald would keep it."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        self.env = env
        self.processes: list[subprocess.Popen[bytes]] = []

    def run_unit(self, name: str, **moved: Any) -> None:
        """A oneshot unit: each ExecStart in turn, as systemd runs them."""
        for command in exec_starts(name, **moved):
            done = subprocess.run(command, cwd=ROOT, env=self.env, capture_output=True, check=False)
            assert done.returncode == 0, f"{name}: {command}\n{done.stdout!r}\n{done.stderr!r}"

    def start_unit(self, name: str, *, instance: str = "") -> None:
        (command,) = exec_starts(name, instance=instance)
        self.start(command, name.replace("@.service", f"-{instance}").removesuffix(".service"))

    def start(self, command: list[str], log_name: str) -> None:
        log = (self.workdir / f"{log_name}.log").open("wb")
        self.processes.append(
            subprocess.Popen(command, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        )

    def running(self) -> None:
        for process in self.processes:
            assert process.poll() is None, f"{process.args} exited\n{self.logs()}"

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def logs(self) -> str:
        return "\n".join(
            f"--- {log.name}\n{log.read_text(errors='replace')[-2500:]}"
            for log in sorted(self.workdir.glob("*.log"))
        )


def _database_url(name: str) -> str:
    return POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"


def _database_create(name: str) -> None:
    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')


@pytest.fixture
def databases() -> Iterator[tuple[str, str]]:
    """The site's database and the empty one the backup is restored into."""
    require("postgres")
    tag = uuid.uuid4().hex[:10]
    names = (f"snapclass_rehearsal_{tag}", f"snapclass_restored_{tag}")
    for name in names:
        _database_create(name)
    yield names
    for name in names:
        drop_database(POSTGRES_URL, name)


def _site_env(workdir: Path, database: str) -> dict[str, str]:
    """systemd's clean environment plus the example file, with this machine's services."""
    prefix = f"rehearsal-{uuid.uuid4().hex[:8]}"
    return {
        "PATH": os.environ["PATH"],
        "LANG": "C.UTF-8",
        "HOME": str(workdir),
        **environment_file(ENV_EXAMPLE),
        "SECRET_KEY": "rehearsal-" + uuid.uuid4().hex * 2,
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": _database_url(database),
        "REDIS_URL": REDIS_URL,
        "SNAPCLASS_LEASE_PREFIX": prefix,
        "SNAPCLASS_CHANNEL_PREFIX": prefix,
        "EXPORTS_ROOT": str(workdir / "exports"),
        "STATIC_ROOT": str(workdir / "static"),
    }


def _until_answers(url: str, layout: Layout, context: ssl.SSLContext | None = None) -> None:
    deadline = time.monotonic() + STARTUP_S
    while True:
        layout.running()
        try:
            with urllib.request.urlopen(url, timeout=2, context=context) as response:  # noqa: S310 - loopback
                if response.status == 200:
                    return
        except OSError:
            pass
        assert time.monotonic() < deadline, f"{url} did not answer\n{layout.logs()}"
        time.sleep(0.2)


def _haproxy_config(layout: Layout, *, first_port: int, http: int, https: int, pem: Path) -> Path:
    """``manage.py haproxy_config`` as docs/deploy.md runs it; outside Debian's service (no
    root here) without its user, chroot and runtime socket."""
    done = subprocess.run(
        [sys.executable, "manage.py", "haproxy_config", "--first-port", str(first_port),
         "--certificate", str(pem), "--http", f"127.0.0.1:{http}",
         "--https", f"127.0.0.1:{https}"],
        cwd=ROOT, env=layout.env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    kept = [
        line
        for line in done.stdout.splitlines()
        if line.split()[:1] not in (["user"], ["group"], ["chroot"], ["stats"])
    ]
    config = layout.workdir / "haproxy.cfg"
    config.write_text("\n".join(kept) + "\n")
    return config


def _browser(playwright: Any) -> Browser:
    browser: Browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-features=" + ",".join(DISABLED_FEATURES),
        ],
    )
    return browser


def _page(browser: Browser, base_url: str, **options: Any) -> Page:
    # The test's certificate is self-signed: the browser is told to accept it, as a school
    # trying the site would click through the warning.
    context = browser.new_context(base_url=base_url, ignore_https_errors=True, **options)
    context.add_init_script(PAGE_MODULES_SCRIPT)
    context.add_init_script(HOW_TO_PLAY_OFF_SCRIPT)
    return context.new_page()


def _play_one_flip(tablet: Page) -> int:
    """Flip when it is this tablet's turn (a robot flips on its own); the flip's number."""
    button = tablet.locator("[data-flip-button]")
    expect(button).to_be_visible(timeout=30_000)
    before = int(tablet.evaluate("pageModules.palm_strike.tablet.view.flip || 0"))
    button.tap()
    tablet.wait_for_function(
        f"(pageModules.palm_strike.tablet.view.flip || 0) > {before}", timeout=15_000
    )
    return before + 1


def _flip_trials(database: str, code: str, flip: int) -> list[tuple[str, str]]:
    """(seat name, kind) of every trial of the session's flip (a robot has none)."""
    with psycopg.connect(_database_url(database)) as connection:
        rows = connection.execute(
            "SELECT seat.name, trial.kind FROM classroom_trial AS trial"
            " JOIN classroom_gamesession AS session ON session.id = trial.session_id"
            " JOIN classroom_seat AS seat ON seat.id = trial.seat_id"
            " WHERE session.code = %s AND trial.data->>'flip' = %s ORDER BY seat.name",
            (code, str(flip)),
        ).fetchall()
    return [(str(name), str(kind)) for name, kind in rows]


def _plain_http(port: int) -> tuple[int, str]:
    class Stay(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args: Any, **kwargs: Any) -> None:
            return None

    try:
        urllib.request.build_opener(Stay).open(f"http://127.0.0.1:{port}/join", timeout=5)
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Location", "")
    raise AssertionError("plain HTTP was answered, not redirected")


@pytest.mark.timeout(240)
def test_the_units_serve_a_flip_over_tls_and_its_backup_restores_it(
    tmp_path: Path, databases: tuple[str, str]
) -> None:
    require("redis")
    require("haproxy")
    if not CHROMIUM.exists():
        pytest.skip("Chromium is not installed here (Debian package: chromium)")
    site_db, restored_db = databases
    layout = Layout(tmp_path, _site_env(tmp_path, site_db))
    try:
        _rehearse(layout, tmp_path, site_db, restored_db)
    except AssertionError as error:
        raise AssertionError(f"{error}\n{layout.logs()}") from error
    finally:
        layout.stop()


def _rehearse(layout: Layout, workdir: Path, site_db: str, restored_db: str) -> None:
    layout.run_unit("snapclass-migrate.service")
    first_port = free_ports_run(2)
    for port in (first_port, first_port + 1):
        layout.start_unit("snapclass-web@.service", instance=str(port))
    layout.start_unit("snapclass-worker.service")
    pem = workdir / "certs" / "snapclass.pem"
    subprocess.run([ROOT / "deploy" / "tls-self-signed", "127.0.0.1", pem], check=True)
    http, https = free_port(), free_port()
    # docs/deploy.md's first teacher.
    subprocess.run(
        [sys.executable, "manage.py", "createsuperuser", "--noinput", "--username", TEACHER,
         "--email", "ms-rehearsal@school.example"],
        cwd=ROOT, env=layout.env | {"DJANGO_SUPERUSER_PASSWORD": PASSWORD}, check=True,
    )  # fmt: skip
    config = _haproxy_config(layout, first_port=first_port, http=http, https=https, pem=pem)
    # As Debian's haproxy.service runs it (-Ws: master-worker), in the foreground.
    layout.start([haproxy_binary(), "-Ws", "-f", str(config)], "haproxy")
    for port in (first_port, first_port + 1):
        _until_answers(f"http://127.0.0.1:{port}/readyz", layout)
    trusting = ssl.create_default_context(cafile=str(pem))
    site = f"https://127.0.0.1:{https}"
    _until_answers(f"{site}/readyz", layout, trusting)

    # Plain HTTP only points to HTTPS; over HTTPS the site says to stay there (HSTS).
    assert _plain_http(http) == (301, f"https://127.0.0.1:{http}/join")
    with urllib.request.urlopen(f"{site}/join", context=trusting, timeout=5) as response:  # noqa: S310
        assert response.headers["Strict-Transport-Security"].startswith("max-age=31536000")

    with sync_playwright() as playwright:
        browser = _browser(playwright)
        teacher = _page(browser, site, viewport=LAPTOP)
        teacher.goto("/accounts/login/")
        teacher.get_by_label("Username").fill(TEACHER)
        teacher.get_by_label("Password").fill(PASSWORD)
        teacher.get_by_role("button", name="Log in").click()
        teacher.get_by_role("link", name="New session").click()
        teacher.get_by_label("Game", exact=True).select_option(label="Palm Strike")
        teacher.get_by_label("Players per table").fill("2")
        teacher.get_by_label("Flip pacing").select_option("tap")
        teacher.get_by_label("Response window (seconds)").fill("1")
        teacher.get_by_role("button", name="Create session").click()
        code = teacher.get_by_label("Session code").inner_text().strip()

        tablet = _page(browser, site, viewport=TABLET, has_touch=True, device_scale_factor=1)
        sockets: list[str] = []
        tablet.on("websocket", lambda socket: sockets.append(socket.url))
        tablet.goto(f"/join/{code}/")
        tablet.get_by_label("Your name").fill("Ava")
        tablet.get_by_role("button", name="Join").click()
        expect(tablet.get_by_text("Hi, Ava!")).to_be_visible()
        expect(teacher.get_by_text("1 connected")).to_be_visible(timeout=10_000)
        teacher.get_by_role("button", name="Start", exact=True).click()
        tablet.wait_for_function("pageModules.palm_strike?.tablet?.view", timeout=15_000)
        flip = _play_one_flip(tablet)
        screenshot(tablet, "deploy-rehearsal-tablet")
        assert tablet.url.startswith(f"{site}/")
        table_socket = f"wss://127.0.0.1:{https}/ws/play/{code}/table/"
        assert any(url.startswith(table_socket) for url in sockets), sockets

        # The child's trial for the flip is written when its response window closes.
        deadline = time.monotonic() + 20
        while not (trials := _flip_trials(site_db, code, flip)):
            assert time.monotonic() < deadline, "no trial for the flip"
            time.sleep(0.2)
        browser.close()

    backups = workdir / "backups"
    backups.mkdir()
    layout.run_unit("snapclass-backup.service", backups=backups)
    layout.run_unit("snapclass-cleanup.service")
    (copy,) = backups.iterdir()
    assert copy.name == f"snapclass-{_today(layout)}.dump"

    # docs/deploy.md's restore: into an empty database, the site's settings pointing at it.
    restore_env = layout.env | {"DATABASE_URL": _database_url(restored_db)}
    subprocess.run(
        [sys.executable, "manage.py", "restore", str(copy)], cwd=ROOT, env=restore_env, check=True
    )
    assert trials == [("Ava", "palm_strike.flip")]
    assert _flip_trials(restored_db, code, flip) == trials


def _today(layout: Layout) -> str:
    """The day in the site's time zone (the backup's name)."""
    from zoneinfo import ZoneInfo

    return datetime.datetime.now(ZoneInfo(layout.env["TIME_ZONE"])).date().isoformat()
