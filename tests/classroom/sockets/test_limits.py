"""A cap on the WebSockets one client address holds open (classroom.sockets.limits)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from classroom.asgi import application
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from classroom.models import GameSession, Seat

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
CAP = 3


@pytest.fixture(autouse=True)
def _small_cap(settings: Any) -> None:
    settings.SOCKETS_PER_ADDRESS = CAP


def _lobby_socket(
    seat: Seat, code: str, address: str, language: str = "en"
) -> WebsocketCommunicator:
    cookie = f"{seat_cookie_name(code)}={seat.token}; django_language={language}"
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", cookie.encode()),
    ]
    socket = WebsocketCommunicator(application, f"/ws/play/{code}/", headers=headers)
    socket.scope["client"] = (address, 50000)
    return socket


async def _open(socket: WebsocketCommunicator) -> None:
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "lobby-live" in await socket.receive_from(timeout=TIMEOUT)  # the lobby's fragment


async def _refused(socket: WebsocketCommunicator) -> dict[str, Any]:
    assert (await socket.connect(timeout=TIMEOUT))[0]
    frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
    assert frame["code"] == "too_many_sockets"
    assert await socket.receive_output(timeout=TIMEOUT) == {"type": "websocket.close", "code": 4429}
    return dict(frame)


async def test_an_address_over_the_cap_is_refused_with_a_clear_frame_and_code(
    guest_session: GameSession,
) -> None:
    seats = await sync_to_async(
        lambda: [seat_join_guest(session=guest_session, nickname=f"Kid {n}") for n in range(5)]
    )()
    code = guest_session.code
    held = [_lobby_socket(seat, code, "10.0.0.5") for seat in seats[:CAP]]
    for socket in held:
        await _open(socket)

    frame = await _refused(_lobby_socket(seats[CAP], code, "10.0.0.5"))
    assert frame["message"] == "Too many connections from this network. Trying again soon."
    # Another address is not affected.
    elsewhere = _lobby_socket(seats[CAP], code, "10.0.0.6")
    await _open(elsewhere)

    # A place comes free when a socket goes.
    await held[0].disconnect()
    again = _lobby_socket(seats[CAP + 1], code, "10.0.0.5")
    await _open(again)
    await _refused(_lobby_socket(seats[CAP + 1], code, "10.0.0.5"))
    for socket in [*held[1:], elsewhere, again]:
        await socket.disconnect()


async def test_the_refusal_is_in_the_tablets_language(guest_session: GameSession) -> None:
    seat = await sync_to_async(seat_join_guest)(session=guest_session, nickname="Mia")
    held = [_lobby_socket(seat, guest_session.code, "10.0.0.9") for _ in range(CAP)]
    for socket in held:
        await _open(socket)
    frame = await _refused(_lobby_socket(seat, guest_session.code, "10.0.0.9", language="zh-hant"))
    assert frame["message"] == "這個網路的連線太多了，等一下會再試一次。"
    for socket in held:
        await socket.disconnect()


async def test_sockets_the_server_turned_away_free_their_place(guest_session: GameSession) -> None:
    # A socket without a seat is accepted, told why and closed: it must not keep a place.
    for _ in range(CAP * 3):
        socket = WebsocketCommunicator(
            application,
            f"/ws/play/{guest_session.code}/table/",
            headers=[(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")],
        )
        socket.scope["client"] = ("10.0.0.7", 50000)
        assert (await socket.connect(timeout=TIMEOUT))[0]
        assert json.loads(await socket.receive_from(timeout=TIMEOUT))["code"] == "no_seat"
        assert (await socket.receive_output(timeout=TIMEOUT))["code"] == 4401
        await socket.disconnect()
