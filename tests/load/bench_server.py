"""A throwaway Snapclass server for the game benchmarks: Daphne on a fresh SQLite database,
with sessions made by ``prepare`` (Python run with Django set up, printing JSON last)."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS, daphne_listen_args
from tests.load.bench_tables import _free_port, _stop, _wait_for_port, bench_env

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class BenchServer:
    port: int
    process: subprocess.Popen[bytes]
    prepared: Any  # what ``prepare`` printed

    def table_url(self, code: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/play/{code}/table/"

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.asynccontextmanager
async def bench_server(prepare: str) -> AsyncIterator[BenchServer]:
    with tempfile.TemporaryDirectory(prefix="snapclass-bench-") as workdir:
        env = bench_env(
            Path(workdir) / "bench.sqlite3",
            PYTHONPATH=str(ROOT),
            # Pages (not only sockets) render with DEBUG off: they need the collected files.
            STATIC_ROOT=str(Path(workdir) / "static"),
        )
        for command in (["migrate"], ["collectstatic"]):
            subprocess.run(
                [sys.executable, "manage.py", *command, "--noinput", "-v0"],
                cwd=ROOT, env=env, check=True,
            )  # fmt: skip
        prepared = subprocess.run(
            [sys.executable, "-c", prepare],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        port = _free_port()
        log = Path(workdir) / "daphne.log"
        process = subprocess.Popen(
            [sys.executable, "-m", "classroom.server.serve", *daphne_listen_args("127.0.0.1", port),
             *DAPHNE_TIMEOUT_ARGS, "classroom.asgi:application"],
            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log.open("wb"),
        )  # fmt: skip
        try:
            await _wait_for_port(port)
            yield BenchServer(port, process, json.loads(prepared.stdout.strip().splitlines()[-1]))
        finally:
            _stop(process)
            _report_errors(log)


def _report_errors(log: Path) -> None:
    """A benchmark's figures mean little if the server failed meanwhile: say so."""
    text = log.read_text(errors="replace")
    tracebacks = text.count("Traceback (most recent call last)")
    if tracebacks:
        last = text[text.rindex("Traceback (most recent call last)") :]
        print(
            f"the server logged {tracebacks} tracebacks; the last:\n{last[-3000:]}", file=sys.stderr
        )
