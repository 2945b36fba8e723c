"""The yardstick: a minimal `websockets` server doing the same fan-out as a live table.

Clients connect to /<group>; every ``interval`` seconds each group gets one frame of about
the size of a Palm Strike state frame, stamped with the server's monotonic clock.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import defaultdict

from websockets.asyncio.server import ServerConnection, serve

PADDING = "x" * 1200  # a Palm Strike state frame for a table of four is about this size


async def main(port: int, interval: float) -> None:
    groups: dict[str, set[ServerConnection]] = defaultdict(set)

    async def handler(connection: ServerConnection) -> None:
        group = connection.request.path if connection.request else "/"
        groups[group].add(connection)
        try:
            await connection.wait_closed()
        finally:
            groups[group].discard(connection)

    async def broadcaster() -> None:
        flip = 0
        while True:
            await asyncio.sleep(interval)
            flip += 1
            for members in list(groups.values()):
                began = time.monotonic_ns() // 1_000_000
                frame = json.dumps({"type": "state", "flip": flip, "at_ms": began, "pad": PADDING})
                for connection in list(members):
                    await connection.send(frame)

    async with serve(handler, "127.0.0.1", port):
        await broadcaster()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), float(sys.argv[2])))
