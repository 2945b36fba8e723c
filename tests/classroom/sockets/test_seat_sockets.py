"""One seat, one live game socket: a newer socket replaces the older, which is told why."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.models import Seat, SeatConnection
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
REPLACED = 4409


def _socket(code: str, token: str, *, language: str = "en") -> WebsocketCommunicator:
    cookie = f"{seat_cookie_name(code)}={token}; django_language={language}"
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", cookie.encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/play/{code}/table/", headers=headers)


async def _frame(socket: WebsocketCommunicator, kind: str, tries: int = 20) -> dict[str, Any]:
    for _ in range(tries):
        frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
        if frame["type"] == kind:
            return dict(frame)
    raise AssertionError(f"no {kind} frame")


async def _seated(session: GameSession, seat: Seat, **kwargs: Any) -> WebsocketCommunicator:
    socket = _socket(session.code, seat.token, **kwargs)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _frame(socket, "state")
    return socket


async def _replaced(socket: WebsocketCommunicator) -> dict[str, Any]:
    """The frame and close that a replaced socket gets; returns the frame."""
    error = await _frame(socket, "error")
    assert error["code"] == "replaced"
    assert (await socket.receive_output(timeout=TIMEOUT)) == {
        "type": "websocket.close",
        "code": REPLACED,
    }
    return error


async def _still_open(socket: WebsocketCommunicator) -> None:
    await socket.send_to(text_data=json.dumps({"type": "sync", "seq": 99}))
    assert (await _frame(socket, "state"))["view"]["game"] == "palm_strike"


@pytest.fixture
async def playing(
    make_session: Callable[..., GameSession],
) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(players_per_table=2, settings={"flip_pacing": "tap"})
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, [Seat.objects.get(pk=s.pk) for s in seats]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def test_a_second_socket_on_a_seat_replaces_the_first(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, ben) = playing
    first = await _seated(session, ava)
    bens = await _seated(session, ben)
    second = await _seated(session, ava)
    error = await _replaced(first)
    assert error["message"] == "This seat was opened on another tablet."
    await _still_open(second)
    await _still_open(bens)  # another seat is not touched
    await first.disconnect()  # the tablet answers the close
    connections = SeatConnection.objects.filter(seat_id=ava.pk)
    assert await sync_to_async(connections.count)() == 1
    await second.disconnect()
    await bens.disconnect()


async def test_the_replaced_tablet_is_told_in_its_language(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    first = await _seated(session, ava, language="zh-hant")
    second = await _seated(session, ava)
    assert (await _replaced(first))["message"] == "這個位置已經在另一台平板上打開了。"
    await second.disconnect()


async def test_many_sockets_on_one_seat_leave_only_the_newest(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    sockets = [await _seated(session, ava)]
    for _ in range(12):
        newest = await _seated(session, ava)
        await _replaced(sockets[-1])
        sockets.append(newest)
    await _still_open(sockets[-1])
    for socket in sockets[:-1]:
        await socket.disconnect()
    connections = SeatConnection.objects.filter(seat_id=ava.pk)
    assert await sync_to_async(connections.count)() == 1
    await sockets[-1].disconnect()


async def test_sockets_opening_at_once_leave_exactly_one(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    sockets = [_socket(session.code, ava.token) for _ in range(6)]
    await asyncio.gather(*(socket.connect(timeout=TIMEOUT) for socket in sockets))

    async def outcome(socket: WebsocketCommunicator) -> str:
        # Each socket gets its view; a replaced one then gets the "replaced" frame and closes.
        while True:
            if await socket.receive_nothing(timeout=1):
                return "open"
            output = await socket.receive_output(timeout=TIMEOUT)
            if output["type"] == "websocket.close":
                return f"closed {output['code']}"

    outcomes = await asyncio.gather(*(outcome(socket) for socket in sockets))
    assert sorted(outcomes) == ["closed 4409"] * 5 + ["open"]
    survivor = sockets[outcomes.index("open")]
    await _still_open(survivor)
    await survivor.disconnect()
