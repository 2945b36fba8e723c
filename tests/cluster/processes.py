"""Real Snapclass processes for the fault tests: Daphne on loopback, killed for real.

Each test site gets a database of its own (a SQLite file, or a fresh PostgreSQL database) and,
in a cluster, its own Redis key prefixes, so tests never see each other's tables.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def free_ports_run(count: int) -> int:
    """A port P with P..P+count-1 all free now."""
    for _ in range(50):
        first = free_port()
        if first + count > 65535:
            continue
        try:
            for port in range(first, first + count):
                with socket.socket() as taken:
                    taken.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise AssertionError("no run of free ports")


@dataclass
class Site:
    """One Snapclass site: its environment, and the Daphne processes serving it."""

    env: dict[str, str]
    workdir: Path
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)
    postgres_db: str | None = None
    # HAProxy in front of the processes (``proxy_start``), as in docs/operations.md's layout.
    proxy: subprocess.Popen[bytes] | None = None
    proxy_port: int | None = None

    def manage(self, *args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=self.env, check=True)

    def python(self, code: str) -> Any:
        """Run ``code`` with Django set up against this site; return the JSON it prints."""
        prelude = "import json, django\ndjango.setup()\n"
        done = subprocess.run(
            [sys.executable, "-c", prelude + code],
            cwd=ROOT, env=self.env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        return json.loads(done.stdout.strip().splitlines()[-1])

    def start(self, port: int | None = None) -> int:
        """A Daphne process serving the site on ``port`` (a free one by default)."""
        port = port or free_port()
        log = (self.workdir / f"daphne-{port}.log").open("ab")
        self.processes[port] = subprocess.Popen(
            [sys.executable, "-m", "classroom.server.serve", "-b", "127.0.0.1", "-p", str(port),
             *DAPHNE_TIMEOUT_ARGS, "classroom.asgi:application"],
            cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        _wait_until_up(port, self.processes[port], self.workdir / f"daphne-{port}.log")
        return port

    def proxy_start(self, *, affinity: bool = True) -> int:
        """HAProxy (classroom/server/haproxy.cfg) in front of the running processes; its port."""
        from classroom.server.haproxy import haproxy_config, haproxy_start

        self.proxy_port = free_port()
        config = self.workdir / "haproxy.cfg"
        config.write_text(
            haproxy_config(
                bind=f"127.0.0.1:{self.proxy_port}",
                backends=[("127.0.0.1", port) for port in self.processes],
                stats_socket=self.proxy_stats,
                affinity=affinity,
            )
        )
        log = (self.workdir / "haproxy.log").open("ab")
        self.proxy = haproxy_start(config, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 20
        while not self.proxy_stats.exists():
            if self.proxy.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"HAProxy did not start:\n{self.log_tail()}")
            time.sleep(0.05)
        return self.proxy_port

    @property
    def proxy_stats(self) -> Path:
        return self.workdir / "haproxy.sock"

    def proxy_stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(timeout=10)
            self.proxy = None

    def kill(self, port: int) -> None:
        """kill -9: no shutdown, no goodbye to the tablets, leases left to expire."""
        process = self.processes.pop(port)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)

    def stop_all(self) -> None:
        self.proxy_stop()
        for port in list(self.processes):
            process = self.processes.pop(port)
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)

    def log_tail(self) -> str:
        logs = sorted(self.workdir.glob("daphne-*.log")) + sorted(self.workdir.glob("haproxy.log"))
        return "\n".join(f"--- {log.name}\n{log.read_text()[-3000:]}" for log in logs)


def _wait_until_up(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Daphne exited early:\n{log.read_text()}")
        try:
            url = f"http://127.0.0.1:{port}/"
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Daphne did not answer on {port}:\n{log.read_text()}")


_static_root: Path | None = None


def _collected_static() -> Path:
    """Static files collected once per test run, shared by every test site."""
    global _static_root
    if _static_root is None:
        path = Path(tempfile.mkdtemp(prefix="snapclass-static-"))
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        env = {
            **os.environ,
            "STATIC_ROOT": str(path),
            "DJANGO_SETTINGS_MODULE": "classroom.settings",
        }
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
        _static_root = path
    return _static_root


def _base_env(workdir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "STATIC_ROOT": str(_collected_static()),
        "SECRET_KEY": "faults-" + "k" * 60,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SETTINGS_MODULE": "classroom.settings",
        # Every simulated tablet connects from 127.0.0.1: no per-address socket cap here.
        "SOCKETS_PER_ADDRESS": "1000000",
        "SIGNUPS_PER_ADDRESS_PER_HOUR": "100000",
        "PYTHONPATH": str(ROOT),
    }


def embedded_site(workdir: Path) -> Site:
    """The default: one process, SQLite, the in-memory channel layer."""
    env = _base_env(workdir) | {"DATABASE_URL": f"sqlite:///{workdir / 'site.sqlite3'}"}
    env.pop("REDIS_URL", None)
    site = Site(env=env, workdir=workdir)
    site.manage("migrate", "--noinput", "-v0")
    return site


def cluster_site(workdir: Path, *, postgres_url: str, redis_url: str) -> Site:
    """Several processes: a fresh PostgreSQL database, Redis with this site's own prefixes."""
    name = f"snapclass_faults_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_url, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    database_url = postgres_url.rsplit("/", 1)[0] + f"/{name}"
    prefix = f"faults-{uuid.uuid4().hex[:8]}"
    env = _base_env(workdir) | {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "SNAPCLASS_LEASE_PREFIX": prefix,
        "SNAPCLASS_CHANNEL_PREFIX": prefix,
        # HAProxy (proxy_start) on this machine says who the client is.
        "TRUSTED_PROXIES": "127.0.0.1",
    }
    site = Site(env=env, workdir=workdir, postgres_db=name)
    site.manage("migrate", "--noinput", "-v0")
    return site


# How the fault, flood and soak tests run the site: the embedded default (one process,
# SQLite, the in-memory layer) and a cluster (two processes, PostgreSQL, Redis).
LAYOUTS = ("embedded", "cluster")
PROCESSES = {"embedded": 1, "cluster": 2}


def layout_site(layout: str, workdir: Path) -> Site:
    """A site of that layout, migrated, with no process started yet (see ``layout_start``)."""
    if layout == "embedded":
        return embedded_site(workdir)
    from tests.services import POSTGRES_URL, REDIS_URL, require

    require("postgres")
    require("redis")
    return cluster_site(workdir, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)


def layout_start(site: Site, layout: str) -> list[int]:
    """Start the layout's processes; their ports."""
    return [site.start() for _ in range(PROCESSES[layout])]


def site_discard(site: Site) -> None:
    """kill -9 every process (a graceful stop can hang 10 s), then drop its database."""
    site.proxy_stop()
    for port in list(site.processes):
        site.kill(port)
    if site.postgres_db:
        from tests.services import POSTGRES_URL

        drop_database(POSTGRES_URL, site.postgres_db)


def drop_database(postgres_url: str, name: str) -> None:
    with (
        contextlib.suppress(psycopg.Error),
        psycopg.connect(postgres_url, autocommit=True) as connection,
    ):
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


PREPARE_PALM_STRIKE = """
from django.contrib.auth.models import User
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
teacher = User.objects.create_user(username="faults-teacher", password="faults-password-123")
session = session_create(teacher=teacher, game="palm_strike", school_class=None,
    players_per_table={per_table}, settings={settings})
seats = [seat_join_guest(session=session, nickname=f"S{{n}}") for n in range({players})]
session_start(session=session)
for seat in seats:
    seat.refresh_from_db()
print(json.dumps({{"code": session.code, "session": session.pk,
    "seats": [{{"token": seat.token, "table": seat.table_id}} for seat in seats]}}))
"""


def palm_strike_session(
    site: Site, *, players: int, settings: dict[str, Any], per_table: int | None = None
) -> dict[str, Any]:
    """A started session of ``players`` guests, ``per_table`` (default: all) at each table."""
    result: dict[str, Any] = site.python(
        PREPARE_PALM_STRIKE.format(
            players=players, per_table=per_table or players, settings=repr(settings)
        )
    )
    return result
