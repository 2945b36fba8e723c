"""Joins in bulk: a whole class taps "Join" at once.

One embedded Daphne on a fresh SQLite file; for each class size a guest session in its lobby.
Every simulated tablet first loads the nickname page (its CSRF cookie), then all of them post
their name at the same instant (a barrier), get their lobby page in the answer and open the
lobby socket, as the page does. Printed as JSON: per join, the POST-to-lobby-page time (p50,
p95, max), and the time from the barrier until every tablet's lobby socket had its first
fragment ("all in the lobby"); and the CPU time the server and the simulated tablets used
meanwhile, with the machine's load average, since on a shared machine the wall-clock figures
say as much about the other work as about Snapclass.

    .venv/bin/python tests/load/bench_joins.py [--sizes 30 120 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import threading
import time
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, Request, build_opener

from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.load.bench_server import bench_server

PREPARE = """
import json
import django
django.setup()
from django.contrib.auth.models import User
from classroom.services.sessions import session_create
from games.registry import game_registry
teacher = User.objects.create_user(username="joins-teacher", password="joins-password-123")
game = next(iter(game_registry()))
codes = []  # one session per burst, in the order of --sizes (a size may come twice)
for _size in SIZES:
    session = session_create(teacher=teacher, game=game, school_class=None,
        players_per_table=4, settings={})
    codes.append(session.code)
print(json.dumps(codes))
"""
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class Tablet(threading.Thread):
    def __init__(self, origin: str, code: str, name: str, barrier: threading.Barrier) -> None:
        super().__init__(daemon=True)
        self.origin, self.code, self.name, self.barrier = origin, code, name, barrier
        self.jar = CookieJar()
        self.opener = build_opener(HTTPCookieProcessor(self.jar))
        self.released = 0.0
        self.join_s: float | None = None
        self.in_lobby_at: float | None = None
        self.problem = ""
        self.phase = "page"
        self.done = threading.Event()

    def run(self) -> None:
        try:
            self._run()
        except Exception as error:  # reported, never silent
            self.problem = f"{self.phase}: {error!r}"
        finally:
            self.done.set()

    def _run(self) -> None:
        url = f"{self.origin}/join/{self.code}/"
        page = self.opener.open(url, timeout=60).read().decode()
        found = CSRF.search(page)
        assert found, "no CSRF token on the nickname page"
        body = urlencode({"csrfmiddlewaretoken": found.group(1), "nickname": self.name})
        request = Request(url, data=body.encode(), headers={"Origin": self.origin})  # noqa: S310
        self.barrier.wait()
        self.phase = "join"
        self.released = time.perf_counter()
        with self.opener.open(request, timeout=60) as response:
            lobby = response.read().decode()
            assert f'data-page-url="/play/{self.code}/"' in lobby, response.url
        self.join_s = time.perf_counter() - self.released
        self.phase = "lobby socket"
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        ws_url = self.origin.replace("http", "ws") + f"/ws/play/{self.code}/"
        with connect(
            ws_url, origin=self.origin, additional_headers={"Cookie": cookies}, open_timeout=60
        ) as socket:  # type: ignore[arg-type]
            socket.recv(timeout=60)
            self.in_lobby_at = time.perf_counter()
            # Stay in the lobby (hearing the others join) until everyone is in.
            while not self.barrier.broken and not _stop.is_set():
                try:
                    socket.recv(timeout=0.2)
                except TimeoutError:
                    continue


_stop = threading.Event()


def _cpu_s(pid: int) -> float:
    """User plus system CPU seconds the process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _join_all(origin: str, code: str, size: int, server_pid: int) -> dict[str, Any]:
    _stop.clear()
    cpu_before: list[float] = []
    # Every nickname page is loaded when the barrier opens: what follows is the burst.
    barrier = threading.Barrier(
        size, action=lambda: cpu_before.extend([_cpu_s(server_pid), time.process_time()])
    )
    tablets = [Tablet(origin, code, f"Kid {n:03d}", barrier) for n in range(size)]
    for tablet in tablets:
        tablet.start()
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not all(
        t.in_lobby_at is not None or t.done.is_set() for t in tablets
    ):
        time.sleep(0.05)
    server_cpu_s = _cpu_s(server_pid) - cpu_before[0] if cpu_before else None
    client_cpu_s = time.process_time() - cpu_before[1] if cpu_before else None
    _stop.set()
    for tablet in tablets:
        tablet.join(timeout=10)
    problems = [t.problem for t in tablets if t.problem]
    joins = sorted(t.join_s for t in tablets if t.join_s is not None)
    if not joins:
        raise SystemExit(f"no tablet joined: {problems[:3]}")
    released = min(t.released for t in tablets if t.released)
    lobby = [t.in_lobby_at for t in tablets if t.in_lobby_at is not None]
    return {
        "tablets": size,
        "joined": len(joins),
        "problems": problems[:3],
        "join_p50_s": round(statistics.median(joins), 3) if joins else None,
        "join_p95_s": round(joins[int(0.95 * (len(joins) - 1))], 3) if joins else None,
        "join_max_s": round(joins[-1], 3) if joins else None,
        "all_in_lobby_s": round(max(lobby) - released, 3) if len(lobby) == size else None,
        # The server's CPU time from the barrier until the last tablet was in (or gave up):
        # against all_in_lobby_s it says whether the server or the machine was the limit.
        "server_cpu_s": round(server_cpu_s, 2) if server_cpu_s is not None else None,
        # The simulated tablets' own CPU time (all in this process) over the same span.
        "client_cpu_s": round(client_cpu_s, 2) if client_cpu_s is not None else None,
        "load_average_1m": round(os.getloadavg()[0], 2),
    }


async def main(sizes: list[int]) -> None:
    prepare = PREPARE.replace("SIZES", json.dumps(sizes))
    async with bench_server(prepare) as server:
        results = []
        for size, code in zip(sizes, server.prepared, strict=True):
            results.append(
                await asyncio.to_thread(_join_all, server.origin, code, size, server.process.pid)
            )
    print(json.dumps({"joins": results}, indent=2))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[30, 120, 300])
    asyncio.run(main(parser.parse_args().sizes))
