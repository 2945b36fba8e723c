"""A misbehaving tablet, in a process of its own: floods its table socket at a fixed rate.

    python -m tests.faults.flooder URL COOKIE ORIGIN SECONDS RATE PAUSE

Sends RATE frames a second (pings, syncs and slaps, 10 at a time every 10 ms). When the
server closes the socket it waits PAUSE seconds, reconnects and floods again, until SECONDS
have passed. A real tablet would stop at 4008 (table_socket.js treats it as final); a broken
page that retries, or a hostile script, might not. Prints "ready" once the first socket is
open, and at the end one JSON line: the close code of every socket, frames sent, answers
heard.

A separate process, so the flood does not slow the measuring tablets' own event loop.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections import Counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.typing import Origin

BURST = 10


def _frames(count: int) -> list[str]:
    kinds: list[dict[str, Any]] = [
        {"type": "ping", "seq": count},
        {"type": "act", "seq": count, "action": {"kind": "slap", "flip": 1, "rt_ms": 300}},
        {"type": "sync", "seq": count},
    ]
    return [json.dumps(kinds[(count + n) % len(kinds)]) for n in range(BURST)]


async def _drain(ws: ClientConnection, heard: Counter[str]) -> None:
    try:
        async for raw in ws:
            frame = json.loads(raw)
            heard[frame.get("code") or frame.get("type")] += 1
    except ConnectionClosed:
        pass


async def flood(
    url: str, cookie: str, origin: str, seconds: float, rate: int, pause: float
) -> dict[str, Any]:
    codes: list[int | None] = []
    heard: Counter[str] = Counter()
    sent = 0
    interval = BURST / rate
    started = time.monotonic()
    deadline = started + seconds
    next_at = started
    ready = False
    connected_s = 0.0
    while time.monotonic() < deadline:
        try:
            ws = await connect(
                url, additional_headers={"Cookie": cookie}, origin=Origin(origin), open_timeout=5
            )
        except (OSError, InvalidHandshake, TimeoutError):
            codes.append(None)
            await asyncio.sleep(0.05)
            continue
        if not ready:
            ready = True
            print("ready", flush=True)
        opened = time.monotonic()
        reader = asyncio.ensure_future(_drain(ws, heard))
        try:
            while time.monotonic() < deadline:
                for text in _frames(sent):
                    await ws.send(text)
                    sent += 1
                next_at = max(next_at + interval, time.monotonic() - 0.05)
                await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        except ConnectionClosed:
            pass
        if time.monotonic() >= deadline and not reader.done():
            await ws.close()
            await reader
            codes.append(-1)  # still open when the time was up: we closed it
            connected_s += time.monotonic() - opened
            break
        await reader
        connected_s += time.monotonic() - opened
        codes.append(ws.close_code)
        await asyncio.sleep(pause)
        next_at = time.monotonic()
    elapsed = time.monotonic() - started
    return {
        "codes": codes,
        "sent": sent,
        "elapsed_s": elapsed,
        "connected_s": connected_s,
        "heard": dict(heard),
    }


def main() -> None:
    url, cookie, origin, seconds, rate, pause = sys.argv[1:7]
    result = asyncio.run(flood(url, cookie, origin, float(seconds), int(rate), float(pause)))
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
