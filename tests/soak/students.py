"""Simulated students for the soak test: auto-flip Palm Strike tablets that play, drop and move.

Each student is a real WebSocket client (cookie and Origin like a browser) that

* slaps when it sees a match on the table (often) and sometimes when there is none, after a
  human delay, reporting that delay as its reaction time (so the race is real);
* picks a card when it wins a race that asks for one;
* now and then drops its socket and comes back (a tablet going to sleep, a Wi-Fi blip);
* moves with its table to a fresh session when the driver rotates the table, or when the
  table's game is over (the teacher starting the next game).

It keeps a record of everything the soak test judges: error frames, closes it did not ask
for, connection failures, and when it last saw a flip (a table that stops flipping is stuck).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

if TYPE_CHECKING:
    import random

# Refusals the game gives a real child too: a slap after the window closed, a card choice
# that lost to the time-out. Anything else in an error frame is a fault.
EXPECTED_ERROR_CODES = frozenset({"rejected"})
# How a tablet says goodbye when it goes to sleep or moves on (the browser's "going away").
CLOSE_GOING_AWAY = 1001


def now_ms() -> float:
    """The machine's monotonic clock in ms: the clock the server stamps ``at_ms`` with."""
    return time.monotonic_ns() / 1_000_000


@dataclass
class Seat:
    code: str
    token: str


@dataclass
class TableSlot:
    """One table's worth of students and the sessions it plays, one after another."""

    number: int
    # generations[g][i]: student i's seat in the slot's g-th session.
    generations: list[list[Seat]]
    generation: int = 0
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    games_over: int = 0
    last_flip_at: float = 0.0

    def seat_of(self, index: int) -> Seat:
        return self.generations[self.generation][index]

    def rotate(self) -> bool:
        """Move the table to its next session, if one is left; wakes its students."""
        if self.generation + 1 >= len(self.generations):
            return False
        self.generation += 1
        self.changed.set()
        self.changed = asyncio.Event()
        return True

    def game_over(self, generation: int) -> None:
        # Every student of the table sees it; only the first report moves the table.
        if generation == self.generation:
            self.games_over += 1
            self.rotate()


@dataclass
class Faults:
    """What the soak test must find empty."""

    errors: list[dict[str, Any]] = field(default_factory=list)
    unexpected_closes: list[tuple[str, int | None, str]] = field(default_factory=list)
    connect_failures: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class SoakStudent:
    name: str
    slot: TableSlot
    index: int
    port: int
    faults: Faults
    # Mean seconds between two voluntary drops; the drop lasts a second or two.
    churn_every_s: float
    rng: random.Random
    connected: bool = False
    connects: int = 0
    drops: int = 0
    flips_seen: int = 0
    slaps: int = 0
    refusals: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    _seq: int = 0
    _acts: set[asyncio.Task[None]] = field(default_factory=set)

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            generation = self.slot.generation
            seat = self.slot.seat_of(self.index)
            url = f"ws://127.0.0.1:{self.port}/ws/play/{seat.code}/table/"
            try:
                async with connect(
                    url,
                    additional_headers={"Cookie": f"seat_{seat.code}={seat.token}"},
                    origin=f"http://127.0.0.1:{self.port}",  # type: ignore[arg-type]
                    open_timeout=10,
                    close_timeout=5,
                ) as socket:
                    self.connects += 1
                    try:
                        reason = await self._play(socket, stop, generation)
                    finally:
                        self.connected = False
                        for act in self._acts:
                            act.cancel()
                    await socket.close(CLOSE_GOING_AWAY)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                self.faults.unexpected_closes.append((self.name, code, str(closed)))
                reason = "closed"
            except (OSError, InvalidHandshake, TimeoutError) as error:
                self.faults.connect_failures.append((self.name, repr(error)))
                reason = "closed"
            if stop.is_set():
                return
            if reason == "drop":
                self.drops += 1
                await _sleep_or_stop(stop, self.rng.uniform(0.3, 2.0))
            elif reason == "closed":
                await _sleep_or_stop(stop, 1.0)

    async def _play(self, socket: ClientConnection, stop: asyncio.Event, generation: int) -> str:
        """Play until told to stop, moved to another session, or it is time to drop."""
        drop_at = time.monotonic() + self.rng.expovariate(1 / self.churn_every_s)
        moved = self.slot.changed
        epoch_version = (-1, -1)
        last_flip = 0
        chose_for = 0
        while True:
            if stop.is_set():
                return "stop"
            if moved.is_set():
                return "moved"
            if time.monotonic() >= drop_at:
                return "drop"
            try:
                raw = await asyncio.wait_for(socket.recv(), timeout=0.25)
            except TimeoutError:
                continue
            received = now_ms()
            frame = json.loads(raw)
            kind = frame.get("type")
            if kind == "error":
                if frame.get("code") in EXPECTED_ERROR_CODES and frame.get("seq") is not None:
                    self.refusals += 1
                else:
                    self.faults.errors.append({"student": self.name, **frame})
                continue
            if kind != "state":
                continue
            stamp = (frame.get("epoch", 0), frame["version"])
            if stamp < epoch_version:
                continue  # an older view overtaken by a newer one
            epoch_version = stamp
            # Connected counts from the first view: the socket is attached to its table then.
            self.connected = True
            view = frame["view"]
            if view.get("phase") == "game_over":
                self.slot.game_over(generation)
                continue
            flip = int(view.get("flip") or 0)
            if flip > last_flip and view.get("phase") == "open":
                last_flip = flip
                self.flips_seen += 1
                self.slot.last_flip_at = time.monotonic()
                if "flip" in {event.get("kind") for event in frame.get("events", [])}:
                    # The frame that carries the flip itself: its latency is the table's.
                    self.latencies_ms.append(received - float(frame["at_ms"]))
                self._maybe_slap(socket, view, flip)
            choice = view.get("choice")
            if choice is not None and last_flip > chose_for:
                chose_for = last_flip
                self._later(socket, self.rng.uniform(0.2, 1.0), {"kind": "choose", "card": 0})

    def _maybe_slap(self, socket: ClientConnection, view: dict[str, Any], flip: int) -> None:
        public = view.get("public") or {}
        colours = {public.get("bg"), public.get("word"), public.get("ink")}
        # Beginner level, any scope: a player card matches when both its colours show.
        match = any(
            {card["bg"], card["pic"]} <= colours
            for player in view.get("players", [])
            for card in player["cards"]
        )
        if self.rng.random() >= (0.35 if match else 0.03):
            return
        delay_s = self.rng.uniform(0.35, 1.1)
        self.slaps += 1
        # The delay is the reaction time the tablet measured; a little under it for the
        # frame's own trip, so the server finds it plausible.
        rt_ms = int(delay_s * 1000) - 20
        self._later(socket, delay_s, {"kind": "slap", "flip": flip, "rt_ms": rt_ms, "rtt_ms": 10})

    def _later(self, socket: ClientConnection, delay_s: float, action: dict[str, Any]) -> None:
        self._seq += 1
        cid = f"{self.name}:{self._seq}"
        frame = {"type": "act", "seq": self._seq, "action": action, "cid": cid}
        task = asyncio.create_task(_send_after(socket, delay_s, json.dumps(frame)))
        self._acts.add(task)
        task.add_done_callback(self._acts.discard)


async def _send_after(socket: ClientConnection, delay_s: float, frame: str) -> None:
    await asyncio.sleep(delay_s)
    with contextlib.suppress(ConnectionClosed):
        await socket.send(frame)


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)
