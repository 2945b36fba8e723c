"""Every WebSocket endpoint, tried as anonymous, as a student, as another teacher, as the
colleagues the class is shared with (and one whose share was revoked) and as owner.

The walker reads ``classroom.routing.websocket_urlpatterns`` itself, so a new socket route is
checked as soon as it exists (and fails loudly until the matrix below knows it). Teacher
sockets let only the class's teachers in (its owner, and the colleagues it is shared with);
seat sockets only the seat's own tablet.
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
from django.utils import timezone

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.models import ActionLogEntry, ClassShare, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.routing import websocket_urlpatterns
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.seats import seat_join_guest, seat_join_student, seat_kick
from classroom.services.sessions import session_create, session_start
from classroom.services.teacher_accounts import teacher_disable

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterator

    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
IDENTITIES = (
    "anonymous", "student", "kicked_student", "other_student", "other_teacher",
    "former_colleague", "co_teacher", "substitute", "owner",
)  # fmt: skip
# The class's teachers: its owner and the colleagues it is shared with, in either role.
TEACHERS = {"owner", "co_teacher", "substitute"}
# Route → who gets in. Everyone else is refused with a close code and changes nothing.
ALLOWED = {
    "ws/sessions/<int:session_id>/console/": TEACHERS,
    "ws/sessions/<int:session_id>/projector/": TEACHERS,
    "ws/sessions/<int:session_id>/tables/<int:table_id>/watch/": TEACHERS,
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
    session: GameSession  # a session of the shared class
    seat: Seat
    kicked: Seat
    other_seat: Seat  # a student of another session
    cookies: dict[str, dict[str, str]]
    owner: User
    co_teacher: User


def _login_cookies(user: User) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


def _shared_with(school_class: SchoolClass, owner: User, colleague: User, role: str) -> ClassShare:
    return class_share_grant(
        school_class=school_class, by=owner, colleague=colleague.username, role=role
    )


@pytest.fixture
async def world(
    teacher: User,
    other_teacher: User,
    school_class: SchoolClass,
    make_teacher: Callable[..., User],
) -> AsyncIterator[World]:
    def prepare() -> World:
        co_teacher, substitute = make_teacher("ms-chen"), make_teacher("mr-diaz")
        former = make_teacher("ms-ford")
        _shared_with(school_class, teacher, co_teacher, ClassShare.Role.CO_TEACHER)
        _shared_with(school_class, teacher, substitute, ClassShare.Role.SUBSTITUTE)
        revoked = _shared_with(school_class, teacher, former, ClassShare.Role.CO_TEACHER)
        class_share_revoke(share=revoked, by=teacher)
        session = session_create(
            teacher=teacher,
            game="palm_strike",
            school_class=school_class,
            players_per_table=2,
            settings={"flip_pacing": "tap"},
        )
        students = {student.display_name: student for student in school_class.students.all()}
        seat = seat_join_student(session=session, student=students["Ava"])
        seat_join_student(session=session, student=students["Ben"])
        kicked = seat_join_student(session=session, student=students["Chen"])
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
            "former_colleague": _login_cookies(former),
            "co_teacher": _login_cookies(co_teacher),
            "substitute": _login_cookies(substitute),
            "owner": _login_cookies(teacher),
        }
        return World(
            session=session,
            seat=Seat.objects.select_related("table").get(pk=seat.pk),
            kicked=kicked,
            other_seat=other_seat,
            cookies=cookies,
            owner=teacher,
            co_teacher=co_teacher,
        )

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


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


async def _closed_with(socket: WebsocketCommunicator) -> int | None:
    """The close code the server ends an open socket with (frames before it are skipped)."""
    for _ in range(20):
        output = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return output.get("code")
    raise AssertionError("the socket stayed open")


async def _still_open(socket: WebsocketCommunicator) -> bool:
    for _ in range(20):
        if await socket.receive_nothing(timeout=0.5):
            return True
        if (await socket.receive_output(timeout=TIMEOUT))["type"] == "websocket.close":
            return False
    return True


def _share_revoke(world: World) -> None:
    share = ClassShare.objects.get(teacher=world.co_teacher)
    class_share_revoke(share=share, by=world.owner)


def _account_disable(world: World) -> None:
    # What a school admin does (classroom.services.teacher_accounts): the owner stands in.
    teacher_disable(by=world.owner, teacher=world.co_teacher, now=timezone.now())


@pytest.mark.parametrize("change", [_share_revoke, _account_disable], ids=["revoke", "disable"])
async def test_losing_access_closes_the_colleagues_open_teacher_pages(
    world: World, change: Callable[[World], None]
) -> None:
    """The share revoked or the account disabled: every console, projector and table page the
    colleague has open closes, though each opened while it was allowed; others stay."""
    tablet = await _tablet_running(world)
    cookies = world.cookies["co_teacher"]
    pages = [_socket(_path(route, world), cookies) for route in ROUTES if "sessions" in route]
    console = _socket(_path("ws/sessions/<int:session_id>/console/", world), world.cookies["owner"])
    for page in [*pages, console]:
        assert (await page.connect(timeout=TIMEOUT))[0]
        await page.receive_output(timeout=TIMEOUT)

    await sync_to_async(change)(world)
    for page in pages:
        assert await _closed_with(page) == 4403
    # The owner's console stays open; so does the tablet.
    assert await _still_open(console)
    assert await _still_open(tablet)
    # Opened again with the same cookies: refused.
    again = _socket(_path("ws/sessions/<int:session_id>/console/", world), cookies)
    state, code = await _outcome(again)
    assert state == "closed"
    assert code in {4401, 4403}
    await console.disconnect()
    await tablet.disconnect()


@pytest.mark.parametrize("route", [r for r in ROUTES if "watch" not in r and "sessions" in r])
async def test_a_colleague_never_reaches_the_owners_guest_sessions(
    world: World, route: str
) -> None:
    def guest_session() -> GameSession:
        return session_create(
            teacher=world.owner, game="palm_strike", school_class=None, players_per_table=2,
            settings={},
        )  # fmt: skip

    guests = await sync_to_async(guest_session)()
    path = "/" + route.replace("<int:session_id>", str(guests.pk))
    for identity in ("co_teacher", "substitute"):
        state, code = await _outcome(_socket(path, world.cookies[identity]))
        assert (state, code) == ("closed", 4403), identity
    state, _code = await _outcome(_socket(path, world.cookies["owner"]))
    assert state == "open"
