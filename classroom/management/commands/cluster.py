"""``manage.py cluster [--processes N] [--host H] [--port P]``: a local cluster, for a demo.

Starts N Daphne processes on the ports after P and HAProxy on P in front of them, configured
as docs/operations.md's layout (``classroom/server/haproxy.cfg``: a session's sockets on one
process, the rest round robin, health checks on /readyz, the client's address passed on).
Needs the shared services of a cluster in the environment: DATABASE_URL (PostgreSQL) and
REDIS_URL. Kill a process (kill -9) while a class plays to watch its tables move to another.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.server.daphne_limits import daphne_serve_args
from classroom.server.haproxy import haproxy_config, haproxy_start, health_host_from

if TYPE_CHECKING:
    from argparse import ArgumentParser

STARTUP_S = 60


class Command(BaseCommand):
    help = "Serve the site from several processes behind HAProxy (a demo of production)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--processes", type=int, default=2, help="How many Daphne processes.")
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on.")
        parser.add_argument("--port", type=int, default=8000, help="HAProxy's port.")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REDIS_URL or settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
            raise CommandError(
                "A cluster needs shared services: set REDIS_URL and a PostgreSQL DATABASE_URL."
            )
        count: int = options["processes"]
        if not 1 <= count <= 16:
            raise CommandError("--processes must be between 1 and 16.")
        host: str = options["host"]
        port: int = options["port"]
        backends = [("127.0.0.1", port + 1 + number) for number in range(count)]
        runtime = Path(tempfile.mkdtemp(prefix="snapclass-cluster-"))
        config = runtime / "haproxy.cfg"
        stats = runtime / "haproxy.sock"
        config.write_text(
            haproxy_config(
                bind=f"{host}:{port}",
                backends=backends,
                health_host=health_host_from(settings.ALLOWED_HOSTS),
                stats_socket=stats,
            ),
            encoding="utf-8",
        )
        # `kill <pid>` stops it as Ctrl+C does: the processes and HAProxy with it.
        signal.signal(signal.SIGTERM, _interrupt)
        processes = [self._daphne(backend_port) for _host, backend_port in backends]
        # One task worker for the cluster: the queue is in the shared database.
        worker = self._worker()
        proxy: subprocess.Popen[bytes] | None = None
        try:
            for (_host, backend_port), process in zip(backends, processes, strict=True):
                _wait_until_up(backend_port, process)
            # Its log (requests, health changes) on stdout; stderr repeats the warnings, so
            # it goes to a file, shown if HAProxy stops (a port already in use, say).
            errors = runtime / "haproxy.stderr"
            with errors.open("wb") as stderr:
                proxy = haproxy_start(config, stderr=stderr)
            self.stdout.write(
                f"Snapclass cluster: {count} processes behind HAProxy on http://{host}:{port}/ "
                f"(pids {', '.join(str(p.pid) for p in processes)}; task worker {worker.pid}; "
                f"HAProxy {proxy.pid}, "
                f"configuration {config}, runtime API {stats}). Ctrl+C stops it."
            )
            proxy.wait()
            said = errors.read_text(errors="replace")[-2000:]
            self.stderr.write(f"HAProxy stopped (exit code {proxy.returncode}):\n{said}")
        except KeyboardInterrupt:
            pass
        finally:
            children = [*processes, worker, *([proxy] if proxy else [])]
            for child in children:
                with contextlib.suppress(ProcessLookupError):
                    child.terminate()
            for child in children:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    child.wait(timeout=10)

    @staticmethod
    def _daphne(port: int) -> subprocess.Popen[bytes]:
        # HAProxy (on this machine) says who the client is in X-Forwarded-For: trust it.
        env = os.environ.copy() | {"TRUSTED_PROXIES": "127.0.0.1"}
        return subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
            # -v 0: no access log of its own (HAProxy's has every request, and not the
            # health checks that would fill this one every second).
            [sys.executable, "-m", "classroom.server.serve", "-v", "0",
             *daphne_serve_args("127.0.0.1", port), "classroom.asgi:application"],
            env=env,
        )  # fmt: skip

    @staticmethod
    def _worker() -> subprocess.Popen[bytes]:
        """``manage.py tasks_worker`` (exports), at a lower CPU priority than the processes."""
        return subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
            [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "tasks_worker", "-v", "0"],
            env=os.environ.copy(),
        )


def _interrupt(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt


def _wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    """Until the process answers /healthz, so HAProxy's first checks find it up."""
    deadline = time.monotonic() + STARTUP_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"The process on port {port} exited (code {process.returncode}).")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except urllib.error.HTTPError:
            return  # it answers (a 400 for a Host outside ALLOWED_HOSTS is still an answer)
        except OSError:
            time.sleep(0.2)
    raise CommandError(f"The process on port {port} did not answer within {STARTUP_S} s.")
