"""Benchmark: the CPU one HTTP request costs in Django's ASGI handler and in Snapclass's.

    .venv/bin/python tests/load/bench_http_handler.py [--requests 1000]

Both handlers serve ``GET /healthz`` (a sync view, no database, every middleware of the site)
in this process, straight through ASGI (no server, no socket), with the production settings.
They take turns in blocks of 50 requests, so other work on the machine weighs on both alike;
printed as JSON: the median over the blocks of CPU time (``time.process_time``, all threads of
this process) and wall time per request, and how many times one request entered
``sync_to_async`` (each a hand-off to a thread).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

BLOCK = 50


async def _one(application: Any, path: str) -> int:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
    }  # fmt: skip
    request_sent = False
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        nonlocal request_sent
        if not request_sent:
            request_sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays; Django cancels this when done
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    await application(scope, receive, send)
    return statuses[0]


async def _hops(application: Any) -> int:
    from asgiref.sync import SyncToAsync

    hops = 0
    original = SyncToAsync.__call__

    async def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal hops
        hops += 1
        return await original(self, *args, **kwargs)

    SyncToAsync.__call__ = counted  # type: ignore[method-assign]
    try:
        await _one(application, "/healthz")
    finally:
        SyncToAsync.__call__ = original  # type: ignore[method-assign]
    return hops


async def main(requests: int) -> None:
    import django
    from django.core.handlers.asgi import ASGIHandler

    django.setup(set_prefix=False)
    from classroom.server.http_handler import OneHopASGIHandler

    handlers = {"django": ASGIHandler(), "snapclass": OneHopASGIHandler()}
    cpu: dict[str, list[float]] = {name: [] for name in handlers}
    wall: dict[str, list[float]] = {name: [] for name in handlers}
    for application in handlers.values():
        for _ in range(BLOCK):  # warm: imports, URL resolver, templates
            assert await _one(application, "/healthz") == 200
    for _ in range(max(1, requests // BLOCK)):
        for name, application in handlers.items():
            cpu_start, wall_start = time.process_time(), time.perf_counter()
            for _ in range(BLOCK):
                await _one(application, "/healthz")
            cpu[name].append((time.process_time() - cpu_start) / BLOCK * 1000)
            wall[name].append((time.perf_counter() - wall_start) / BLOCK * 1000)
    result = {
        name: {
            "cpu_ms_per_request": round(statistics.median(cpu[name]), 2),
            "wall_ms_per_request": round(statistics.median(wall[name]), 2),
            "thread_hops_per_request": await _hops(application),
        }
        for name, application in handlers.items()
    }
    print(json.dumps({"requests_each": len(cpu["django"]) * BLOCK, **result}, indent=2))


def _environment(workdir: Path) -> None:
    from tests.load.bench_tables import bench_env

    env = bench_env(workdir / "bench.sqlite3", STATIC_ROOT=str(workdir / "static"))
    for command in (["migrate"], ["collectstatic"]):
        subprocess.run(
            [sys.executable, "manage.py", *command, "--noinput", "-v0"],
            cwd=ROOT, env=env, check=True,
        )  # fmt: skip
    os.environ.update(env)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1000)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="snapclass-bench-") as workdir:
        _environment(Path(workdir))
        asyncio.run(main(arguments.requests))
