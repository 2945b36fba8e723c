"""Scripted tablets for the fault tests: real WebSocket clients that behave like table_socket.js.

Each one flips when it is its turn (Palm Strike, tap pacing), tags every input with a client
id, reconnects with jittered backoff when its socket drops, and sends again the inputs the
server had not answered (the server must apply each at most once). It records every input the
server acknowledged: those must be in the action log exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass
class ScriptedTablet:
    name: str
    code: str
    token: str
    # Where to connect now (the "load balancer": the ports of the processes still alive).
    ports: Callable[[], list[int]]
    acknowledged: set[str] = field(default_factory=set)
    ack_times: list[float] = field(default_factory=list)
    close_codes: list[int | None] = field(default_factory=list)
    connects: int = 0
    # (monotonic s, what): connects, closes, retries, the first view of each owner (epoch).
    timeline: list[tuple[float, str]] = field(default_factory=list)
    # (monotonic s, epoch) of every view: a tablet resumed after a failover at its first view
    # from the new owner.
    view_times: list[tuple[float, int]] = field(default_factory=list)
    views: int = 0
    last_view: dict[str, Any] | None = None
    _unanswered: dict[int, dict[str, Any]] = field(default_factory=dict)
    _seq: int = 0
    _epoch: int = 0
    _version: int = -1

    async def run(self, stop: asyncio.Event) -> None:
        retries = 0
        while not stop.is_set():
            ports = self.ports()
            if not ports:
                await asyncio.sleep(0.2)
                continue
            port = random.choice(ports)
            url = f"ws://127.0.0.1:{port}/ws/play/{self.code}/table/"
            try:
                async with connect(
                    url,
                    additional_headers={"Cookie": f"seat_{self.code}={self.token}"},
                    origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                    open_timeout=3,
                ) as socket:
                    self.connects += 1
                    self.timeline.append((time.monotonic(), "open"))
                    retries = 0
                    await self._resend(socket)
                    await self._play(socket, stop)
                    self.close_codes.append(socket.close_code)
                    self.timeline.append((time.monotonic(), f"closed {socket.close_code}"))
            except (OSError, WebSocketException, TimeoutError) as failed:
                self.close_codes.append(None)
                self.timeline.append((time.monotonic(), f"failed {type(failed).__name__}"))
            if stop.is_set():
                return
            # The same backoff as table_socket.js: half to all of min(0.5 s · 2^n, 8 s).
            ceiling = min(0.5 * 2**retries, 8.0)
            retries += 1
            await asyncio.sleep(ceiling / 2 + random.random() * ceiling / 2)

    async def _play(self, socket: Any, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=0.3)
            except TimeoutError:
                continue
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "state":
                if (frame.get("epoch", 0), frame["version"]) < (self._epoch, self._version):
                    continue
                if frame.get("epoch", 0) > self._epoch:
                    self.timeline.append((time.monotonic(), f"view epoch {frame.get('epoch')}"))
                self._epoch, self._version = frame.get("epoch", 0), frame["version"]
                self.view_times.append((time.monotonic(), self._epoch))
                self.views += 1
                self.last_view = frame["view"]
                await self._maybe_flip(socket, frame["view"])
            elif kind == "ack":
                sent = self._unanswered.pop(frame["seq"], None)
                if sent is not None:
                    self.acknowledged.add(sent["cid"])
                    self.ack_times.append(time.monotonic())
            elif kind == "error" and "seq" in frame:
                self._unanswered.pop(frame["seq"], None)

    async def _maybe_flip(self, socket: Any, view: dict[str, Any]) -> None:
        if view.get("phase") != "waiting_flip" or view.get("active_seat") != view.get("you"):
            return
        if any(sent["action"]["kind"] == "flip" for sent in self._unanswered.values()):
            return  # already asked; waiting for the answer
        self._seq += 1
        cid = f"{self.name}:{self._seq}"
        frame = {"type": "act", "seq": self._seq, "action": {"kind": "flip"}, "cid": cid}
        self._unanswered[self._seq] = frame | {"at": time.monotonic()}
        await socket.send(json.dumps(frame))

    async def _resend(self, socket: Any) -> None:
        now = time.monotonic()
        for seq, sent in list(self._unanswered.items()):
            if now - sent["at"] > 5.0:
                del self._unanswered[seq]
                continue
            frame = {key: value for key, value in sent.items() if key != "at"}
            with contextlib.suppress(WebSocketException):
                await socket.send(json.dumps(frame))
