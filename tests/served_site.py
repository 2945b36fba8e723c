"""A serving process started as ``make run`` starts it (``python -m classroom.server.serve``),
on a free port and a database of its own, for the tests that need a real one."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tests.cluster.processes import free_port

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[1]


@contextlib.contextmanager
def served(workdir: Path, *daphne_args: str, **env: str) -> Iterator[int]:
    """The server on 127.0.0.1 with Daphne's ``daphne_args``, listening; yields its port.

    Its database file is ``workdir``'s and is not migrated: for what needs no table."""
    port = free_port()
    environment = {
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "SECRET_KEY": "served-" + "x" * 60,
        "DJANGO_SETTINGS_MODULE": "classroom.settings",
        **env,
    }
    log_path = workdir / "served.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "classroom.server.serve", "-b", "127.0.0.1", "-p", str(port),
             *daphne_args, "classroom.asgi:application"],
            cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            _wait_until_listening(port, process, log_path)
            yield port
        finally:
            process.terminate()
            process.wait(timeout=10)


def _wait_until_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    for _attempt in range(200):
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early:\n{log.read_text()}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not listen:\n{log.read_text()}")
