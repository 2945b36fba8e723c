"""Helpers for the fault tests that run a real Daphne: sessions, logins and tablet clients.

Sessions are prepared inside the site (``Site.python``), with a teacher of their own so that
several tests can share one site. Tablets are plain ``websockets`` clients that keep every
frame they receive, stamped with the machine's monotonic clock (the one the server stamps
``at_ms`` with), so tests can ask about them afterwards.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.cluster.processes import Site

TIMEOUT = 5.0

_PREPARE = """
from django.contrib.auth.models import User
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
teacher = User.objects.create_user(username={teacher!r}, password="faults-password-123")
session = session_create(teacher=teacher, game="palm_strike", school_class=None,
    players_per_table={table_size}, settings={settings!r})
seats = [seat_join_guest(session=session, nickname=f"S{{n}}") for n in range({players})]
session_start(session=session)
for seat in seats:
    seat.refresh_from_db()
print(json.dumps({{"code": session.code, "session": session.pk, "teacher": teacher.username,
    "seats": [{{"token": seat.token, "table": seat.table_id}} for seat in seats]}}))
"""

_LOGIN = """
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
client = Client()
client.force_login(User.objects.get(username={teacher!r}))
name = settings.SESSION_COOKIE_NAME
print(json.dumps({{"name": name, "value": client.cookies[name].value}}))
"""


def palm_strike(
    site: Site, *, players: int, table_size: int, settings: dict[str, Any]
) -> dict[str, Any]:
    """A started Palm Strike session: {"code", "session", "teacher", "seats": [{token, table}]}."""
    teacher = f"faults-{uuid.uuid4().hex[:8]}"
    result: dict[str, Any] = site.python(
        _PREPARE.format(teacher=teacher, players=players, table_size=table_size, settings=settings)
    )
    return result


def login_cookie(site: Site, teacher: str) -> str:
    """A ``Cookie`` header value for a logged-in teacher (a session stored in the site's DB)."""
    cookie = site.python(_LOGIN.format(teacher=teacher))
    return f"{cookie['name']}={cookie['value']}"


def action_log(site: Site, table: int) -> list[tuple[int, str, str]]:
    """The table's action log as (seq, kind, client_id), read straight from the SQLite file."""
    path = site.env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(path, timeout=10) as connection:
        rows = connection.execute(
            "SELECT seq, kind, client_id FROM classroom_actionlogentry WHERE table_id = ? "
            "ORDER BY seq",
            (table,),
        ).fetchall()
    return [(int(seq), str(kind), str(cid)) for seq, kind, cid in rows]


def kill_all(site: Site) -> None:
    """End the site's processes at once (kill -9).

    The test is over and nothing needs a goodbye; a graceful stop can hang for its full
    10 s timeout once a table has run (a presence push during shutdown waits on the stopped
    event loop).
    """
    for port in list(site.processes):
        site.kill(port)


def now_ms() -> float:
    return time.monotonic_ns() / 1_000_000


@dataclass
class Received:
    at_ms: float  # when it arrived here (monotonic, the server's clock too)
    frame: dict[str, Any]


@dataclass
class Tablet:
    """One WebSocket client that records everything it hears."""

    url: str
    cookie: str
    origin: str
    received: list[Received] = field(default_factory=list)
    close_code: int | None = None
    _ws: ClientConnection | None = None
    _reader: asyncio.Task[None] | None = None
    _arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def open(self) -> Tablet:
        self._ws = await connect(
            self.url,
            additional_headers={"Cookie": self.cookie},
            origin=Origin(self.origin),
            open_timeout=TIMEOUT,
        )
        self.close_code = None
        self._reader = asyncio.ensure_future(self._read(self._ws))
        return self

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode()
                frame = json.loads(text) if text.startswith("{") else {"type": "html", "html": text}
                self.received.append(Received(now_ms(), frame))
                self._arrived.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = ws.close_code
            self._arrived.set()

    @property
    def open_now(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def send(self, frame: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send(json.dumps(frame))

    async def wait_for(
        self,
        test: Callable[[dict[str, Any]], bool],
        *,
        after: int = 0,
        timeout: float = TIMEOUT,
    ) -> dict[str, Any]:
        """The first frame from index ``after`` on that passes ``test`` (waiting for it)."""
        deadline = time.monotonic() + timeout
        index = after
        while True:
            while index < len(self.received):
                frame = self.received[index].frame
                index += 1
                if test(frame):
                    return frame
            if not self.open_now:
                raise AssertionError(f"closed ({self.close_code}) before the frame came")
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the frame never came")
            self._arrived.clear()
            try:
                await asyncio.wait_for(self._arrived.wait(), timeout=left)
            except TimeoutError:
                continue

    async def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        assert self._reader is not None
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.close_code

    def states(self) -> list[dict[str, Any]]:
        return [r.frame for r in self.received if r.frame.get("type") == "state"]

    @property
    def version(self) -> int:
        """The newest table version this tablet has seen."""
        return max((frame["version"] for frame in self.states()), default=-1)

    async def try_send(self, frame: dict[str, Any]) -> bool:
        """Send if the connection still takes it; False once it is gone."""
        try:
            await self.send(frame)
        except (ConnectionClosed, OSError):
            return False
        return True

    def pause_reading(self) -> None:
        """Stop reading from the socket (frames, the server's close included, wait unread)."""
        assert self._ws is not None
        self._ws.transport.pause_reading()

    def resume_reading(self) -> None:
        assert self._ws is not None
        self._ws.transport.resume_reading()

    def raw_socket(self) -> Any:
        assert self._ws is not None
        return self._ws.transport.get_extra_info("socket")

    def drop(self) -> None:
        """Pull the plug: the TCP connection goes, no close frame, nothing flushed."""
        assert self._ws is not None
        self._ws.transport.abort()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


def table_tablet(port: int, code: str, token: str) -> Tablet:
    return Tablet(
        url=f"ws://127.0.0.1:{port}/ws/play/{code}/table/",
        cookie=f"seat_{code}={token}",
        origin=f"http://127.0.0.1:{port}",
    )
