"""The teacher's watch socket: a live table's public view and motion on the console/projector."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.models import ActionLogEntry, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from django.contrib.auth.models import User

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
HEADERS = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def _cookie_header(cookies: dict[str, str]) -> tuple[bytes, bytes]:
    return (b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode())


def _login_cookies(user: User) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def _watch_socket(
    session: GameSession, table_id: int, cookies: dict[str, str] | None = None
) -> WebsocketCommunicator:
    headers = [*HEADERS, _cookie_header(cookies)] if cookies else list(HEADERS)
    path = f"/ws/sessions/{session.pk}/tables/{table_id}/watch/"
    return WebsocketCommunicator(application, path, headers=headers)


def _tablet_socket(session: GameSession, seat: Seat) -> WebsocketCommunicator:
    headers = [*HEADERS, _cookie_header({seat_cookie_name(session.code): seat.token})]
    return WebsocketCommunicator(application, f"/ws/play/{session.code}/table/", headers=headers)


async def _frame(socket: WebsocketCommunicator, kind: str, tries: int = 20) -> dict[str, Any]:
    for _ in range(tries):
        frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
        if frame["type"] == kind:
            return dict(frame)
    raise AssertionError(f"no {kind} frame")


async def _closed_with(socket: WebsocketCommunicator) -> tuple[dict[str, Any], int]:
    error = json.loads(await socket.receive_from(timeout=TIMEOUT))
    close = await socket.receive_output(timeout=TIMEOUT)
    assert close["type"] == "websocket.close"
    return error, close["code"]


@pytest.fixture
async def riff_raff_table(teacher: User) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = session_create(
            teacher=teacher, game="riff_raff", school_class=None, players_per_table=2, settings={}
        )
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, [Seat.objects.select_related("table").get(pk=s.pk) for s in seats]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def _tablet_playing(session: GameSession, seat: Seat) -> WebsocketCommunicator:
    tablet = _tablet_socket(session, seat)
    assert (await tablet.connect(timeout=TIMEOUT))[0]
    await _frame(tablet, "state")
    return tablet


async def _watching(
    session: GameSession, seat: Seat, teacher: User
) -> tuple[WebsocketCommunicator, WebsocketCommunicator]:
    """A tablet playing at the seat's table, and the teacher's watch socket past its first view."""
    assert seat.table_id is not None
    tablet = await _tablet_playing(session, seat)
    cookies = await sync_to_async(_login_cookies)(teacher)
    watch = _watch_socket(session, seat.table_id, cookies)
    await watch.connect(timeout=TIMEOUT)
    await _frame(watch, "state")
    return tablet, watch


async def test_the_teacher_watches_the_public_view_of_a_playing_table(
    riff_raff_table: tuple[GameSession, list[Seat]], teacher: User
) -> None:
    session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    tablet = await _tablet_playing(session, ava)
    cookies = await sync_to_async(_login_cookies)(teacher)
    watch = _watch_socket(session, ava.table_id, cookies)
    assert (await watch.connect(timeout=TIMEOUT))[0]
    view = (await _frame(watch, "state"))["view"]
    assert view["game"] == "riff_raff"
    assert view["you"] is None
    assert view["cards_left"] is None  # no seat's hand reaches the projector
    assert "frame" in view  # the ship is drawn from the first view on
    await watch.disconnect()
    await tablet.disconnect()


async def test_a_watching_page_cannot_play(
    riff_raff_table: tuple[GameSession, list[Seat]], teacher: User
) -> None:
    session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    tablet, watch = await _watching(session, ava, teacher)
    action = {"kind": "choose_card", "card": 1}
    await watch.send_to(text_data=json.dumps({"type": "act", "seq": 1, "action": action}))
    error = await _frame(watch, "error")
    assert error["code"] == "not_a_player"
    assert not await sync_to_async(ActionLogEntry.objects.filter(kind="act").exists)()
    await watch.disconnect()
    await tablet.disconnect()


@pytest.mark.parametrize("who", ["anonymous", "other_teacher"])
async def test_only_the_session_teacher_may_watch(
    riff_raff_table: tuple[GameSession, list[Seat]], other_teacher: User, who: str
) -> None:
    session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    tablet = await _tablet_playing(session, ava)
    cookies = None if who == "anonymous" else await sync_to_async(_login_cookies)(other_teacher)
    watch = _watch_socket(session, ava.table_id, cookies)
    assert (await watch.connect(timeout=TIMEOUT))[0]
    error, code = await _closed_with(watch)
    assert (error["code"], code) == ("forbidden", 4403)
    await tablet.disconnect()


async def test_a_table_of_another_session_is_refused(
    riff_raff_table: tuple[GameSession, list[Seat]], teacher: User
) -> None:
    _session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    other = await sync_to_async(session_create)(
        teacher=teacher, game="riff_raff", school_class=None, players_per_table=2, settings={}
    )
    cookies = await sync_to_async(_login_cookies)(teacher)
    watch = _watch_socket(other, ava.table_id, cookies)
    await watch.connect(timeout=TIMEOUT)
    _error, code = await _closed_with(watch)
    assert code == 4403


async def test_watching_a_table_no_tablet_runs_neither_starts_it_nor_stops_trying(
    riff_raff_table: tuple[GameSession, list[Seat]], teacher: User
) -> None:
    session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    cookies = await sync_to_async(_login_cookies)(teacher)
    watch = _watch_socket(session, ava.table_id, cookies)
    await watch.connect(timeout=TIMEOUT)
    error, code = await _closed_with(watch)
    assert (error["code"], code) == ("not_playing", 4404)
    assert table_hosts.registry.running(ava.table_id) is None


async def test_the_watching_page_is_told_to_reconnect_when_the_host_stops(
    riff_raff_table: tuple[GameSession, list[Seat]], teacher: User
) -> None:
    session, (ava, _ben) = riff_raff_table
    assert ava.table_id is not None
    tablet, watch = await _watching(session, ava, teacher)
    await table_hosts.registry.stop_all()
    for _ in range(5):
        output = await watch.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            assert output["code"] == 4012
            break
    else:
        raise AssertionError("the watching page was not closed")
    await tablet.disconnect()
