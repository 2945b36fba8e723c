"""Every WebSocket endpoint, tried as anonymous, as a student, as another teacher and as owner.

The walker reads ``classroom.routing.websocket_urlpatterns`` itself, so a new socket route is
checked as soon as it exists (and fails loudly until the matrix below knows it). Teacher
sockets let only the session's teacher in; seat sockets only the seat's own tablet.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from classroom.asgi import application
from classroom.live import hosting
from classroom.models import ActionLogEntry, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.routing import websocket_urlpatterns
from classroom.services.seats import seat_join_guest, seat_kick
from classroom.services.sessions import session_create, session_start

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from django.contrib.auth.models import User

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
IDENTITIES = ("anonymous", "student", "kicked_student", "other_student", "other_teacher", "owner")
# Route → who gets in. Everyone else is refused with a close code and changes nothing.
ALLOWED = {
    "ws/sessions/<int:session_id>/console/": {"owner"},
    "ws/sessions/<int:session_id>/projector/": {"owner"},
    "ws/sessions/<int:session_id>/tables/<int:table_id>/watch/": {"owner"},
    "ws/play/<str:code>/": {"student"},
    "ws/play/<str:code>/table/": {"student"},
}
ROUTES = [str(pattern.pattern) for pattern in websocket_urlpatterns]


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@dataclass
class World:
    session: GameSession
    seat: Seat
    kicked: Seat
    other_seat: Seat  # a student of another session
    cookies: dict[str, dict[str, str]]


def _login_cookies(user: User) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


@pytest.fixture
async def world(teacher: User, other_teacher: User) -> AsyncIterator[World]:
    def prepare() -> World:
        session = session_create(
            teacher=teacher,
            game="palm_strike",
            school_class=None,
            players_per_table=2,
            settings={"flip_pacing": "tap"},
        )
        seat = seat_join_guest(session=session, nickname="Ava")
        seat_join_guest(session=session, nickname="Ben")
        kicked = seat_join_guest(session=session, nickname="Cy")
        seat_kick(seat=Seat.objects.get(pk=kicked.pk))
        session_start(session=session)
        other = session_create(
            teacher=other_teacher, game="palm_strike", school_class=None,
            players_per_table=2, settings={},
        )  # fmt: skip
        other_seat = seat_join_guest(session=other, nickname="Mal")
        code = seat_cookie_name(session.code)
        cookies = {
            "anonymous": {},
            "student": {code: seat.token},
            "kicked_student": {code: kicked.token},
            # Their own token, presented to this session (a copied cookie, a guessed link).
            "other_student": {code: other_seat.token},
            "other_teacher": _login_cookies(other_teacher),
            "owner": _login_cookies(teacher),
        }
        return World(
            session=session,
            seat=Seat.objects.select_related("table").get(pk=seat.pk),
            kicked=kicked,
            other_seat=other_seat,
            cookies=cookies,
        )

    yield await sync_to_async(prepare)()
    await hosting.registry.stop_all()


def _path(route: str, world: World) -> str:
    assert world.seat.table_id is not None
    return "/" + route.replace("<int:session_id>", str(world.session.pk)).replace(
        "<int:table_id>", str(world.seat.table_id)
    ).replace("<str:code>", world.session.code)


def _socket(path: str, cookies: dict[str, str]) -> WebsocketCommunicator:
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    if cookies:
        headers.append((b"cookie", "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _outcome(socket: WebsocketCommunicator) -> tuple[str, int | None]:
    """("closed", code) if the server closes soon after connecting (having said why, maybe);
    ("open", None) if it sends frames and keeps the socket open."""
    connected, code = await socket.connect(timeout=TIMEOUT)
    if not connected:
        return "rejected", code
    for _ in range(6):
        output = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return "closed", output.get("code")
        if await socket.receive_nothing(timeout=0.5):
            return "open", None
    raise AssertionError("a stream of frames and no close")


async def _tablet_running(world: World) -> WebsocketCommunicator:
    # A host runs once a tablet sits at the table; the watch socket needs one to watch.
    tablet = _socket(_path("ws/play/<str:code>/table/", world), world.cookies["student"])
    assert (await tablet.connect(timeout=TIMEOUT))[0]
    await tablet.receive_from(timeout=TIMEOUT)
    return tablet


def test_the_matrix_knows_every_socket_route() -> None:
    unknown = sorted(set(ROUTES) - set(ALLOWED))
    assert not unknown, f"Add these socket routes to the authorization matrix: {unknown}"


@pytest.mark.parametrize("identity", IDENTITIES)
@pytest.mark.parametrize("route", ROUTES)
async def test_only_the_rightful_user_gets_through(world: World, route: str, identity: str) -> None:
    tablet = await _tablet_running(world) if "watch" in route else None
    socket = _socket(_path(route, world), world.cookies[identity])
    state, code = await _outcome(socket)
    if identity in ALLOWED[route]:
        assert state == "open", (route, identity, code)
        await socket.disconnect()
    else:
        assert state == "closed", (route, identity)
        assert code in {4401, 4403}, (route, identity, code)
    if tablet is not None:
        await tablet.disconnect()


@pytest.mark.parametrize("identity", [i for i in IDENTITIES if i != "student"])
async def test_a_refused_socket_cannot_act_at_the_table(world: World, identity: str) -> None:
    tablet = await _tablet_running(world)
    socket = _socket(_path("ws/play/<str:code>/table/", world), world.cookies[identity])
    await socket.connect(timeout=TIMEOUT)
    flip = {"type": "act", "seq": 1, "action": {"kind": "flip"}}
    await socket.send_to(text_data=json.dumps(flip))
    await socket.receive_nothing(timeout=0.3)
    assert not await sync_to_async(ActionLogEntry.objects.filter(kind="act").exists)()
    await tablet.disconnect()
