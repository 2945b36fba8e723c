"""A game page is told what it may show of points and ranks: when it connects (before its
first view) and whenever the teacher changes the leaderboard or scoring control."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_controls_update, session_start

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from classroom.models import GameSession, Seat

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3


def _socket(code: str, token: str, *, ask: bool) -> WebsocketCommunicator:
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", f"{seat_cookie_name(code)}={token}".encode()),
    ]
    path = f"/ws/play/{code}/table/" + ("?standings=1" if ask else "")
    return WebsocketCommunicator(application, path, headers=headers)


async def _next(socket: WebsocketCommunicator) -> dict[str, Any]:
    return dict(json.loads(await socket.receive_from(timeout=TIMEOUT)))


@pytest.fixture
async def playing(
    make_session: Callable[..., GameSession],
) -> AsyncIterator[tuple[GameSession, Seat]]:
    def prepare() -> tuple[GameSession, Seat]:
        session = make_session(players_per_table=2, settings={"flip_pacing": "tap"})
        session.leaderboard = "end"
        session.save()
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, seats[0]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def test_a_page_that_asks_hears_the_settings_first_and_every_change(
    playing: tuple[GameSession, Seat],
) -> None:
    session, ava = playing
    socket = _socket(session.code, ava.token, ask=True)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert await _next(socket) == {
        "type": "standings",
        "leaderboard": "end",
        "scoring": True,
        "sound": False,
    }
    assert (await _next(socket))["type"] == "state"

    await sync_to_async(session_controls_update)(session=session, scoring=False)
    frame = await _next(socket)
    while frame["type"] != "standings":  # a view may overtake it
        frame = await _next(socket)
    assert frame == {"type": "standings", "leaderboard": "end", "scoring": False, "sound": False}
    await socket.disconnect()


async def test_a_socket_that_does_not_ask_gets_game_frames_only(
    playing: tuple[GameSession, Seat],
) -> None:
    session, ava = playing
    socket = _socket(session.code, ava.token, ask=False)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert (await _next(socket))["type"] == "state"
    await sync_to_async(session_controls_update)(session=session, leaderboard="never")
    frames = []
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await _next(socket))
    assert all(frame["type"] != "standings" for frame in frames), frames
    await socket.disconnect()
