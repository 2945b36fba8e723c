"""Benchmark: the CPU a tablet's lobby socket costs to open, with and without its code's
session known beforehand.

    .venv/bin/python tests/load/bench_socket_open.py [--sockets 200]

A guest session of ``--sockets`` seats on a fresh SQLite file; each seat's socket opens
through the site's ASGI application in this process (``WebsocketCommunicator``, no server),
is accepted, gets its first lobby, and closes. Every other socket finds its code already
remembered (``classroom/pages/code_sessions.py``: one call to the sockets' database thread,
which also draws the lobby), the others find it forgotten (two calls: the seat, then the
lobby), so the two ways take turns under the same machine. Printed as JSON: the median CPU
time (``time.process_time``, this process only) from the handshake to the first lobby, each
way, after the first five of each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.load.bench_tables import bench_env

WARM_UP = 5


def _session_with_seats(count: int) -> tuple[Any, list[Any]]:
    from django.contrib.auth.models import User

    from classroom.services.seats import seat_join_guest
    from classroom.services.sessions import session_create

    teacher = User.objects.create_user(username="open-teacher", password="open-pass-123")
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=None, players_per_table=4, settings={}
    )
    seats = [seat_join_guest(session=session, nickname=f"Kid {n:03d}") for n in range(count)]
    return session, seats


async def _open_cpu_ms(session: Any, seat: Any, *, known: bool) -> float:
    from channels.testing import WebsocketCommunicator

    from classroom.asgi import application
    from classroom.pages import code_sessions
    from classroom.people.seat_cookies import seat_cookie_name

    code_sessions._sessions.clear()
    if known:
        code_sessions.code_session_remember(session.code, session.pk)
    cookie = f"{seat_cookie_name(session.code)}={seat.token}".encode()
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1"), (b"cookie", cookie)]
    socket = WebsocketCommunicator(application, f"/ws/play/{session.code}/", headers=headers)
    started = time.process_time()
    connected, _subprotocol = await socket.connect(timeout=10)
    lobby = await socket.receive_from(timeout=10)
    spent = (time.process_time() - started) * 1000
    assert connected
    assert 'id="lobby-live"' in lobby, lobby[:200]
    await socket.disconnect()
    return spent


async def _measure(session: Any, seats: list[Any]) -> dict[str, float]:
    spent: dict[bool, list[float]] = {True: [], False: []}
    for index, seat in enumerate(seats):
        known = index % 2 == 0
        spent[known].append(await _open_cpu_ms(session, seat, known=known))
    return {
        "code_known_ms_median": round(statistics.median(spent[True][WARM_UP:]), 2),
        "code_forgotten_ms_median": round(statistics.median(spent[False][WARM_UP:]), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=200)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="snapclass-open-") as workdir:
        os.environ.update(
            bench_env(Path(workdir) / "bench.sqlite3", STATIC_ROOT=str(Path(workdir) / "static"))
        )
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)
        session, seats = _session_with_seats(args.sockets)
        figures = asyncio.run(_measure(session, seats))
    print(
        json.dumps(
            {
                "sockets": args.sockets,
                **figures,
                "load_average": [load_before, os.getloadavg()[0]],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
