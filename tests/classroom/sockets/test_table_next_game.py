"""Play again on the console: every tablet at a table is told to load its new game."""

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
from classroom.services.sessions import session_play_again, session_start
from classroom.sockets.close_codes import CloseCode

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from classroom.models import GameSession, Seat

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3


def _socket(code: str, token: str, game: int | None = None) -> WebsocketCommunicator:
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", f"{seat_cookie_name(code)}={token}".encode()),
    ]
    ask = "" if game is None else f"?game={game}"
    return WebsocketCommunicator(application, f"/ws/play/{code}/table/{ask}", headers=headers)


async def _state(socket: WebsocketCommunicator) -> dict[str, Any]:
    for _ in range(20):
        frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
        if frame["type"] == "state":
            return dict(frame)
    raise AssertionError("no state frame")


@pytest.fixture
async def playing(
    make_session: Callable[..., GameSession],
) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(players_per_table=2, settings={"flip_pacing": "tap"})
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, seats

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def test_play_again_closes_every_tablet_with_next_game_and_they_find_the_new_table(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = playing
    sockets = [_socket(session.code, seat.token, game=1) for seat in seats]
    for socket in sockets:
        assert (await socket.connect(timeout=TIMEOUT))[0]
        await _state(socket)
    await sync_to_async(session_play_again)(session=session)
    for socket in sockets:
        output = await socket.receive_output(timeout=TIMEOUT)
        while output["type"] != "websocket.close":
            output = await socket.receive_output(timeout=TIMEOUT)
        assert output["code"] == CloseCode.NEXT_GAME
    # The reloaded page (game 2) plays at the new table from its first view.
    again = _socket(session.code, seats[0].token, game=2)
    assert (await again.connect(timeout=TIMEOUT))[0]
    view = (await _state(again))["view"]
    assert view["flip"] in (0, None)
    await again.disconnect()


async def test_a_page_of_the_game_before_is_sent_to_the_new_one_when_it_reconnects(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = playing
    await sync_to_async(session_play_again)(session=session)
    stale = _socket(session.code, seats[1].token, game=1)
    assert (await stale.connect(timeout=TIMEOUT))[0]
    output = await stale.receive_output(timeout=TIMEOUT)
    assert output == {"type": "websocket.close", "code": CloseCode.NEXT_GAME}
