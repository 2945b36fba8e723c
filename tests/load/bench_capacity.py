"""Benchmark: how many students one Snapclass process holds with flip-to-last-tablet p99 ≤ 100 ms.

    python tests/load/bench_capacity.py [--modes embedded,cluster,layers] [--limit-ms 100]

Ramps classes of 30 simulated students (auto-flip Palm Strike, tables of four; they slap and
pick cards like children) onto Daphne, measuring after each step, over a window, the time from
the server beginning a flip to the *last* tablet of the table receiving it. The ramp stops when
p99 passes the limit twice in a row (one noisy window on a shared machine is not a verdict) or
at ``--max-students``. A game lasts about 11 minutes and a ramp to 3,000 students about 19: a
class with a game over leaves before the next step and a fresh class takes its place, so the
load stays that of children playing (``classes_replaced`` per step). Modes:

* ``embedded``: one process, SQLite, the in-memory channel layer (the default install);
* ``cluster``: two processes on PostgreSQL and Redis behind HAProxy
  (``classroom/server/haproxy.cfg``, docs/operations.md's layout), which sends a session's
  sockets to one process by a hash of its join code, so tables rarely need Redis for their
  frames;
* ``cluster-spread``: the same, but HAProxy without session affinity (round robin for the
  table sockets too), so the tables fan out across processes through Redis (the worst case);
* ``layers``: the spread cluster at fixed loads (``--layer-students``), once with
  channels_redis' RedisChannelLayer (the default) and once with RedisPubSubChannelLayer
  (``SNAPCLASS_CHANNEL_LAYER=pubsub``).

``--timings`` adds, per step, what the server saw (GC pauses, log-writer commit times, event
loop lag); ``--profile-at N`` also samples where the event loop spends its time at N students.

The students are real WebSocket clients (cookie and Origin as a browser sends them) in client
processes of their own (``--client``, commands as JSON lines on stdin), never in the server's.
Server memory and CPU come from /proc (per process, and the event-loop thread apart from the
others). Per-socket memory is (server RSS at N students - RSS before any) / N.

Each class also has its teacher's console and its projector open (one socket each), drawn
again as its tables change, as in a classroom. Every socket keeps the page's heartbeat
(``static/js/lib/heartbeat.js``): it connects with ``?heartbeat=1`` (the server closes it after
4 s of silence), a teacher page pings as often as the page does, and a tablet answers the
server's probes at once and pings only after a quiet spell, as ``static/js/lib/table_socket.js``
does (``--no-heartbeat``: as the ramp ran before).

Progress goes to stderr; one JSON object to stdout. Loopback only; bounded in time. The exit
status is 1 when any step lost a flip (a flip that did not reach, within 10 s, every tablet of
its table that was there for it: a tablet still connecting when its table began is owed the
flips after its first view, one that reconnected every flip), had a connected tablet hear
nothing, or closed a teacher's page; the JSON's
``failures`` (and stderr) name the table, the flip and the tablets that missed it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import os
import random
import signal
import statistics
import sys
import tempfile
import threading
import time
import types
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable
    from types import FrameType

    from tests.cluster.processes import Site

ROOT = Path(__file__).resolve().parents[2]
CLASS_SIZE = 30
TABLE_SIZE = 4
# Spare classes prepared for a ramp, as a share of those it may connect: a game lasts about
# 11 minutes (the first of a class's tables ends it sooner) and a ramp to 3,000 about 19, so
# most classes of the ramp's first half are replaced.
SPARE_CLASSES = 1.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# A flip still missing a tablet this long after it began is counted as lost.
LOST_AFTER_S = 10.0
# Close codes after which table_socket.js gives up (flood, signed out, removed, not playing).
STOP_CODES = frozenset({"4008", "4401", "4403", "4404", "closed by server"})
MAX_RECONNECTS = 5


def _now_ms() -> float:
    return time.monotonic_ns() / 1_000_000


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _percentiles(values: list[float]) -> dict[str, float]:
    if len(values) < 2:
        only = round(values[0], 2) if values else 0.0
        return {"p50": only, "p95": only, "p99": only, "max": only, "n": len(values)}
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return {
        "p50": round(cuts[49], 2),
        "p95": round(cuts[94], 2),
        "p99": round(cuts[98], 2),
        "max": round(max(values), 2),
        "n": len(values),
    }


def _p99_with_lost(latencies: list[float], lost: int) -> float | None:
    """p99 with every lost flip as an infinitely late one (None: more than 1 % were lost)."""
    everything = sorted(latencies) + [float("inf")] * lost
    if not everything:
        return 0.0
    value = everything[min(len(everything) - 1, int(0.99 * len(everything)))]
    return None if value == float("inf") else round(value, 2)


# ============================================================================================
# The client side: one process holding many tablets


class _Event(msgspec.Struct):
    kind: str = ""


class _View(msgspec.Struct):
    flip: int = 0
    phase: str = ""
    choice: dict[str, Any] | None = None


class _Frame(msgspec.Struct):
    """The few fields a tablet needs; msgspec skips the rest of the view without building it."""

    type: str
    at_ms: int = 0
    view: _View | None = None
    events: list[_Event] = []
    code: str = ""
    seq: int | None = None


_decode = msgspec.json.Decoder(_Frame).decode


@dataclass
class _Pending:
    """A flip some tablets of its table have and others not yet."""

    seen_by: set[str]
    worst_ms: float
    first_seen: float


@dataclass
class ClientLoad:
    """Every tablet of this client process and what they measured since the last report."""

    slap_probability: float
    # Sockets keep the page's heartbeat (its pings, probes answered).
    heartbeat: bool = True
    rng: random.Random = field(default_factory=lambda: random.Random(os.getpid()))
    sizes: dict[str, int] = field(default_factory=dict)
    # The tablets (seat tokens) of each table.
    members: dict[str, list[str]] = field(default_factory=dict)
    pending: dict[tuple[str, int], _Pending] = field(default_factory=dict)
    completed: list[float] = field(default_factory=list)
    lost: int = 0
    # What each lost flip's missing tablets were doing (the first few of a report).
    lost_details: list[dict[str, Any]] = field(default_factory=list)
    # Per tablet: the last flip it saw, when its last frame came (monotonic s), what it was.
    tablet_flip: dict[str, int] = field(default_factory=dict)
    tablet_frame: dict[str, tuple[float, str]] = field(default_factory=dict)
    tablet_connects: Counter[str] = field(default_factory=Counter)
    # The flip each tablet's first view showed: a tablet of a class still connecting when
    # its table began flipping is owed only the flips after it (its first view shows the
    # card already there). Flips missed while reconnecting are still lost.
    first_flip: dict[str, int] = field(default_factory=dict)
    # The teachers' pages (a console and a projector per class): frames, and when each last
    # got one, by "console <code>" / "projector <code>".
    teacher_frames: int = 0
    teacher_last: dict[str, float] = field(default_factory=dict)
    teacher_connected: int = 0
    frames: int = 0
    refusals: int = 0
    pongs: int = 0
    probes: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    closes: Counter[str] = field(default_factory=Counter)
    connected: int = 0
    # When each connected tablet last got a view (by seat token): a tablet that is connected
    # but hears nothing is as good as gone for its child.
    last_view: dict[str, float] = field(default_factory=dict)
    # Tablets whose game is over (first to 100 points, after 10-15 min): quiet, not silent.
    games_over: set[str] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    # Per class (its join code): its tablets' seat tokens, its tables, and the tasks of its
    # sockets (tablets and teacher pages), so a class whose games are over can leave.
    class_tokens: dict[str, list[str]] = field(default_factory=dict)
    class_tables: dict[str, set[str]] = field(default_factory=dict)
    class_tasks: dict[str, list[asyncio.Task[None]]] = field(default_factory=dict)

    async def add(self, command: dict[str, Any]) -> dict[str, Any]:
        code = command["code"]
        ports = command["ports"]  # HAProxy's, for a cluster
        ready: list[asyncio.Future[bool]] = []
        by_table: Counter[str] = Counter(str(seat["table"]) for seat in command["seats"])
        self.sizes.update(by_table)
        for seat in command["seats"]:
            self.members.setdefault(str(seat["table"]), []).append(seat["token"])
        self.class_tokens[code] = [seat["token"] for seat in command["seats"]]
        self.class_tables[code] = set(by_table)
        self.class_tasks[code] = tasks = []
        placed: Counter[str] = Counter()
        if command.get("teacher_cookie"):
            for page in ("console", "projector"):
                tasks.append(asyncio.create_task(self._teacher_page(page, command, ports[0])))
        for seat in command["seats"]:
            table = str(seat["table"])
            port = ports[placed[table] % len(ports)]
            placed[table] += 1
            future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            ready.append(future)
            tasks.append(
                asyncio.create_task(self._tablet(code, seat["token"], table, port, future))
            )
        for task in tasks:
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        done = await asyncio.wait_for(asyncio.gather(*ready), timeout=90)
        return {"op": "added", "ok": sum(done), "connected": self.connected}

    def finished(self) -> dict[str, Any]:
        """The classes with a tablet that has seen its game end.

        A class's tables end their games minutes apart: waiting for the last one left up to
        an eighth of a ramp's top step at finished games, connected but without flips. The
        class's tables still playing go on without their tablets until the server stops
        them (``games.live.registry``'s grace period), work that counts for no student."""
        codes = [
            code
            for code, tokens in self.class_tokens.items()
            if any(token in self.games_over for token in tokens)
        ]
        return {"op": "finished", "codes": codes}

    async def retire(self, codes: list[str]) -> dict[str, Any]:
        """Close every socket of these classes (tablets and teacher pages) and forget them,
        so a class leaving counts neither as quiet nor as load."""
        tasks = [task for code in codes for task in self.class_tasks.pop(code, [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        students = tables = 0
        for code in codes:
            tokens = self.class_tokens.pop(code, [])
            students += len(tokens)
            class_tables = self.class_tables.pop(code, set())
            tables += len(class_tables)
            for table in class_tables:
                self.sizes.pop(table, None)
                self.members.pop(table, None)
                for key in [key for key in self.pending if key[0] == table]:
                    del self.pending[key]
            for token in tokens:
                self.games_over.discard(token)
                self.last_view.pop(token, None)
                self.first_flip.pop(token, None)
                self.tablet_flip.pop(token, None)
                self.tablet_frame.pop(token, None)
        return {"op": "retired", "students": students, "tables": tables}

    def _owed(self, table: str, flip: int, entry: _Pending) -> list[str]:
        """The tablets of the table that should have had this flip and have not."""
        return [
            token
            for token in self.members.get(table, [])
            if token not in entry.seen_by and self.first_flip.get(token, flip) < flip
        ]

    def _lost(self, table: str, flip: int, entry: _Pending, now: float) -> dict[str, Any]:
        """Which tablets of the table never got the flip, and what each was doing."""
        missing = []
        for token in self._owed(table, flip, entry):
            at, kind = self.tablet_frame.get(token, (0.0, ""))
            missing.append(
                {
                    "tablet": token[:8],
                    "connected": token in self.last_view,
                    "connects": self.tablet_connects[token],
                    "last_flip_seen": self.tablet_flip.get(token, 0),
                    "last_frame": kind,
                    "last_frame_s_ago": round(now - at, 1) if at else None,
                    "game_over": token in self.games_over,
                }
            )
        return {
            "table": table,
            "flip": flip,
            "got_it": len(entry.seen_by),
            "of": self.sizes.get(table, 0),
            "first_seen_s_ago": round(now - entry.first_seen, 1),
            "missing": missing,
        }

    def report(self) -> dict[str, Any]:
        now = time.monotonic()
        cutoff = now - LOST_AFTER_S
        for key, entry in list(self.pending.items()):
            if entry.first_seen < cutoff:
                del self.pending[key]
                if not self._owed(*key, entry):
                    self.completed.append(entry.worst_ms)  # every tablet owed it has it
                    continue
                self.lost += 1
                if len(self.lost_details) < 20:
                    self.lost_details.append(self._lost(*key, entry, now))
        result = {
            "op": "report",
            "latencies": [round(value, 2) for value in self.completed],
            "lost": self.lost,
            "lost_details": self.lost_details,
            "teacher_frames": self.teacher_frames,
            "pongs": self.pongs,
            "probes": self.probes,
            "teacher_connected": self.teacher_connected,
            "teacher_silent": sorted(page for page, at in self.teacher_last.items() if at < cutoff),
            "frames": self.frames,
            "refusals": self.refusals,
            "errors": dict(self.errors),
            "closes": dict(self.closes),
            "connected": self.connected,
            "silent": sum(
                1
                for token, at in self.last_view.items()
                if at < cutoff and token not in self.games_over
            ),
            "games_over": len(self.games_over),
            "cpu_s": time.process_time(),
        }
        self.completed, self.lost, self.frames, self.refusals, self.pongs = [], 0, 0, 0, 0
        self.probes = 0
        self.lost_details, self.teacher_frames = [], 0
        return result

    async def stop(self) -> dict[str, Any]:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        return {"op": "stopped"}

    async def _tablet(
        self, code: str, token: str, table: str, port: int, ready: asyncio.Future[bool]
    ) -> None:
        from websockets.exceptions import ConnectionClosed

        url = f"ws://127.0.0.1:{port}/ws/play/{code}/table/{self._heartbeat_query}"
        retries = 0
        try:
            while True:
                reason = "closed by server"
                try:
                    async with (
                        _connect(url, f"seat_{code}={token}", port) as socket,
                        self._beating(socket, heard_at=self._heard_at(token)),
                    ):
                        self.connected += 1
                        self.tablet_connects[token] += 1
                        self.last_view[token] = time.monotonic()
                        try:
                            await self._play(socket, table, token, ready)
                        finally:
                            self.connected -= 1
                            self.last_view.pop(token, None)
                except ConnectionClosed as closed:
                    reason = str(closed.rcvd.code if closed.rcvd else None)
                except (OSError, TimeoutError) as error:
                    reason = type(error).__name__
                except Exception as error:
                    # Anything else (a refused handshake, a frame this client cannot read)
                    # is counted too: a tablet must never stop listening unseen.
                    reason = type(error).__name__
                    self.errors[f"client: {error!r}"[:120]] += 1
                self.closes[reason] += 1
                # Like table_socket.js: stop on the server's final codes, otherwise come back
                # with jittered backoff (a table taken over closes its sockets with 4012).
                if reason in STOP_CODES or retries >= MAX_RECONNECTS:
                    return
                retries += 1
                await asyncio.sleep(min(0.5 * 2**retries, 8.0) * self.rng.uniform(0.5, 1.0))
        finally:
            if not ready.done():
                ready.set_result(False)

    async def _play(self, socket: Any, table: str, token: str, ready: asyncio.Future[bool]) -> None:
        loop = asyncio.get_running_loop()
        seq = 0
        last_flip = 0
        chose_for = 0

        def send_later(delay_s: float, action: dict[str, Any]) -> None:
            nonlocal seq
            seq += 1
            frame = json.dumps({"type": "act", "seq": seq, "action": action})
            loop.call_later(delay_s, lambda: asyncio.ensure_future(_send_quietly(socket, frame)))

        async for raw in socket:
            received = _now_ms()
            self.frames += 1
            frame = _decode(raw)
            self.tablet_frame[token] = (time.monotonic(), frame.type)
            if frame.type == "probe":
                # Answered at once, before anything else (table_socket.js).
                self.probes += 1
                await _send_quietly(socket, json.dumps({"type": "ping", "seq": frame.seq}))
                continue
            if frame.type == "pong":
                self.pongs += 1
                continue
            if frame.type == "error":
                if frame.code == "rejected":
                    self.refusals += 1  # a late slap: the game says no, as it would to a child
                else:
                    self.errors[frame.code] += 1
                continue
            view = frame.view
            if frame.type != "state" or view is None:
                continue
            self.last_view[token] = time.monotonic()
            flipped = any(event.kind == "flip" for event in frame.events)
            if token not in self.first_flip:
                self.first_flip[token] = view.flip - 1 if flipped else view.flip
            if not ready.done():
                ready.set_result(True)
            if any(event.kind == "game_over" for event in frame.events):
                self.games_over.add(token)
            if flipped:
                self.tablet_flip[token] = view.flip
                self._arrived(table, token, view.flip, received - frame.at_ms)
            if view.phase == "open" and view.flip > last_flip:
                last_flip = view.flip
                if self.rng.random() < self.slap_probability:
                    delay_s = self.rng.uniform(0.35, 0.9)
                    rt_ms = int(delay_s * 1000) - 20  # plausible: what the tablet measured
                    slap = {"kind": "slap", "flip": view.flip, "rt_ms": rt_ms, "rtt_ms": 10}
                    send_later(delay_s, slap)
            if view.choice is not None and last_flip > chose_for:
                chose_for = last_flip
                send_later(self.rng.uniform(0.3, 0.8), {"kind": "choose", "card": 0})

    def _arrived(self, table: str, token: str, flip: int, latency_ms: float) -> None:
        key = (table, flip)
        entry = self.pending.get(key)
        if entry is None:
            entry = self.pending[key] = _Pending(set(), latency_ms, time.monotonic())
        entry.seen_by.add(token)
        entry.worst_ms = max(entry.worst_ms, latency_ms)
        if len(entry.seen_by) >= self.sizes[table]:
            self.completed.append(entry.worst_ms)
            del self.pending[key]

    async def _teacher_page(self, page: str, command: dict[str, Any], port: int) -> None:
        """The teacher's console or the projector of one class, open all along, as in class:
        it is drawn again as the tables change; it must never close or fall silent."""

        name = f"{page} {command['code']}"
        url = (
            f"ws://127.0.0.1:{port}/ws/sessions/{command['session_id']}/{page}/"
            f"{self._heartbeat_query}"
        )
        try:
            cookie = f"sessionid={command['teacher_cookie']}"
            async with (
                _connect(url, cookie, port, max_size=2**24) as socket,
                self._beating(socket),
            ):
                self.teacher_connected += 1
                self.teacher_last[name] = time.monotonic()
                try:
                    async for html in socket:
                        if html.startswith('{"type":"pong"'):
                            self.pongs += 1
                            continue
                        self.teacher_frames += 1
                        self.teacher_last[name] = time.monotonic()
                finally:
                    self.teacher_connected -= 1
                    self.teacher_last.pop(name, None)
            self.closes[f"{page}: closed"] += 1
        except asyncio.CancelledError:
            raise
        except Exception as error:
            # With its cause: InvalidMessage (EOFError) is a handshake the server dropped.
            cause = f" ({type(error.__cause__).__name__})" if error.__cause__ else ""
            self.closes[f"{page}: {type(error).__name__}{cause}"] += 1

    @property
    def _heartbeat_query(self) -> str:
        return "?heartbeat=1" if self.heartbeat else ""

    def _heard_at(self, token: str) -> Callable[[], float]:
        """When the tablet of ``token`` last heard a frame (from now, if none yet)."""
        opened = time.monotonic()

        def heard_at() -> float:
            last = self.tablet_frame.get(token)
            return opened if last is None else last[0]

        return heard_at

    @contextlib.asynccontextmanager
    async def _beating(
        self, socket: Any, *, heard_at: Callable[[], float] | None = None
    ) -> AsyncIterator[None]:
        """The page's pings on ``socket`` while it is open: a teacher page's every 2 s; a
        tablet's (``heard_at``: when it last heard a frame, monotonic) only after a quiet
        spell, as it answers the server's probes (see ``_play``)."""
        if not self.heartbeat:
            yield
            return
        from tests.page_heartbeat import page_ping_every_s, page_quiet_ping_s

        every_s, quiet_s = page_ping_every_s(), page_quiet_ping_s()

        async def beat() -> None:
            seq = 0
            pinged_at = float("-inf")
            while True:
                if heard_at is None:
                    await asyncio.sleep(every_s)
                else:
                    due = max(heard_at() + quiet_s, pinged_at + every_s)
                    if (wait := due - time.monotonic()) > 0:
                        await asyncio.sleep(wait)
                        continue
                    pinged_at = time.monotonic()
                seq += 1
                await _send_quietly(socket, json.dumps({"type": "ping", "seq": seq}))

        task = asyncio.create_task(beat())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _connect(url: str, cookie: str, port: int, **options: Any) -> Any:
    """A WebSocket as the browser opens it (its cookie, the site's Origin, and no pings of
    the protocol's own: a browser answers the server's, it never sends any)."""
    from websockets.asyncio.client import connect

    return connect(
        url,
        additional_headers={"Cookie": cookie},
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        open_timeout=60,
        max_queue=None,
        ping_interval=None,
        **options,
    )


async def _send_quietly(socket: Any, frame: str) -> None:
    from websockets.exceptions import ConnectionClosed

    with contextlib.suppress(ConnectionClosed):
        await socket.send(frame)


async def _client_main(slap_probability: float, *, heartbeat: bool) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    load = ClientLoad(slap_probability, heartbeat=heartbeat)
    while line := await reader.readline():
        command = json.loads(line)
        op = command["op"]
        if op == "add":
            reply = await load.add(command)
        elif op == "report":
            reply = load.report()
        elif op == "finished":
            reply = load.finished()
        elif op == "retire":
            reply = await load.retire(command["codes"])
        else:
            reply = await load.stop()
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
        if op == "stop":
            return


class ClientProcess:
    """The parent's handle on one client process."""

    def __init__(self, slap_probability: float, *, heartbeat: bool) -> None:
        self._slap = slap_probability
        self._heartbeat = heartbeat
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()

    async def start(self) -> None:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(__file__).resolve()), "--client", "--slap", str(self._slap),
            *([] if self._heartbeat else ["--no-heartbeat"]),
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, limit=2**26,
        )  # fmt: skip

    @property
    def pid(self) -> int:
        assert self._process is not None
        return self._process.pid

    async def call(self, command: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process is not None
        assert process.stdin is not None
        assert process.stdout is not None
        async with self._lock:
            process.stdin.write((json.dumps(command) + "\n").encode())
            await process.stdin.drain()
            line = await asyncio.wait_for(process.stdout.readline(), timeout=180)
        if not line:
            raise RuntimeError("a client process died")
        reply: dict[str, Any] = json.loads(line)
        return reply

    async def close(self) -> None:
        if self._process is None or self._process.returncode is not None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.call({"op": "stop"}), timeout=30)
        with contextlib.suppress(ProcessLookupError):
            self._process.terminate()
        await self._process.wait()


# ============================================================================================
# The server side: processes, classes, /proc


class _Timings:
    """Where a measured window's time went, seen from inside the server (``--timings``)."""

    def __init__(self, *, young_census: bool = False) -> None:
        self.active = False
        # Counting the young generation's kinds holds the event loop about as long as the
        # collection itself, once a window: only asked for by --young-census.
        self.young_census = young_census
        self.gc: dict[int, list[float]] = {}
        self.gc_census: list[tuple[str, int]] = []
        self.gc_sizes: dict[int, list[int]] = {}
        self.gc_young_census: list[tuple[str, int]] = []
        self.gc_collected: dict[int, list[int]] = {}
        self.gc_threads: Counter[str] = Counter()
        self.writes: list[tuple[float, int]] = []
        self.lag: list[float] = []
        self._gc_began = 0.0

    def reset(self) -> None:
        self.gc, self.writes, self.lag = {}, [], []
        self.gc_collected, self.gc_threads, self.gc_sizes = {}, Counter(), {}
        self.gc_young_census = []
        # What the window's first collection with garbage found (kept by DEBUG_SAVEALL for
        # that one collection, counted by type, then let go for a later one to free).
        self.gc_census = []
        gc.set_debug(gc.DEBUG_SAVEALL)
        self.active = True

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        # Collections stop every thread, the event loop included.
        if phase == "start":
            if self.active:
                # How many objects the collection will look at (counted before its clock starts).
                young_objects = gc.get_objects(0)
                young = len(young_objects)
                if self.young_census and not self.gc_young_census:
                    kinds = Counter(_garbage_kind(thing) for thing in young_objects)
                    self.gc_young_census = kinds.most_common(30)
                del young_objects
                middle = len(gc.get_objects(1)) if info["generation"] >= 1 else 0
                self.gc_sizes.setdefault(info["generation"], []).append(young + middle)
            self._gc_began = time.perf_counter()
            return
        if self.active:
            pause_ms = (time.perf_counter() - self._gc_began) * 1000
            self.gc.setdefault(info["generation"], []).append(pause_ms)
            self.gc_collected.setdefault(info["generation"], []).append(info["collected"])
            self.gc_threads[threading.current_thread().name] += 1
        if gc.garbage and gc.get_debug() & gc.DEBUG_SAVEALL:
            found = Counter(_garbage_kind(thing) for thing in gc.garbage)
            self.gc_census = found.most_common(15)
            gc.set_debug(0)
            gc.garbage.clear()

    def wrap_writer(self) -> None:
        """Time every group commit of the live tables' log writer (its own thread)."""
        live_tables = sys.modules.get("classroom.hosting.table_hosts")
        if live_tables is None or getattr(live_tables, "_bench_timed", False):
            return
        write = live_tables._write_in_thread

        def timed(items: Any) -> None:
            began = time.perf_counter()
            try:
                write(items)
            finally:
                if self.active:
                    self.writes.append(((time.perf_counter() - began) * 1000, len(items)))

        live_tables._write_in_thread = timed  # type: ignore[attr-defined]
        live_tables._bench_timed = True  # type: ignore[attr-defined]

    async def watch_loop(self) -> None:
        """How late a 10 ms timer fires: what any callback waits for the loop."""
        while self.active:
            began = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lag.append((time.perf_counter() - began - 0.01) * 1000)

    def summary(self) -> dict[str, Any]:
        writes = [duration for duration, _rows in self.writes]
        return {
            "gc_pauses_ms": {
                f"gen{generation}": {
                    "count": len(pauses),
                    "total": round(sum(pauses), 1),
                    "max": round(max(pauses), 1),
                    "collected": sum(self.gc_collected.get(generation, [])),
                    "objects_looked_at": self.gc_sizes.get(generation, []),
                }
                for generation, pauses in sorted(self.gc.items())
            },
            "gc_threads": dict(self.gc_threads),
            "gc_census": self.gc_census,
            "gc_young_census": self.gc_young_census,
            "log_commits_ms": _percentiles(writes)
            | {
                "entries_per_commit": round(
                    sum(rows for _duration, rows in self.writes) / max(1, len(self.writes)), 1
                )
            },
            "loop_lag_ms": _percentiles(self.lag),
        }


def _garbage_kind(thing: object) -> str:
    """A collected object's type, and for code (functions, coroutines, tasks) its name.

    Only the type is asked of other objects: a lazy object would evaluate itself."""
    kind = type(thing)
    if issubclass(kind, asyncio.Task):
        return f"Task {thing.get_coro().__qualname__}"  # type: ignore[attr-defined]
    if kind in {types.FunctionType, types.CoroutineType, types.MethodType}:
        return f"{kind.__qualname__} {thing.__qualname__}"  # type: ignore[attr-defined]
    return kind.__qualname__


class _Sampler:
    """A poor man's py-spy: where the event-loop thread is, sampled every millisecond.

    cProfile charges every Python call, which inflates recursive pure-Python code (deepcopy)
    several times over; sampling the main thread's stack from a side thread costs the loop a
    few percent and keeps the shares honest. A sample is taken when the sampler gets the GIL:
    at the main thread's blocking calls (shown as idle: ``epoll``) and at CPython's forced
    switches (every switch interval), so busy code is seen in proportion to its time.
    """

    # Where a sample is charged: the innermost frame in one of these, else the library.
    OWN_CODE = ("/games/", "/classroom/")

    def __init__(self, thread_id: int) -> None:
        self.thread_id = thread_id
        self.active = False
        self.leaf: Counter[str] = Counter()
        self.own: Counter[str] = Counter()
        self.samples = 0

    def run(self) -> None:
        sys.setswitchinterval(0.001)  # a forced switch at least every ms: even sampling
        while self.active:
            time.sleep(0.001)
            frame = sys._current_frames().get(self.thread_id)
            if frame is None:
                continue
            self.samples += 1
            self.leaf[self._label(frame)] += 1
            own: FrameType | None = frame
            while own is not None and not any(p in own.f_code.co_filename for p in self.OWN_CODE):
                own = own.f_back
            self.own[self._label(own) if own is not None else self._library(frame)] += 1

    @staticmethod
    def _label(frame: Any) -> str:
        filename = frame.f_code.co_filename.split("site-packages/")[-1]
        filename = filename.replace(str(ROOT) + "/", "").split("/lib/python3.11/")[-1]
        return f"{filename}:{frame.f_code.co_name}"

    @staticmethod
    def _library(frame: Any) -> str:
        filename = frame.f_code.co_filename.split("site-packages/")[-1]
        filename = filename.split("/lib/python3.11/")[-1]
        if frame.f_code.co_name == "poll" or filename.startswith("selectors"):
            return "(idle: waiting in epoll)"
        return f"({filename.split('/')[0].removesuffix('.py')})"

    def summary(self, count: int = 20) -> dict[str, Any]:
        def share(counter: Counter[str]) -> list[tuple[str, float]]:
            total = max(1, self.samples)
            return [(name, round(100 * n / total, 1)) for name, n in counter.most_common(count)]

        return {"samples": self.samples, "by_own_code_pct": share(self.own),
                "by_leaf_pct": share(self.leaf)}  # fmt: skip


def _serve(daphne_args: list[str]) -> None:
    """Daphne in this process, instrumented (``--timings``, ``--profile-at``).

    SIGUSR1 opens a measured window, SIGUSR2 closes it and writes what was measured into
    $SNAPCLASS_BENCH_OUT/timings.json: GC pauses, log-writer commits, event-loop lag and,
    when the file ``profile-window`` is there, a stack-sampling profile of the main thread
    (Daphne's event loop, where the table hosts and sockets run). Windows keep start-up and
    connecting classes out of the figures.
    """
    import gc
    import threading

    from classroom.server.serve import event_loop_install

    event_loop_install()  # the serving process's loop, before Daphne's import makes one
    from daphne.cli import CommandLineInterface

    out = Path(os.environ["SNAPCLASS_BENCH_OUT"])
    timings = _Timings(young_census=os.environ.get("SNAPCLASS_BENCH_YOUNG_CENSUS") == "1")
    gc.callbacks.append(timings.on_gc)
    sampler = _Sampler(threading.main_thread().ident or 0)

    def open_window(_signum: int, _frame: object) -> None:
        timings.wrap_writer()
        timings.reset()
        loop = asyncio.get_running_loop()  # the handler runs on the loop's thread
        loop.call_soon_threadsafe(lambda: loop.create_task(timings.watch_loop()))
        if (out / "profile-window").exists():
            sampler.active = True
            threading.Thread(target=sampler.run, name="bench-sampler", daemon=True).start()

    def close_window(_signum: int, _frame: object) -> None:
        timings.active = False
        summary = timings.summary()
        if sampler.active:
            sampler.active = False
            summary["loop_profile"] = sampler.summary()
        (out / "timings.json").write_text(json.dumps(summary))

    signal.signal(signal.SIGUSR1, open_window)
    signal.signal(signal.SIGUSR2, close_window)
    CommandLineInterface().run(daphne_args)


def _start_instrumented(site: Site) -> int:
    """Like ``Site.start``, with Daphne run by :func:`_serve` (same interpreter, same env)."""
    import subprocess

    from classroom.server.daphne_limits import DAPHNE_TIMEOUT_ARGS, daphne_listen_args
    from tests.cluster.processes import _wait_until_up, free_port

    port = free_port()
    log_path = site.workdir / f"daphne-{port}.log"
    with log_path.open("ab") as log:
        site.processes[port] = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--serve",
             *daphne_listen_args("127.0.0.1", port), *DAPHNE_TIMEOUT_ARGS,
             "classroom.asgi:application"],
            cwd=ROOT, env=site.env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    _wait_until_up(port, site.processes[port], log_path)
    return port


PREPARE = """
from django.contrib.auth.models import User
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
from django.test import Client
teacher = User.objects.create_user(username="capacity-teacher", password="capacity-pass-123")
browser = Client()
browser.force_login(teacher)  # the teacher's console and projector sockets sign in with it
teacher_cookie = browser.cookies["sessionid"].value
classes = []
for _ in range({classes}):
    session = session_create(teacher=teacher, game="palm_strike", school_class=None,
        players_per_table={table_size}, settings={settings})
    seats = [seat_join_guest(session=session, nickname=f"S{{n:02d}}") for n in range({size})]
    session_start(session=session)
    for seat in seats:
        seat.refresh_from_db()
    classes.append({{"code": session.code, "session_id": session.pk,
        "teacher_cookie": teacher_cookie,
        "seats": [{{"token": seat.token, "table": seat.table_id}} for seat in seats]}})
print(json.dumps(classes))
"""


def _prepare(
    site: Site, classes: int, flip_every: float, points_target: int = 100
) -> list[dict[str, Any]]:
    settings = {
        "flip_pacing": "auto",
        "auto_flip_s": flip_every,
        "response_window_s": min(2.0, flip_every - 0.5),
        # 100, the longest game there is (about 11 minutes): a ramp replaces the classes
        # whose games end (``Load.replace_finished``).
        "points_target": points_target,
    }
    code = PREPARE.format(
        classes=classes, table_size=TABLE_SIZE, size=CLASS_SIZE, settings=repr(settings)
    )
    result: list[dict[str, Any]] = site.python(code)
    return result


def _status_kb(pid: int, key: str) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    return 0


def _cpu_s(stat_path: str) -> float:
    with open(stat_path, encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime + stime


def _cpu_split(pid: int) -> tuple[float, float, float]:
    """(CPU seconds of the main thread — Daphne's event loop —, of every other thread, of
    its child processes — the teacher pages' drawing process —)."""
    main = other = children = 0.0
    for tid in os.listdir(f"/proc/{pid}/task"):
        with contextlib.suppress(OSError):
            seconds = _cpu_s(f"/proc/{pid}/task/{tid}/stat")
            if int(tid) == pid:
                main += seconds
            else:
                other += seconds
    for child in child_pids(pid):
        with contextlib.suppress(OSError):
            children += _cpu_s(f"/proc/{child}/stat")
    return main, other, children


def child_pids(pid: int) -> list[int]:
    """The processes ``pid``'s threads started (the teacher pages' drawing process)."""
    found = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with (
            contextlib.suppress(OSError),
            open(f"/proc/{pid}/task/{tid}/children", encoding="ascii") as listed,
        ):
            found += [int(child) for child in listed.read().split()]
    return found


def _diagnostics(port: int) -> dict[str, Any]:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_diagnostics/", timeout=30) as answer:
        figures: dict[str, Any] = json.load(answer)
    return figures


@dataclass
class Server:
    site: Site
    ports: list[int]
    instrumented: bool = False
    # HAProxy in front of the processes (a cluster): the students connect there.
    proxy_port: int | None = None

    def entry_ports(self) -> list[int]:
        return [self.proxy_port] if self.proxy_port else self.ports

    def sockets_per_process(self) -> list[int]:
        """Connections open to each process now: HAProxy's count (scur) of each server."""
        if not self.proxy_port:
            return []
        from classroom.server.haproxy import haproxy_stats

        stats = haproxy_stats(self.site.proxy_stats)
        rows = {row["svname"]: row for row in stats if row["pxname"] == "tables"}
        return [int(rows[f"p{n}"]["scur"] or 0) for n in range(1, len(self.ports) + 1)]

    def pids(self) -> list[int]:
        return [self.site.processes[port].pid for port in self.ports]

    def rss_bytes(self) -> list[int]:
        return [_status_kb(pid, "VmRSS") * 1024 for pid in self.pids()]

    def cpu(self) -> list[tuple[float, float, float]]:
        return [_cpu_split(pid) for pid in self.pids()]

    def log_faults(self) -> dict[str, Any]:
        text = "\n".join(path.read_text() for path in self.site.workdir.glob("daphne-*.log"))
        faults: dict[str, Any] = {
            "tracebacks": text.count("Traceback"),
            "error_lines": text.count("ERROR"),
        }
        warnings = [line for line in text.splitlines() if "WARNING" in line]
        if warnings:
            # Lease losses and takeovers are warnings: how many, and the first few.
            faults["warning_lines"] = len(warnings)
            faults["first_warnings"] = warnings[:10]
        if "Traceback" in text:
            # The log goes with the temporary directory: keep the first one to read.
            begins = text.index("Traceback")
            faults["first_traceback"] = text[max(0, begins - 300) : begins + 3000]
        return faults


def _redis_cpu_s() -> float | None:
    try:
        import redis

        from tests.services import REDIS_URL

        info: dict[str, Any] = redis.Redis.from_url(REDIS_URL).info("cpu")  # type: ignore[assignment]
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])
    except Exception:
        return None


@dataclass
class Window:
    """One measurement window at a given load."""

    students: int
    latencies: list[float]
    lost: int
    seconds: float
    server_cpu: list[tuple[float, float, float]]
    client_cpu_s: float
    frames: int
    refusals: int
    errors: Counter[str]
    closes: Counter[str]
    connected: int
    silent: int
    games_over: int
    redis_cpu_s: float | None
    lost_details: list[dict[str, Any]] = field(default_factory=list)
    teacher_frames: int = 0
    teacher_connected: int = 0
    teacher_silent: list[str] = field(default_factory=list)
    pongs: int = 0
    probes: int = 0

    def summary(self, tables: int, flip_every: float) -> dict[str, Any]:
        cpu = [
            {
                "loop_pct": round(100 * main / self.seconds, 1),
                "other_threads_pct": round(100 * other / self.seconds, 1),
                "drawing_pct": round(100 * drawing / self.seconds, 1),
            }
            for main, other, drawing in self.server_cpu
        ]
        result: dict[str, Any] = {
            "students": self.students,
            "connected": self.connected,
            "flip_to_last_tablet_ms": _percentiles(self.latencies),
            "flips_per_s": round(len(self.latencies) / self.seconds, 1),
            "flips_per_s_nominal": round(tables / flip_every, 1),
            "lost_flips": self.lost,
            # A lost flip is one no latency can describe: counted as infinitely late.
            "p99_counting_lost_ms": _p99_with_lost(self.latencies, self.lost),
            "silent_tablets": self.silent,
            "tablets_game_over": self.games_over,
            # A console and a projector per class, open and drawn as in class.
            "teacher_pages_connected": self.teacher_connected,
            "teacher_frames_per_s": round(self.teacher_frames / self.seconds, 1),
            # The heartbeat from the server's side: pings answered, tablets probed.
            "pongs_per_s": round(self.pongs / self.seconds),
            "probes_per_s": round(self.probes / self.seconds),
            "server_cpu": cpu,
            "clients_cpu_pct": round(100 * self.client_cpu_s / self.seconds, 1),
            "frames_per_s": round(self.frames / self.seconds),
            "refusals": self.refusals,
        }
        if self.lost_details:
            result["lost_flip_details"] = self.lost_details
        if self.teacher_silent:
            # Quiet for 10 s: fine once all of a class's tables have ended, not before.
            result["teacher_pages_quiet"] = self.teacher_silent[:10]
        if self.errors:
            result["errors"] = dict(self.errors)
        if self.closes:
            result["closes"] = dict(self.closes)
        if self.redis_cpu_s is not None:
            result["redis_cpu_pct"] = round(100 * self.redis_cpu_s / self.seconds, 1)
        return result


class Load:
    """The client processes and the classes they have connected so far."""

    def __init__(
        self, server: Server, clients: list[ClientProcess], *, teacher_pages: bool = True
    ) -> None:
        self.server = server
        self.clients = clients
        self.teacher_pages = teacher_pages
        # Redis works for the cluster only; its CPU is part of the cost there.
        self._redis = len(server.ports) > 1
        self.students = 0
        self.tables = 0
        self._next = 0

    async def add(self, classes: list[dict[str, Any]], *, spread_s: float) -> None:
        """Connect ``classes``, each after a random delay of up to ``spread_s``.

        A class's tables start together (its teacher presses Start once), so they flip in
        step; different classes start independently. Connecting several classes in the same
        instant would put all their tables in step, a burst no school produces.
        """

        async def start(client: ClientProcess, command: dict[str, Any]) -> dict[str, Any]:
            await asyncio.sleep(random.uniform(0, spread_s))
            return await client.call(command)

        calls = []
        for prepared in classes:
            client = self.clients[self._next % len(self.clients)]
            self._next += 1
            command = {
                "op": "add",
                "ports": self.server.entry_ports(),
                **prepared,
            }
            if not self.teacher_pages:
                command.pop("teacher_cookie", None)
            calls.append(start(client, command))
            self.students += len(prepared["seats"])
            self.tables += len({seat["table"] for seat in prepared["seats"]})
        replies = await asyncio.gather(*calls)
        failed = sum(len(c["seats"]) for c in classes) - sum(r["ok"] for r in replies)
        if failed:
            _log(f"  {failed} tablets did not get their table")

    async def replace_finished(self, classes: list[dict[str, Any]], *, spread_s: float) -> int:
        """Classes with a game over leave, and as many fresh classes of ``classes`` join (as
        many as are left): the load stays that of children playing. Games last about 11
        minutes, a ramp to 3,000 students about 19. How many classes left."""
        left = 0
        for client in self.clients:
            codes = (await client.call({"op": "finished"}))["codes"]
            codes = codes[: len(classes) - self._next - left]
            if not codes:
                continue
            reply = await client.call({"op": "retire", "codes": codes})
            self.students -= reply["students"]
            self.tables -= reply["tables"]
            left += len(codes)
        if left:
            await self.add(classes[self._next : self._next + left], spread_s=spread_s)
        return left

    async def _reports(self) -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(c.call({"op": "report"}) for c in self.clients)))

    async def measure(self, seconds: float) -> Window:
        before = await self._reports()
        cpu_before = self.server.cpu()
        redis_before = _redis_cpu_s() if self._redis else None
        began = time.monotonic()
        await asyncio.sleep(seconds)
        after = await self._reports()
        elapsed = time.monotonic() - began
        cpu_after = self.server.cpu()
        redis_after = _redis_cpu_s() if self._redis else None
        errors: Counter[str] = Counter()
        closes: Counter[str] = Counter()
        for report in after:
            errors.update(report["errors"])
            closes.update(report["closes"])
        return Window(
            students=self.students,
            latencies=[value for report in after for value in report["latencies"]],
            lost=sum(report["lost"] for report in after),
            seconds=elapsed,
            server_cpu=[
                (a[0] - b[0], a[1] - b[1], a[2] - b[2])
                for a, b in zip(cpu_after, cpu_before, strict=True)
            ],
            client_cpu_s=sum(a["cpu_s"] - b["cpu_s"] for a, b in zip(after, before, strict=True)),
            frames=sum(report["frames"] for report in after),
            refusals=sum(report["refusals"] for report in after),
            errors=errors,
            closes=closes,
            connected=sum(report["connected"] for report in after),
            silent=sum(report["silent"] for report in after),
            games_over=sum(report["games_over"] for report in after),
            redis_cpu_s=(
                None if redis_before is None or redis_after is None else redis_after - redis_before
            ),
            lost_details=[detail for report in after for detail in report["lost_details"]],
            teacher_frames=sum(report["teacher_frames"] for report in after),
            pongs=sum(report["pongs"] for report in after),
            probes=sum(report["probes"] for report in after),
            teacher_connected=sum(report["teacher_connected"] for report in after),
            teacher_silent=[page for report in after for page in report["teacher_silent"]],
        )


async def _start_clients(count: int, slap: float, *, heartbeat: bool) -> list[ClientProcess]:
    clients = [ClientProcess(slap, heartbeat=heartbeat) for _ in range(count)]
    for client in clients:
        await client.start()
    return clients


async def _ramp(
    server: Server,
    classes: list[dict[str, Any]],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Add classes until p99 passes the limit twice running; what was held, step by step."""
    clients = await _start_clients(args.clients, args.slap, heartbeat=args.heartbeat)
    load = Load(server, clients, teacher_pages=args.teacher_pages)
    baseline = server.rss_bytes()
    steps: list[dict[str, Any]] = []
    held: dict[str, Any] | None = None
    over_once = False
    try:
        while load.students < args.max_students and load._next < len(classes):
            p99 = steps[-1]["flip_to_last_tablet_ms"]["p99"] if steps else 0.0
            # Big strides while far below the limit, one class at a time near it.
            count = 4 if p99 < 0.25 * args.limit_ms else 2 if p99 < 0.6 * args.limit_ms else 1
            if not steps:
                count = 1  # the first step: one class alone
            elif over_once:
                count = 0  # measure the same load again before calling it
            room = (args.max_students - load.students) // CLASS_SIZE
            # Before any new class: classes whose games are all over leave for fresh ones.
            replaced = await load.replace_finished(classes, spread_s=args.flip_every)
            count = min(count, room, len(classes) - load._next)
            if replaced and not count:
                await asyncio.sleep(args.settle)
            if count:
                adding = classes[load._next : load._next + count]
                try:
                    await load.add(adding, spread_s=args.flip_every)
                except (RuntimeError, TimeoutError) as error:
                    # Classes the machine cannot connect (in 90 s) end the ramp as a failed
                    # step; the steps before it are still reported.
                    failed = _named(error)
                    steps.append({"students": load.students + CLASS_SIZE * count, "failed": failed})
                    _log(f"  could not connect {count} more classes ({failed})")
                    break
                await asyncio.sleep(args.settle)
            profiling = bool(args.profile_at) and load.students >= args.profile_at
            if profiling:
                # Read by the server when the window opens: profile this one.
                (server.site.workdir / "profile-window").touch()
            instrumented = server.instrumented
            if instrumented:
                for pid in server.pids():
                    os.kill(pid, signal.SIGUSR1)
            window = await load.measure(args.window)
            step = window.summary(load.tables, args.flip_every)
            step["classes_replaced"] = replaced
            # The sockets HAProxy has open to each process (tablets; teachers' pages too).
            step["students_per_process"] = server.sockets_per_process() or [load.students]
            # How many times less often each process drew its teacher pages than one class
            # gets them (classroom/pages/render_budget.py): what the flips' pace cost them.
            step["teacher_page_stretch"] = [
                (await asyncio.to_thread(_diagnostics, port)).get("teacher_page_stretch")
                for port in server.ports
            ]
            if instrumented:
                for pid in server.pids():
                    os.kill(pid, signal.SIGUSR2)
                await asyncio.sleep(2)  # the server writes its figures
                with contextlib.suppress(OSError, ValueError):
                    timings = (server.site.workdir / "timings.json").read_text()
                    step["server_timings"] = json.loads(timings)
            rss = server.rss_bytes()
            step["server_rss_mb"] = [round(value / 2**20, 1) for value in rss]
            step["per_socket_kb"] = round(
                (sum(rss) - sum(baseline)) / 1024 / max(1, load.students), 1
            )
            steps.append(step)
            _log(
                f"  {load.students} students: p50/p99 "
                f"{step['flip_to_last_tablet_ms']['p50']}/{step['flip_to_last_tablet_ms']['p99']}"
                f" ms, flips/s {step['flips_per_s']}/{step['flips_per_s_nominal']}, "
                f"server cpu {step['server_cpu']}, clients {step['clients_cpu_pct']} %"
                f", lost {step['lost_flips']}, silent tablets {step['silent_tablets']}"
                f" (game over {step['tablets_game_over']})"
                f", per process {step['students_per_process']}"
                f", teacher pages {step['teacher_frames_per_s']} frames/s"
                f" (stretch {step['teacher_page_stretch']}), pongs/s {step['pongs_per_s']}"
                f", probes/s {step['probes_per_s']}, classes replaced {replaced}"
            )
            if profiling:
                break  # the profile was the point; the sampler's own cost would skew the rest
            # Over the limit: p99 itself, or with the lost flips counted as infinitely late.
            p99_all = step["p99_counting_lost_ms"]
            p99 = step["flip_to_last_tablet_ms"]["p99"]
            if p99_all is None or max(p99_all, p99) > args.limit_ms:
                if over_once:
                    break
                over_once = True
                continue
            over_once = False
            held = step
        diagnostics = [await asyncio.to_thread(_diagnostics, port) for port in server.ports]
    finally:
        for client in clients:
            await client.close()
    return {
        "held_students": held["students"] if held else 0,
        "held_per_process": round((held["students"] if held else 0) / len(server.ports)),
        "held_on_busiest_process": max(held["students_per_process"]) if held else 0,
        "per_socket_kb_at_held": held["per_socket_kb"] if held else None,
        "server_rss_mb_before": [round(value / 2**20, 1) for value in baseline],
        "at_held": held,
        "steps": steps,
        "diagnostics_at_end": [
            {key: value for key, value in d.items() if key != "task_kinds"} for d in diagnostics
        ],
        "server_log": server.log_faults(),
    }


async def fixed_windows(
    server: Server,
    classes: list[dict[str, Any]],
    args: argparse.Namespace,
    *,
    measuring: Callable[[], object] | None = None,
) -> tuple[Load, list[Window]]:
    """Every class connected (one class at a time), settled, then two windows measured;
    ``measuring()`` is called as the first begins."""
    clients = await _start_clients(args.clients, args.slap, heartbeat=args.heartbeat)
    load = Load(server, clients, teacher_pages=args.teacher_pages)
    try:
        for prepared in classes:
            await load.add([prepared], spread_s=args.flip_every)
        await asyncio.sleep(args.settle)
        if measuring is not None:
            measuring()
        windows = [await load.measure(args.window) for _ in range(2)]
    finally:
        for client in clients:
            await client.close()
    return load, windows


async def _fixed(
    server: Server, classes: list[dict[str, Any]], args: argparse.Namespace
) -> dict[str, Any]:
    """Every class connected at once (one class at a time), then two windows measured."""
    load, windows = await fixed_windows(server, classes, args)
    latencies = [value for window in windows for value in window.latencies]
    result = windows[-1].summary(load.tables, args.flip_every)
    result["flip_to_last_tablet_ms"] = _percentiles(latencies)
    result["lost_flips"] = sum(window.lost for window in windows)
    result["server_log"] = server.log_faults()
    return result


def _embedded(
    workdir: Path, args: argparse.Namespace, *, classes_wanted: int | None = None
) -> tuple[Server, list[dict[str, Any]]]:
    from tests.cluster.processes import embedded_site

    site = embedded_site(workdir)
    site.env |= {"SNAPCLASS_DIAGNOSTICS": "1", "LOG_LEVEL": "WARNING"}
    if classes_wanted is None:
        classes_wanted = args.max_students // CLASS_SIZE
    classes = _prepare(site, classes_wanted, args.flip_every, args.points_target)
    if args.timings or args.profile_at or args.switch_interval or args.gc_young:
        site.env["SNAPCLASS_BENCH_OUT"] = str(workdir)
        if args.switch_interval:
            site.env["SNAPCLASS_SWITCH_INTERVAL_S"] = str(args.switch_interval)
        if args.gc_young:
            site.env["SNAPCLASS_GC_YOUNG_THRESHOLD"] = str(args.gc_young)
        if args.young_census:
            site.env["SNAPCLASS_BENCH_YOUNG_CENSUS"] = "1"
        return Server(site, [_start_instrumented(site)], instrumented=True), classes
    return Server(site, [site.start()]), classes


def _cluster(
    workdir: Path,
    args: argparse.Namespace,
    classes: int,
    layer: str = "core",
    *,
    affinity: bool = True,
) -> tuple[Server, list[dict[str, Any]]]:
    from tests.cluster.processes import cluster_site
    from tests.services import POSTGRES_URL, REDIS_URL

    site = cluster_site(workdir, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    site.env |= {
        "SNAPCLASS_DIAGNOSTICS": "1",
        "LOG_LEVEL": "WARNING",
        "SNAPCLASS_CHANNEL_LAYER": layer,
    }
    prepared = _prepare(site, classes, args.flip_every, args.points_target)
    ports = [site.start(), site.start()]
    return Server(site, ports, proxy_port=site.proxy_start(affinity=affinity)), prepared


def _services_up() -> str | None:
    import socket

    for name, port in (("redis", 6379), ("postgres", 5432)):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                pass
        except OSError:
            return f"{name} is not running on 127.0.0.1:{port}"
    return None


def _ramp_classes(args: argparse.Namespace) -> int:
    """Classes to prepare for a ramp: those it may connect, and spares to replace the ones
    whose games end meanwhile (``Load.replace_finished``)."""
    return math.ceil(args.max_students / CLASS_SIZE * (1 + SPARE_CLASSES))


async def _run_mode(mode: str, args: argparse.Namespace) -> dict[str, Any]:
    from tests.cluster.processes import drop_database
    from tests.services import POSTGRES_URL

    with tempfile.TemporaryDirectory(prefix=f"snapclass-capacity-{mode}-") as tmp:
        workdir = Path(tmp)
        if mode == "embedded":
            server, classes = _embedded(workdir, args, classes_wanted=_ramp_classes(args))
        elif mode in ("cluster", "cluster-spread"):
            classes_wanted = _ramp_classes(args)
            server, classes = _cluster(
                workdir,
                args,
                classes_wanted,
                args.cluster_layer,
                affinity=mode == "cluster",
            )
        else:
            layers: dict[str, Any] = {}
            for students in (int(n) for n in args.layer_students.split(",")):
                for layer in ("core", "pubsub"):
                    sub = workdir / f"{layer}-{students}"
                    sub.mkdir()
                    server, classes = _cluster(
                        sub, args, students // CLASS_SIZE, layer, affinity=False
                    )
                    try:
                        _log(f"layers: {layer}, {students} students on 2 processes")
                        figures = await _fixed(server, classes, args)
                        _log(f"  {layer}: {figures['flip_to_last_tablet_ms']}")
                    except (RuntimeError, TimeoutError) as error:
                        # A load the machine cannot bring up (its tablets not all connected
                        # in 90 s) is a figure too: recorded and failed, and the figures
                        # measured before it are still printed.
                        figures = {"failed": _named(error)}
                        _log(f"  {layer}: could not bring the load up ({figures['failed']})")
                    finally:
                        server.site.stop_all()
                        if server.site.postgres_db:
                            drop_database(POSTGRES_URL, server.site.postgres_db)
                    layers.setdefault(f"{students}_students", {})[layer] = figures
            return layers
        try:
            _log(f"{mode}: ramping classes of {CLASS_SIZE} on {len(server.ports)} process(es)")
            return await _ramp(server, classes, args)
        finally:
            server.site.stop_all()
            if server.site.postgres_db:
                drop_database(POSTGRES_URL, server.site.postgres_db)


async def main(args: argparse.Namespace) -> None:
    result: dict[str, Any] = {
        "class_size": CLASS_SIZE,
        "table_size": TABLE_SIZE,
        "flip_every_s": args.flip_every,
        "slap_probability": args.slap,
        "limit_p99_ms": args.limit_ms,
        "window_s": args.window,
        "client_processes": args.clients,
        "cluster_layer": args.cluster_layer,
        "teacher_pages": args.teacher_pages,
        "heartbeat": args.heartbeat,
        "cpus": os.cpu_count(),
        "load_average_at_start": [round(value, 2) for value in os.getloadavg()],
    }
    for mode in args.modes.split(","):
        if mode in ("cluster", "cluster-spread", "layers") and (missing := _services_up()):
            result[mode] = {"skipped": missing}
            continue
        result[mode] = await _run_mode(mode, args)
    failures = _failures(result)
    result["failures"] = failures
    print(json.dumps(result))
    if failures:
        for failure in failures:
            _log(f"FAILED: {failure}")
        sys.exit(1)


def _named(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def _failures(result: dict[str, Any]) -> list[str]:
    """Every lost flip (which table, which flip, which tablets missed it), silent tablet and
    closed teacher page of every measured step: the bench fails on any of them."""
    failures: list[str] = []

    def walk(where: str, figures: Any) -> None:
        if isinstance(figures, list):
            for item in figures:
                walk(where, item)
        elif isinstance(figures, dict):
            if "lost_flips" in figures:  # one measured step
                failures.extend(_step_failures(where, figures))
                return
            if "failed" in figures:
                failures.append(f"{where}: {figures['failed']}")
                return
            for key, value in figures.items():
                if key != "at_held":  # a step of "steps" again
                    walk(where if key == "steps" else f"{where} {key}", value)

    for mode, figures in result.items():
        walk(mode, figures)
    return failures


def _step_failures(mode: str, step: dict[str, Any]) -> list[str]:
    where = f"{mode}, {step.get('students')} students"
    gone = "last flip {last_flip_seen}, last frame {last_frame} {last_frame_s_ago} s ago"
    failures = []
    if step.get("lost_flips"):
        failures.append(f"{where}: {step['lost_flips']} lost flips")
        for lost in step.get("lost_flip_details", []):
            missing = ", ".join(
                f"tablet {m['tablet']} (connected {m['connected']}, {gone.format(**m)})"
                for m in lost["missing"]
            )
            failures.append(
                f"{where}: table {lost['table']} flip {lost['flip']} reached "
                f"{lost['got_it']} of {lost['of']} tablets; missing: {missing or 'none named'}"
            )
    if step.get("silent_tablets"):
        failures.append(f"{where}: {step['silent_tablets']} connected tablets heard nothing")
    teacher_closes = {
        reason: count
        for reason, count in step.get("closes", {}).items()
        if reason.startswith(("console", "projector"))
    }
    if teacher_closes:
        failures.append(f"{where}: teacher pages closed: {teacher_closes}")
    return failures


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="embedded,cluster,cluster-spread,layers")
    parser.add_argument("--limit-ms", type=float, default=100.0)
    parser.add_argument("--max-students", type=int, default=3000)
    parser.add_argument(
        "--layer-students",
        default="90,300",
        help="the fixed loads (comma-separated) at which the two Redis layers are compared",
    )
    parser.add_argument(
        "--cluster-layer",
        choices=("core", "pubsub"),
        default="core",
        help="the channel layer of the cluster ramp (SNAPCLASS_CHANNEL_LAYER)",
    )
    parser.add_argument("--window", type=float, default=20.0, help="seconds measured per step")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after connecting")
    parser.add_argument("--flip-every", type=float, default=2.5)
    parser.add_argument("--slap", type=float, default=0.3, help="chance a student slaps a flip")
    parser.add_argument(
        "--points-target",
        type=int,
        default=100,
        help="the games' points target (a small one ends games within minutes: a quick look "
        "at the ramp's replacing of finished classes)",
    )
    parser.add_argument("--clients", type=int, default=2, help="client processes")
    parser.add_argument(
        "--profile-at",
        type=int,
        default=0,
        help="embedded only: sample the server's event loop over the first window with at "
        "least this many students, list the top functions, and stop there",
    )
    parser.add_argument(
        "--timings",
        action="store_true",
        help="embedded only: report, per step, the server's GC pauses, log-writer commit "
        "times and event-loop lag",
    )
    parser.add_argument(
        "--young-census",
        action="store_true",
        help="with --timings: count the kinds of objects in the young generation at each "
        "window's first collection (the count stops the server as long as the collection "
        "does, so a ramp with it holds fewer students)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=0.0,
        help=(
            "embedded only: run the server with this sys.setswitchinterval instead of the"
            " 1 ms of classroom.server.gil_switching"
        ),
    )
    parser.add_argument(
        "--gc-young",
        type=int,
        default=0,
        help=(
            "embedded only: run the server with this young-generation GC threshold instead"
            " of classroom.server.gc_tuning's"
        ),
    )
    parser.add_argument(
        "--no-teacher-pages",
        dest="teacher_pages",
        action="store_false",
        help="connect no console or projector (how the ramp ran before they were added)",
    )
    parser.add_argument(
        "--no-heartbeat",
        dest="heartbeat",
        action="store_false",
        help="sockets send no ping and ignore probes (how the ramp ran before they did)",
    )
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.young_census and not args.timings:
        parser.error("--young-census counts within what --timings measures: give both")
    return args


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        _serve(sys.argv[2:])
        sys.exit(0)
    arguments = _arguments()
    # Run as a script: make the project (and its tests package) importable.
    sys.path.insert(0, str(ROOT))
    if arguments.client:
        # On uvloop like the server: in a school every tablet has a CPU of its own, here the
        # simulated ones share the server's cores, and what they spend the server waits for.
        import uvloop

        uvloop.run(_client_main(arguments.slap, heartbeat=arguments.heartbeat))
    else:
        asyncio.run(main(arguments))
