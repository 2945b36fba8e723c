"""Redis or PostgreSQL down, through the real ASGI stack (issue 16, findings 6 and 7).

- The database refuses log writes for a while: the child's input is kept and retried by its
  host, the tablet hears "pending" then the ack, and the input is in the log once.
- A service is down while tablets (re)connect: each socket is closed with "try again" (4013,
  which the tablet treats as reconnect) and the log says so in one line, not a traceback per
  socket.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.models import ActionLogEntry, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.server import outages
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start
from classroom.sockets import pages as page_sockets
from classroom.sockets import table as table_sockets
from classroom.sockets.close_codes import CloseCode
from games.live import host as host_module

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 5


def _socket(code: str, token: str) -> WebsocketCommunicator:
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", f"{seat_cookie_name(code)}={token}".encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/play/{code}/table/", headers=headers)


async def _frames_until(socket: WebsocketCommunicator, kind: str) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    for _ in range(30):
        frames.append(json.loads(await socket.receive_from(timeout=TIMEOUT)))
        if frames[-1]["type"] == kind:
            return frames
    raise AssertionError(f"no {kind} frame in {frames}")


@pytest.fixture
async def playing(
    make_session: Callable[..., GameSession],
) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(players_per_table=2, settings={"flip_pacing": "tap"})
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, [Seat.objects.get(pk=seat.pk) for seat in seats]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


@pytest.fixture(autouse=True)
def fresh_outage_log() -> None:
    outages._last_logged.clear()
    outages._unsaid.clear()


async def test_an_input_stored_after_a_database_outage_is_pending_then_acknowledged(
    playing: tuple[GameSession, list[Seat]], monkeypatch: pytest.MonkeyPatch
) -> None:
    session, seats = playing
    sockets = [_socket(session.code, seat.token) for seat in seats]
    views = []
    for socket in sockets:
        assert (await socket.connect(timeout=TIMEOUT))[0]
        views.append((await _frames_until(socket, "state"))[-1]["view"])
    flipper = sockets[views[0]["active_seat"]]

    real_append = table_hosts.action_log_append_many
    refused: list[int] = []

    def database_down_for_a_while(**kwargs: Any) -> None:
        if len(refused) < 3:
            refused.append(1)
            raise OperationalError("server closed the connection unexpectedly")
        real_append(**kwargs)

    monkeypatch.setattr(table_hosts, "action_log_append_many", database_down_for_a_while)
    monkeypatch.setattr(host_module, "STORE_RETRY_DELAYS_S", (0.01,))
    await flipper.send_to(
        text_data=json.dumps({"type": "act", "seq": 1, "action": {"kind": "flip"}, "cid": "p:1"})
    )
    frames = await _frames_until(flipper, "ack")
    answers = [frame for frame in frames if frame["type"] in {"pending", "ack", "error"}]
    assert [frame["type"] for frame in answers] == ["pending", "ack"]
    assert answers[0] == {"type": "pending", "seq": 1, "reason": "saving"}
    assert len(refused) == 3
    stored = await sync_to_async(list)(
        ActionLogEntry.objects.filter(kind="act").values_list("client_id", flat=True)
    )
    assert stored == ["p:1"]
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.parametrize(
    ("patch", "error"),
    [
        ("table_handle", RedisConnectionError("Error 111 connecting to 127.0.0.1:6379")),
        ("seat_playing_find", OperationalError("connection to server failed")),
    ],
    ids=["redis-down", "postgresql-down"],
)
async def test_a_tablet_connecting_during_an_outage_is_asked_to_try_again_calmly(
    playing: tuple[GameSession, list[Seat]],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    patch: str,
    error: Exception,
) -> None:
    session, seats = playing

    def down(*_args: Any, **_kwargs: Any) -> Any:
        raise error

    async def down_async(*_args: Any) -> Any:
        raise error

    if patch == "table_handle":
        monkeypatch.setattr(table_hosts, "table_handle", down_async)
    else:
        monkeypatch.setattr(table_sockets, "seat_playing_find", down)
    caplog.set_level(logging.WARNING)
    for _attempt in range(3):  # a tablet reconnecting again and again during the outage
        socket = _socket(session.code, seats[0].token)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        closed = await socket.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": CloseCode.TRY_AGAIN}
        await socket.disconnect()
    warnings = [record for record in caplog.records if "could not connect" in record.message]
    assert len(warnings) == 1  # one line for the outage, not one per reconnect
    assert warnings[0].exc_info is None
    assert not [record for record in caplog.records if record.exc_info]


async def test_a_lobby_page_connecting_during_an_outage_is_refused_so_htmx_retries(
    playing: tuple[GameSession, list[Seat]],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    # htmx reconnects on 1006 (a refused handshake) but never on an application's 4xxx code.
    session, seats = playing

    def down(*_args: Any) -> Any:
        raise OperationalError("connection to server failed")

    monkeypatch.setattr(page_sockets.SeatConsumer, "_open", down)
    caplog.set_level(logging.WARNING)
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", f"{seat_cookie_name(session.code)}={seats[0].token}".encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/play/{session.code}/", headers=headers)
    connected, _code = await socket.connect(timeout=TIMEOUT)
    assert not connected
    await socket.disconnect()
    assert [r.message for r in caplog.records if "could not connect" in r.message]
    assert not [record for record in caplog.records if record.exc_info]
