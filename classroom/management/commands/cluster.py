"""``manage.py cluster [--processes N] [--host H] [--port P]``: a local cluster, for a demo.

Starts N Daphne processes on the ports after P and a small load balancer on P in front of them
(``classroom.balancer``). Needs the shared services of a cluster in the environment:
DATABASE_URL (PostgreSQL) and REDIS_URL. Kill a process (kill -9) while a class plays to watch
its tables move to another one.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.balancer import Balancer
from classroom.daphne_limits import DAPHNE_TIMEOUT_ARGS

if TYPE_CHECKING:
    from argparse import ArgumentParser

WS_MAX_BYTES = "65536"


class Command(BaseCommand):
    help = "Serve the site from several processes behind a local load balancer (a demo)."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--processes", type=int, default=2, help="How many Daphne processes.")
        parser.add_argument("--host", default="127.0.0.1", help="Address to listen on.")
        parser.add_argument("--port", type=int, default=8000, help="The balancer's port.")

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
        processes = [self._daphne(backend_port) for _host, backend_port in backends]
        self.stdout.write(
            f"Snapclass cluster: {count} processes behind http://{host}:{port}/ "
            f"(pids {', '.join(str(p.pid) for p in processes)}); Ctrl+C stops it."
        )
        try:
            asyncio.run(Balancer(backends).serve(host, port))
        except KeyboardInterrupt:
            pass
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(timeout=10)

    @staticmethod
    def _daphne(port: int) -> subprocess.Popen[bytes]:
        return subprocess.Popen(  # noqa: S603 - this interpreter, fixed arguments
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "--websocket-max-message-size", WS_MAX_BYTES,
             "--websocket-max-frame-size", WS_MAX_BYTES,
             *DAPHNE_TIMEOUT_ARGS, "classroom.asgi:application"],
            env=os.environ.copy(),
        )  # fmt: skip
