"""The yardstick: a minimal `websockets` server doing the same fan-out as a live table.

Clients connect to /<group>; each group (a table) has its own timer, as each live table has
its own host: while running, one frame of about the size of a Palm Strike state frame every
``interval`` seconds, the first a second after it is told to run (as a table resumes). Each
flip is due ``interval`` after the last one began; the frame carries when it began (the
server's monotonic clock) and how late the timer woke. A slap a client sends is told to its
whole group, as a live table tells every seat of an accepted change. A client on /control
sends "run" or "pause" (the benchmark alternates the two servers in blocks).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, serve

PADDING = "x" * 1200  # a Palm Strike state frame for a table of four is about this size
RESUME_S = 1.0  # as games/palm_strike: the first flip after a resume


def _now_ms() -> int:
    return time.monotonic_ns() // 1_000_000


def _frame(flip: int, began: int, late: int) -> str:
    view = {"flip": flip, "phase": "open"}
    return json.dumps(
        {"type": "state", "view": view, "at_ms": began, "late_ms": late, "pad": PADDING}
    )


async def main(port: int, interval: float) -> None:
    groups: dict[str, set[ServerConnection]] = defaultdict(set)
    flips: dict[str, int] = defaultdict(int)
    timers: dict[str, asyncio.Task[None]] = {}
    running = asyncio.Event()

    async def tell(group: str, frame: str) -> None:
        for connection in list(groups[group]):
            await connection.send(frame)

    async def table(group: str) -> None:
        while True:
            await running.wait()
            due = _now_ms() + RESUME_S * 1000
            while running.is_set():
                await asyncio.sleep(max(0.0, due - _now_ms()) / 1000)
                if not running.is_set():
                    break
                began = _now_ms()
                flips[group] += 1
                await tell(group, _frame(flips[group], began, max(0, round(began - due))))
                due = began + interval * 1000

    async def control(connection: ServerConnection) -> None:
        async for message in connection:
            if message == "run":
                running.set()
            else:
                running.clear()
            await connection.send("ok")

    async def handler(connection: ServerConnection) -> None:
        group = connection.request.path if connection.request else "/"
        if group == "/control":
            await control(connection)
            return
        groups[group].add(connection)
        if group not in timers:
            timers[group] = asyncio.create_task(table(group))
        try:
            async for message in connection:
                slap = json.loads(message)["action"]
                await tell(group, _frame(int(slap["flip"]), _now_ms(), 0))
        finally:
            groups[group].discard(connection)

    async with serve(handler, "127.0.0.1", port):
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
