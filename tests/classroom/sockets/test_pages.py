"""The live lobby sockets, driven through the full ASGI stack (origin check, auth, routing)."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from contextlib import asynccontextmanager
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from classroom.asgi import application
from classroom.models import Seat, SeatConnection
from classroom.pages import fragments, render_schedule
from classroom.pages.code_sessions import code_session_hint, code_session_remember
from classroom.pages.page_draws import page_forget
from classroom.people.languages import language_from_scope
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.seats import (
    seat_help_dismiss,
    seat_join_guest,
    seat_join_student,
    seat_kick,
    seat_rename,
)
from classroom.services.sessions import session_start
from classroom.sockets import base, pages
from classroom.sockets.close_codes import CloseCode
from classroom.sockets.pages import PageSocket, SeatConsumer
from games.live.heartbeat import SilenceWatchdog
from games.live.protocol import MAX_FRAME_BYTES
from tests.classroom.trial_rows import trial_add

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterator

    from django.contrib.auth.models import User

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)

HOST = (b"host", b"127.0.0.1")
ORIGIN = (b"origin", b"http://127.0.0.1")
TIMEOUT = 3


# --------------------------------------------------------------------------------------------
# Helpers


def _socket(
    path: str,
    *,
    cookies: dict[str, str] | None = None,
    origin: bytes | None = b"http://127.0.0.1",
    extra_headers: list[tuple[bytes, bytes]] | None = None,
) -> WebsocketCommunicator:
    headers = [HOST]
    if origin is not None:
        headers.append((b"origin", origin))
    if cookies:
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        headers.append((b"cookie", cookie.encode()))
    headers += extra_headers or []
    return WebsocketCommunicator(application, path, headers=headers)


def _seat_socket(
    seat: Seat, *, extra_cookies: dict[str, str] | None = None, **kwargs: Any
) -> WebsocketCommunicator:
    code = seat.session.code
    cookies = {seat_cookie_name(code): seat.token, **(extra_cookies or {})}
    return _socket(f"/ws/play/{code}/", cookies=cookies, **kwargs)


def _console_socket(session: GameSession, **kwargs: Any) -> WebsocketCommunicator:
    return _socket(f"/ws/sessions/{session.pk}/console/", **kwargs)


async def _receive_until(
    socket: WebsocketCommunicator, predicate: Callable[[str], bool], *, frames: int = 5
) -> str:
    """The first text frame matching ``predicate``; pushes may be coalesced or repeated."""
    seen: list[str] = []
    for _attempt in range(frames):
        text = await socket.receive_from(timeout=TIMEOUT)
        assert isinstance(text, str)
        if predicate(text):
            return text
        seen.append(text)
    raise AssertionError(f"no matching frame in {len(seen)} frames: {seen!r}")


async def _expect_close(socket: WebsocketCommunicator, code: int) -> None:
    message = await socket.receive_output(timeout=TIMEOUT)
    assert message == {"type": "websocket.close", "code": code}


@sync_to_async
def _connection_count(seat: Seat) -> int:
    return SeatConnection.objects.filter(seat=seat).count()


@sync_to_async
def _seat_state(seat: Seat) -> tuple[Any, ...]:
    fresh = Seat.objects.get(pk=seat.pk)
    return (fresh.name, fresh.token, fresh.table_id, fresh.kicked_at, fresh.pinned)


@sync_to_async
def _join(session: GameSession, nickname: str) -> Seat:
    return seat_join_guest(session=session, nickname=nickname)


def _login_cookie(user: User) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}


@asynccontextmanager
async def _shared_thread_busy() -> AsyncIterator[None]:
    """Hold the one thread every other socket's database calls share (as the teacher pages'
    renders do under load) for the block."""
    started, release = threading.Event(), threading.Event()

    def occupy() -> None:
        started.set()
        release.wait(10)

    busy = asyncio.ensure_future(database_sync_to_async(occupy)())
    try:
        assert await sync_to_async(started.wait, thread_sensitive=False)(TIMEOUT)
        yield
    finally:
        release.set()
        await busy


# --------------------------------------------------------------------------------------------
# Fixtures


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    # The in-memory layer keeps groups and queues bound to one event loop: one per test.
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def seat(guest_session: GameSession) -> Seat:
    return seat_join_guest(session=guest_session, nickname="Mika")


@pytest.fixture
def teacher_cookies(teacher: User) -> dict[str, str]:
    return _login_cookie(teacher)


# --------------------------------------------------------------------------------------------
# Seat sockets


async def test_seat_socket_gets_its_lobby_and_is_marked_connected(seat: Seat) -> None:
    assert await _connection_count(seat) == 0
    socket = _seat_socket(seat)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected

    html = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="lobby-live"' in html
    assert "Mika" in html
    assert 'role="alert"' not in html
    assert await _connection_count(seat) == 1

    await socket.disconnect()
    assert await _connection_count(seat) == 0


async def test_a_seat_holds_one_live_lobby_socket_the_newest(seat: Seat) -> None:
    """A seat token opening its lobby again (another tablet, a reload, or one token opened
    over and over) closes the older socket with 4409, as a game socket does, so one token
    cannot fill its address's socket cap."""
    older = _seat_socket(seat)
    assert (await older.connect(timeout=TIMEOUT))[0]
    assert 'id="lobby-live"' in await older.receive_from(timeout=TIMEOUT)

    sockets = [_seat_socket(seat) for _ in range(4)]
    for socket in sockets:
        assert (await socket.connect(timeout=TIMEOUT))[0]
        assert 'id="lobby-live"' in await socket.receive_from(timeout=TIMEOUT)

    for replaced in [older, *sockets[:-1]]:
        notice = await _receive_until(replaced, lambda text: 'role="alert"' in text)
        assert gettext("This seat was opened on another tablet.") in notice
        await _expect_close(replaced, CloseCode.REPLACED)
        await replaced.disconnect()
    assert await sockets[-1].receive_nothing(timeout=0.3)
    assert await _connection_count(seat) == 1
    await sockets[-1].disconnect()


async def test_a_tablet_gets_its_lobby_while_the_shared_database_thread_is_busy(
    seat: Seat,
) -> None:
    """A class opening its lobbies at once queues on a thread of its own (with no trip to the
    shared one to be told it is signed in as nobody), not behind the teacher pages' renders
    on the thread every other database call shares."""
    socket = _seat_socket(seat)
    async with _shared_thread_busy():
        assert (await socket.connect(timeout=TIMEOUT))[0]
        html = await socket.receive_from(timeout=TIMEOUT)
        assert 'id="lobby-live"' in html
        assert "Mika" in html
    assert await _connection_count(seat) == 1
    await socket.disconnect()


async def test_a_silent_tablet_is_marked_gone_while_the_shared_database_thread_is_busy(
    seat: Seat, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby that stops pinging is closed and its seat shown disconnected, on the lobbies'
    own thread like its other calls."""
    monkeypatch.setattr(base, "SilenceWatchdog", partial(SilenceWatchdog, limit_s=0.2))
    socket = _socket(
        f"/ws/play/{seat.session.code}/?heartbeat=1",
        cookies={seat_cookie_name(seat.session.code): seat.token},
    )
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    async with _shared_thread_busy():
        await _expect_close(socket, CloseCode.SILENT)
        # Counted off the busy thread too.
        count = SeatConnection.objects.filter(seat=seat).count
        assert await sync_to_async(count, thread_sensitive=False)() == 0


async def test_a_replaced_lobby_socket_stops_counting_at_once(seat: Seat) -> None:
    first, second = _seat_socket(seat), _seat_socket(seat)
    assert (await first.connect(timeout=TIMEOUT))[0]
    await first.receive_from(timeout=TIMEOUT)
    assert (await second.connect(timeout=TIMEOUT))[0]
    await second.receive_from(timeout=TIMEOUT)
    # Replaced before its tablet answered the close: the seat counts the newer socket only.
    await _receive_until(first, lambda text: 'role="alert"' in text)
    await _expect_close(first, CloseCode.REPLACED)
    assert await _connection_count(seat) == 1

    await first.disconnect()
    assert await _connection_count(seat) == 1
    await second.disconnect()
    assert await _connection_count(seat) == 0


async def test_seat_lobby_shows_table_mates_as_they_join(seat: Seat) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "Noor" not in await socket.receive_from(timeout=TIMEOUT)

    # Two players per table: the second guest sits with Mika.
    await _join(seat.session, "Noor")
    html = await _receive_until(socket, lambda text: "Noor" in text)
    assert 'id="lobby-live"' in html
    assert "Mika" in html
    await socket.disconnect()


async def test_a_tablet_of_a_session_already_seen_gets_its_lobby_from_its_opening_call(
    seat: Seat, monkeypatch: pytest.MonkeyPatch
) -> None:
    code_session_remember(seat.session.code, seat.session_id)
    renders: list[str] = []
    monkeypatch.setattr(SeatConsumer, "render", lambda self: renders.append("render"))
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    html = await socket.receive_from(timeout=TIMEOUT)
    assert "Mika" in html
    assert 'id="lobby-live"' in html
    assert renders == []  # drawn where the seat was found: one call to the database thread
    assert await _connection_count(seat) == 1
    await socket.disconnect()


async def test_a_tablet_told_of_a_change_right_after_it_opened(
    seat: Seat, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its session's changes reach it from before its lobby was drawn."""
    code_session_remember(seat.session.code, seat.session_id)
    opened = SeatConsumer._open

    def open_then_someone_joins(self: SeatConsumer, code: str, hint: int | None) -> Any:
        result = opened(self, code, hint)
        seat_join_guest(session=seat.session, nickname="Noor")  # after the lobby was drawn
        return result

    monkeypatch.setattr(SeatConsumer, "_open", open_then_someone_joins)
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "Noor" not in await socket.receive_from(timeout=TIMEOUT)
    assert "Noor" in await _receive_until(socket, lambda text: "Noor" in text)
    await socket.disconnect()


async def test_a_wrong_session_remembered_for_a_code_changes_nothing(
    seat: Seat, make_session: Callable[..., GameSession]
) -> None:
    other = await sync_to_async(make_session)()
    code_session_remember(seat.session.code, other.pk)  # as if the code had been given again
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "Mika" in await socket.receive_from(timeout=TIMEOUT)
    assert code_session_hint(seat.session.code) == seat.session_id
    await _join(other, "Zed")  # the other session's change is not this tablet's
    assert await socket.receive_nothing(timeout=0.3)
    await _join(seat.session, "Noor")
    assert "Noor" in await _receive_until(socket, lambda text: "Noor" in text)
    await socket.disconnect()


@pytest.mark.parametrize("token", [None, "", "not-a-real-token"], ids=["none", "empty", "unknown"])
async def test_seat_socket_without_a_valid_token_is_told_and_closed(
    seat: Seat, token: str | None
) -> None:
    code = seat.session.code
    cookies = None if token is None else {seat_cookie_name(code): token}
    socket = _socket(f"/ws/play/{code}/", cookies=cookies)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected  # accepted only to explain why it is closed

    html = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="lobby-live"' in html
    assert 'role="alert"' in html
    assert "not in the session any more" in html
    assert "Mika" not in html
    await _expect_close(socket, CloseCode.NO_SEAT)
    assert await SeatConnection.objects.acount() == 0
    await socket.disconnect()


async def test_token_of_another_session_does_not_open_this_one(
    seat: Seat, make_session: Callable[..., GameSession]
) -> None:
    other = await sync_to_async(make_session)()
    socket = _socket(f"/ws/play/{other.code}/", cookies={seat_cookie_name(other.code): seat.token})
    assert (await socket.connect(timeout=TIMEOUT))[0]
    html = await socket.receive_from(timeout=TIMEOUT)
    assert "Mika" not in html
    assert "not in the session any more" in html
    await _expect_close(socket, CloseCode.NO_SEAT)
    assert await _connection_count(seat) == 0
    await socket.disconnect()


async def test_cookie_for_another_code_is_ignored(
    seat: Seat, make_session: Callable[..., GameSession]
) -> None:
    # The token is only read from the cookie named after the code in the URL.
    other = await sync_to_async(make_session)()
    socket = _socket(
        f"/ws/play/{seat.session.code}/", cookies={seat_cookie_name(other.code): seat.token}
    )
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "not in the session any more" in await socket.receive_from(timeout=TIMEOUT)
    await _expect_close(socket, CloseCode.NO_SEAT)
    await socket.disconnect()


async def test_unknown_session_code_is_refused(seat: Seat) -> None:
    socket = _socket("/ws/play/ZZZZZZ/", cookies={seat_cookie_name("ZZZZZZ"): seat.token})
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected  # accepted only to be closed with a code the page will not retry
    # Told exactly as a known code without a seat is: the socket is no code oracle.
    assert "not in the session any more" in await socket.receive_from(timeout=TIMEOUT)
    await _expect_close(socket, CloseCode.NO_SEAT)
    assert await _connection_count(seat) == 0


async def test_kicked_seat_is_told_and_closed(seat: Seat) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "Mika" in await socket.receive_from(timeout=TIMEOUT)

    await sync_to_async(seat_kick)(seat=seat)

    html = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="lobby-live"' in html
    assert 'role="alert"' in html
    assert "Your teacher removed you from this session." in html
    await _expect_close(socket, CloseCode.REMOVED)
    await socket.disconnect()
    assert await _connection_count(seat) == 0


async def test_kicked_seat_cannot_reconnect(seat: Seat) -> None:
    await sync_to_async(seat_kick)(seat=seat)
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    html = await socket.receive_from(timeout=TIMEOUT)
    assert "Your teacher removed you from this session." in html
    await _expect_close(socket, CloseCode.REMOVED)
    assert await _connection_count(seat) == 0
    await socket.disconnect()


async def test_badge_takeover_closes_the_old_tablet(class_session: GameSession) -> None:
    assert class_session.school_class is not None
    student = await class_session.school_class.students.aget(display_name="Ava")
    seat = await sync_to_async(seat_join_student)(session=class_session, student=student)
    old_tablet = _seat_socket(seat)
    assert (await old_tablet.connect(timeout=TIMEOUT))[0]
    assert "Ava" in await old_tablet.receive_from(timeout=TIMEOUT)

    # The badge on another tablet takes the seat over with a fresh token.
    new_seat = await sync_to_async(seat_join_student)(
        session=class_session, student=student, from_badge=True
    )
    assert new_seat.pk == seat.pk
    assert new_seat.token != seat.token
    html = await old_tablet.receive_from(timeout=TIMEOUT)
    assert "not in the session any more" in html
    await _expect_close(old_tablet, CloseCode.NO_SEAT)
    await old_tablet.disconnect()

    new_tablet = _seat_socket(new_seat)
    assert (await new_tablet.connect(timeout=TIMEOUT))[0]
    assert "Ava" in await new_tablet.receive_from(timeout=TIMEOUT)
    assert await _connection_count(seat) == 1
    await new_tablet.disconnect()


# --------------------------------------------------------------------------------------------
# Console sockets


async def test_console_of_the_owner_gets_its_fragment_and_updates(
    guest_session: GameSession, teacher_cookies: dict[str, str]
) -> None:
    socket = _console_socket(guest_session, cookies=teacher_cookies)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected

    html = await socket.receive_from(timeout=TIMEOUT)
    assert 'id="console-live"' in html
    assert "Nobody has joined yet" in html
    assert "Noor" not in html

    await _join(guest_session, "Noor")
    html = await _receive_until(socket, lambda text: "Noor" in text)
    assert 'id="console-live"' in html
    assert "Nobody has joined yet" not in html
    await socket.disconnect()


@pytest.mark.parametrize("page", ["console", "projector", "seat"])
async def test_a_ping_is_answered_while_the_database_thread_is_busy(
    guest_session: GameSession, teacher_cookies: dict[str, str], seat: Seat, page: str
) -> None:
    """A socket's messages never wait for the one thread every database call shares (under
    load it is busy with teacher pages' renders): Channels' own dispatch queued a
    close_old_connections there before every handler, and such waits froze teacher pages."""
    if page == "seat":
        socket = _seat_socket(seat)
    else:
        path = f"/ws/sessions/{guest_session.pk}/{page}/"
        socket = _socket(path, cookies=teacher_cookies)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected
    await socket.receive_from(timeout=TIMEOUT)  # its page, drawn
    async with _shared_thread_busy():
        await socket.send_to(text_data=json.dumps({"type": "ping", "seq": 7}))
        pong = await _receive_until(socket, lambda text: text.startswith("{"))
        assert json.loads(pong) == {"type": "pong", "seq": 7}
    await socket.disconnect()


@pytest.mark.parametrize("page", ["console", "seat"])
async def test_a_page_dropped_from_its_groups_joins_again_on_a_ping_and_catches_up(
    guest_session: GameSession,
    teacher_cookies: dict[str, str],
    seat: Seat,
    page: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The in-memory layer drops a socket from every group when a message waited in its
    channel past the expiry (under load: every console would freeze). Its next ping after
    ``rejoin_every_s`` joins it again and draws the page, and later changes reach it."""
    if page == "seat":
        socket = _seat_socket(seat)
    else:
        socket = _console_socket(guest_session, cookies=teacher_cookies)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected
    await socket.receive_from(timeout=TIMEOUT)
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    for members in layer.groups.values():
        members.clear()  # as when a message of each of its channels expired
    noor = await _join(guest_session, "Noor")  # at Mika's table: on both pages
    assert await socket.receive_nothing(timeout=0.5)  # dropped: told nothing
    monkeypatch.setattr(PageSocket, "rejoin_every_s", 0.0)
    await socket.send_to(text_data=json.dumps({"type": "ping", "seq": 1}))
    await _receive_until(socket, lambda text: "Noor" in text)  # drawn again: caught up
    # And told of the next change again.
    if page == "seat":
        await sync_to_async(seat_kick)(seat=noor)
        await _receive_until(socket, lambda text: "lobby-live" in text and "Noor" not in text)
    else:
        await _join(guest_session, "Oren")
        await _receive_until(socket, lambda text: "Oren" in text)
    await socket.disconnect()


async def test_console_draws_its_live_skills_at_most_every_few_seconds_and_after_a_burst(
    guest_session: GameSession, teacher_cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live skills read every trial of the session: while the tables keep changing they
    are drawn at most every DASHBOARD_GAP_S, and once more after the last change."""
    monkeypatch.setattr(render_schedule, "DASHBOARD_GAP_S", 2.0)
    monkeypatch.setattr(pages.ConsoleConsumer, "render_gap_s", 0.05)
    socket = _console_socket(guest_session, cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert 'id="console-dashboard"' in await socket.receive_from(timeout=TIMEOUT)

    await _join(guest_session, "Noor")  # at once: within the gap of the first render
    html = await _receive_until(socket, lambda text: "Noor" in text)
    assert 'id="console-dashboard"' not in html
    # Nothing changes any more: the live skills still follow, once the gap is over.
    html = await _receive_until(socket, lambda text: 'id="console-dashboard"' in text)
    assert "Noor" in html
    await socket.disconnect()


async def test_a_dismissed_needs_help_mark_leaves_every_console_with_no_play_meanwhile(
    guest_session: GameSession, teacher_cookies: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A console draws its live skills only when something changes; a dismissal changes them
    with the game paused too, and a draw begun before it must not leave the mark standing."""
    monkeypatch.setattr(pages.ConsoleConsumer, "render_gap_s", 0.05)
    reason = "More mistakes than usual lately"
    ava = await _join(guest_session, "Ava")
    await sync_to_async(session_start)(session=guest_session)
    await sync_to_async(_careless_after_a_steady_start)(ava)
    socket = _console_socket(guest_session, cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _receive_until(socket, lambda text: reason in text)

    await sync_to_async(seat_help_dismiss)(seat=ava)
    html = await _receive_until(socket, lambda text: 'id="console-dashboard"' in text)
    assert reason not in html
    await socket.disconnect()


def _careless_after_a_steady_start(seat: Seat) -> None:
    """30 flips slapping only the matches, then 15 slapping every card."""
    for flip in range(1, 46):
        match = flip % 3 == 0
        trial_add(seat=seat, target=match, responded=match or flip > 30, rt_ms=600, flip=flip)


class _StretchedBudget:
    """A process whose teacher pages spend four times their share (the arithmetic is in
    ``tests/classroom/pages/test_render_budget.py``)."""

    def __init__(self) -> None:
        self.draws: list[float] = []

    def spend(self, *, cpu_s: float, now: float) -> None:
        self.draws.append(cpu_s)

    def stretch(self, *, now: float) -> float:
        return 4.0


async def test_teacher_pages_over_their_budget_are_drawn_less_often(
    make_session: Callable[..., GameSession],
    teacher_cookies: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every console draw is timed into the process's budget, and while the pages spend
    more than their share each waits longer between two draws (a tablet's lobby does not)."""
    budget = _StretchedBudget()
    monkeypatch.setattr(render_schedule, "teacher_render_budget", budget)
    monkeypatch.setattr(pages.ConsoleConsumer, "render_gap_s", 0.2)
    monkeypatch.setattr(pages.SeatConsumer, "render_gap_s", 0.2)
    guest_session = await sync_to_async(make_session)(players_per_table=4)
    seat = await _join(guest_session, "Mika")
    console = _console_socket(guest_session, cookies=teacher_cookies)
    assert (await console.connect(timeout=TIMEOUT))[0]
    await console.receive_from(timeout=TIMEOUT)
    assert len(budget.draws) == 1
    assert budget.draws[0] > 0
    tablet = _seat_socket(seat)
    assert (await tablet.connect(timeout=TIMEOUT))[0]
    await tablet.receive_from(timeout=TIMEOUT)
    await _receive_until(console, lambda text: "1 connected" in text)
    drawn = len(budget.draws)

    await asyncio.sleep(0.8)  # a quiet spell: the next change is drawn at once
    await _join(guest_session, "Noor")  # at Mika's table, as Oren next
    await _receive_until(console, lambda text: "Noor" in text)
    await _receive_until(tablet, lambda text: "Noor" in text)
    await _join(guest_session, "Oren")
    # The tablet's lobby within its own gap; the console only after 0.2 s x 4.
    await _receive_until(tablet, lambda text: "Oren" in text)
    assert await console.receive_nothing(timeout=0.4)
    await _receive_until(console, lambda text: "Oren" in text)
    assert len(budget.draws) == drawn + 2  # the tablet's draws are not the teacher pages'
    await tablet.disconnect()
    await console.disconnect()


async def test_console_shows_tablets_connecting_and_leaving(
    seat: Seat, teacher_cookies: dict[str, str]
) -> None:
    console = _console_socket(seat.session, cookies=teacher_cookies)
    assert (await console.connect(timeout=TIMEOUT))[0]
    assert "0 connected" in await console.receive_from(timeout=TIMEOUT)

    tablet = _seat_socket(seat)
    assert (await tablet.connect(timeout=TIMEOUT))[0]
    await tablet.receive_from(timeout=TIMEOUT)
    await _receive_until(console, lambda text: "1 connected" in text)

    await tablet.disconnect()
    await _receive_until(console, lambda text: "0 connected" in text)
    await console.disconnect()


async def test_projector_of_the_owner_gets_updates(
    guest_session: GameSession, teacher_cookies: dict[str, str]
) -> None:
    socket = _socket(f"/ws/sessions/{guest_session.pk}/projector/", cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert "Noor" not in await socket.receive_from(timeout=TIMEOUT)
    await _join(guest_session, "Noor")
    await _receive_until(socket, lambda text: "Noor" in text)
    await socket.disconnect()


def _started_with_guests(session: GameSession) -> list[Seat]:
    seats = [seat_join_guest(session=session, nickname=f"Kid {number}") for number in range(6)]
    session_start(session=session)
    return seats


def _page_render(page: str, session: GameSession, *, dashboard: bool) -> str:
    with translation.override("en"):
        if page == "console":
            return fragments.console_fragment_render(session_id=session.pk, dashboard=dashboard)
        return fragments.projector_fragment_render(session_id=session.pk)


@pytest.mark.parametrize("page", ["console", "projector"])
async def test_a_teacher_page_is_sent_what_a_render_from_nothing_draws_after_each_change(
    make_session: Callable[..., GameSession], teacher_cookies: dict[str, str], page: str
) -> None:
    """Each socket draws again only the parts that changed (classroom.pages.parts), and
    still sends the whole fragment, the same HTML as a render from nothing."""
    session = await sync_to_async(make_session)(players_per_table=2)
    seats = await sync_to_async(_started_with_guests)(session)
    socket = _socket(f"/ws/sessions/{session.pk}/{page}/", cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    first = await socket.receive_from(timeout=TIMEOUT)
    assert first == await sync_to_async(_page_render)(page, session, dashboard=True)

    await sync_to_async(seat_rename)(seat=seats[-1], name="Zed")
    html = await _receive_until(socket, lambda text: "Zed" in text)
    dashboard = 'id="console-dashboard"' in html
    assert html == await sync_to_async(_page_render)(page, session, dashboard=dashboard)
    await socket.disconnect()


@pytest.mark.parametrize("page_kind", ["console", "projector"])
async def test_a_tables_move_redraws_without_reading_the_lobby_again(
    guest_session: GameSession, monkeypatch: pytest.MonkeyPatch, page_kind: str
) -> None:
    # During play most redraws are for a table's move; the roster and the session are read
    # again only after a lobby change (or once they are a few seconds old).
    from classroom.sockets.pages import ConsoleConsumer, ProjectorConsumer

    reads: list[int] = []
    name = f"{page_kind}_lobby"
    real = getattr(fragments, name)

    def counted(**kwargs: Any) -> dict[str, Any]:
        reads.append(1)
        return real(**kwargs)

    monkeypatch.setattr(fragments, name, counted)
    page = ConsoleConsumer() if page_kind == "console" else ProjectorConsumer()
    monkeypatch.setattr(page, "redraw", lambda: None)
    page.channel_name = f"test-{page_kind}"
    page.session_id, page.language = guest_session.pk, "en"
    page.table_ids, page.remote_views, page.views = set(), {}, {}

    await page.draw()
    await page.draw()
    assert len(reads) == 1
    page.tables_moved([], {})
    await page.draw()
    assert len(reads) == 1
    await _join(guest_session, "Noor")
    await page.lobby_changed({"type": "lobby.changed"})
    html, _close, _cpu_s = await page.draw()
    assert len(reads) == 2
    assert "Noor" in html
    page_forget(page.channel_name)


@pytest.mark.parametrize("page", ["console", "projector"])
async def test_another_teachers_socket_is_refused(
    guest_session: GameSession, other_teacher: User, page: str
) -> None:
    cookies = await sync_to_async(_login_cookie)(other_teacher)
    socket = _socket(f"/ws/sessions/{guest_session.pk}/{page}/", cookies=cookies)
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected  # accepted only to be closed with a code the page will not retry
    await _expect_close(socket, 4403)


@pytest.mark.parametrize("page", ["console", "projector"])
async def test_anonymous_socket_is_refused(guest_session: GameSession, page: str) -> None:
    socket = _socket(f"/ws/sessions/{guest_session.pk}/{page}/")
    connected, _subprotocol = await socket.connect(timeout=TIMEOUT)
    assert connected  # accepted only to be closed with a code the page will not retry
    await _expect_close(socket, 4403)


async def test_console_of_a_missing_session_is_refused(teacher_cookies: dict[str, str]) -> None:
    socket = _socket("/ws/sessions/999999/console/", cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _expect_close(socket, 4403)


async def test_a_seat_token_does_not_open_the_console(seat: Seat) -> None:
    socket = _socket(
        f"/ws/sessions/{seat.session_id}/console/",
        cookies={seat_cookie_name(seat.session.code): seat.token},
    )
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _expect_close(socket, 4403)


# --------------------------------------------------------------------------------------------
# Origin check


@pytest.mark.parametrize(
    "origin",
    [b"http://evil.example", b"http://127.0.0.1.evil.example", b"null", None],
    ids=["other-site", "lookalike", "null", "missing"],
)
async def test_wrong_origin_is_refused(seat: Seat, origin: bytes | None) -> None:
    socket = _seat_socket(seat, origin=origin)
    connected, _close_code = await socket.connect(timeout=TIMEOUT)
    assert not connected
    assert await _connection_count(seat) == 0


async def test_wrong_origin_is_refused_for_the_owner_console(
    guest_session: GameSession, teacher_cookies: dict[str, str]
) -> None:
    socket = _console_socket(guest_session, cookies=teacher_cookies, origin=b"http://evil.example")
    connected, _close_code = await socket.connect(timeout=TIMEOUT)
    assert not connected


# --------------------------------------------------------------------------------------------
# Client frames


async def test_ping_gets_pong(seat: Seat) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)

    await socket.send_to(text_data=json.dumps({"type": "ping", "seq": 7}))
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 7}
    await socket.send_to(bytes_data=b'{"type":"ping","seq":8}')
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 8}
    await socket.disconnect()


async def test_console_answers_ping(
    guest_session: GameSession, teacher_cookies: dict[str, str]
) -> None:
    socket = _console_socket(guest_session, cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_json_to({"type": "ping", "seq": 0})
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 0}
    await socket.disconnect()


async def test_a_lobby_socket_that_floods_is_slowed_then_closed(seat: Seat) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    for number in range(200):
        await socket.send_to(text_data=json.dumps({"type": "ping", "seq": number}))
    codes: list[str] = []
    closed_with = None
    for _ in range(300):
        output = await socket.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            closed_with = output["code"]
            break
        text = output.get("text", "")
        if text.startswith("{"):
            codes.append(json.loads(text).get("code", "pong"))
    assert "slow_down" in codes
    assert closed_with == 4008


BAD_FRAMES = [
    pytest.param("{not json", "malformed", id="malformed-json"),
    pytest.param('{"type":"slap","seq":1}', "invalid", id="unknown-type"),
    pytest.param('{"type":"ping","seq":"7"}', "invalid", id="seq-as-string"),
    pytest.param('{"type":"ping","seq":1.5}', "invalid", id="seq-as-float"),
    pytest.param('{"type":"ping"}', "invalid", id="missing-seq"),
    pytest.param('{"type":"ping","seq":1,"seat":2}', "invalid", id="extra-field"),
    pytest.param('[{"type":"ping","seq":1}]', "invalid", id="json-array"),
    pytest.param('{"seq":1}', "invalid", id="missing-type"),
    pytest.param(
        json.dumps({"type": "ping", "seq": 1, "pad": "x" * MAX_FRAME_BYTES}),
        "too_large",
        id="over-4096-bytes",
    ),
    pytest.param(
        json.dumps({"type": "ping", "seq": 1, "pad": "猫" * 1400}, ensure_ascii=False),
        "too_large",
        id="over-4096-utf8-bytes",
    ),
    # 2.8 KB that nest past the recursion limit: was a RecursionError and a 1011 close.
    pytest.param(
        '{"type":"ping","seq":1,"x":' + "[" * 1400 + "]" * 1400 + "}", "malformed", id="deep"
    ),
]


@pytest.mark.parametrize("page", ["console", "projector"])
async def test_a_deeply_nested_frame_on_a_teacher_socket_gets_an_error(
    guest_session: GameSession, teacher_cookies: dict[str, str], page: str
) -> None:
    socket = _socket(f"/ws/sessions/{guest_session.pk}/{page}/", cookies=teacher_cookies)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_to(text_data='{"type":"ping","seq":1,"x":' + "[" * 1400 + "]" * 1400 + "}")
    error = await socket.receive_json_from(timeout=TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "malformed")
    await socket.send_json_to({"type": "ping", "seq": 2})
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 2}
    await socket.disconnect()


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
async def test_bad_frame_gets_an_error_and_changes_nothing(
    seat: Seat, frame: str, code: str
) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    before = await _seat_state(seat)

    await socket.send_to(text_data=frame)
    error = await socket.receive_json_from(timeout=TIMEOUT)
    assert error["type"] == "error"
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]
    assert set(error) <= {"type", "code", "message", "seq"}

    # Nothing else is sent (no close, no lobby push) and nothing changed.
    assert await socket.receive_nothing(timeout=0.2)
    assert await _seat_state(seat) == before
    assert await _connection_count(seat) == 1

    # Still open and answering.
    await socket.send_json_to({"type": "ping", "seq": 9})
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 9}
    await socket.disconnect()
    assert await _connection_count(seat) == 0


async def test_bad_binary_frame_gets_an_error(seat: Seat) -> None:
    socket = _seat_socket(seat)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await socket.receive_from(timeout=TIMEOUT)
    await socket.send_to(bytes_data=b"\xff\x00\xfe")
    error = await socket.receive_json_from(timeout=TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "malformed")
    await socket.send_json_to({"type": "ping", "seq": 1})
    assert await socket.receive_json_from(timeout=TIMEOUT) == {"type": "pong", "seq": 1}
    await socket.disconnect()


# --------------------------------------------------------------------------------------------
# Language


@pytest.mark.parametrize(
    ("cookies", "accept_language", "expected"),
    [
        pytest.param({"django_language": "zh-hant"}, None, "zh-hant", id="cookie"),
        pytest.param({}, b"zh-TW,zh;q=0.9", "zh-hant", id="accept-zh-TW"),
        pytest.param({}, b"zh-Hant", "zh-hant", id="accept-zh-Hant"),
        pytest.param({}, b"fr", "en", id="accept-unsupported"),
        pytest.param({}, b"fr-CA,fr;q=0.9,zh-TW;q=0.5", "zh-hant", id="accept-fallthrough"),
        pytest.param({}, b"*", "en", id="accept-star"),
        pytest.param({}, None, "en", id="nothing"),
        pytest.param({"django_language": "en"}, b"zh-TW", "en", id="cookie-beats-header"),
        pytest.param({"django_language": "klingon"}, b"zh-TW", "zh-hant", id="bad-cookie"),
        pytest.param({"django_language": "fr"}, None, "en", id="unsupported-cookie"),
    ],
)
def test_language_from_scope(
    cookies: dict[str, str], accept_language: bytes | None, expected: str
) -> None:
    headers = [HOST, ORIGIN]
    if accept_language is not None:
        headers.append((b"accept-language", accept_language))
    scope = {"type": "websocket", "cookies": cookies, "headers": headers}
    assert language_from_scope(scope) == expected


def test_language_cookie_name_is_the_default() -> None:
    # The WebSocket tests below set the cookie by this name.
    assert settings.LANGUAGE_COOKIE_NAME == "django_language"


@pytest.mark.parametrize(
    ("extra_cookies", "extra_headers"),
    [
        pytest.param({"django_language": "zh-hant"}, [], id="cookie"),
        pytest.param({}, [(b"accept-language", b"zh-TW,zh;q=0.9")], id="accept-language"),
    ],
)
async def test_seat_lobby_is_rendered_in_the_tablets_language(
    seat: Seat,
    monkeypatch: pytest.MonkeyPatch,
    extra_cookies: dict[str, str],
    extra_headers: list[tuple[bytes, bytes]],
) -> None:
    languages: list[str | None] = []
    render = fragments.seat_fragment_render

    def spy(**kwargs: Any) -> fragments.SeatFragment:
        languages.append(translation.get_language())
        return render(**kwargs)

    monkeypatch.setattr(fragments, "seat_fragment_render", spy)
    english = "Get ready! Your teacher will start the game."
    with translation.override("zh-hant"):
        chinese = gettext(english)
    assert chinese != english, "the zh-hant catalogue translates the lobby status"

    socket = _seat_socket(seat, extra_cookies=extra_cookies, extra_headers=extra_headers)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    html = await socket.receive_from(timeout=TIMEOUT)
    assert languages == ["zh-hant"]
    assert chinese in html
    assert english not in html
    assert "Mika" in html
    await socket.disconnect()


async def test_seat_lobby_defaults_to_english(seat: Seat) -> None:
    socket = _seat_socket(seat, extra_headers=[(b"accept-language", b"fr")])
    assert (await socket.connect(timeout=TIMEOUT))[0]
    html = await socket.receive_from(timeout=TIMEOUT)
    assert "Get ready! Your teacher will start the game." in html
    await socket.disconnect()


async def test_each_socket_keeps_its_own_language(
    seat: Seat, teacher_cookies: dict[str, str]
) -> None:
    # One push to the session's group: the console renders in English, the tablet in Chinese.
    with translation.override("zh-hant"):
        hello = gettext("Hi, %(name)s!") % {"name": "Mika"}
        table_in_chinese = gettext("Table %(number)s") % {"number": 1}
    assert table_in_chinese != "Table 1"
    console = _console_socket(seat.session, cookies=teacher_cookies)
    assert (await console.connect(timeout=TIMEOUT))[0]
    assert "0 connected" in await console.receive_from(timeout=TIMEOUT)

    tablet = _seat_socket(seat, extra_cookies={"django_language": "zh-hant"})
    assert (await tablet.connect(timeout=TIMEOUT))[0]
    assert hello in await tablet.receive_from(timeout=TIMEOUT)

    html = await _receive_until(console, lambda text: "1 connected" in text)
    assert "Table 1" in html
    assert table_in_chinese not in html
    await tablet.disconnect()
    await console.disconnect()


async def test_a_page_pushed_to_a_socket_that_is_closing_is_dropped_quietly(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # A lobby page closed while its redraw was on the way: the push ends quietly, never as
    # "Task exception was never retrieved ... Disconnected" in the server's log.
    from autobahn.exception import Disconnected

    async def closing(**_frame: Any) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    async def drawn() -> tuple[str, int | None, float]:
        return "<div>lobby</div>", None, 0.0

    page = SeatConsumer()
    page.send = closing  # type: ignore[method-assign]
    page.draw = drawn  # type: ignore[method-assign]
    with caplog.at_level(logging.DEBUG, logger="classroom.sockets"):
        page.redraw()
        assert page.schedule.task is not None
        await page.schedule.task
    assert "dropped a page for a closing socket" in caplog.text
    assert page.schedule.sent_html is None


async def test_a_pages_ask_carries_the_teachers_budgets_stretch(
    guest_session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    # While the budget stretches every page's gaps, the lobby's re-read floor stretches too.
    from classroom.pages.lobby_reads import LOBBY_REREAD_S
    from classroom.pages.page_draws import page_memory
    from classroom.pages.render_budget import teacher_render_budget
    from classroom.sockets.pages import ConsoleConsumer

    page = ConsoleConsumer()
    monkeypatch.setattr(page, "redraw", lambda: None)
    page.channel_name = "test-stretched-console"
    page.session_id, page.language = guest_session.pk, "en"
    page.table_ids, page.remote_views, page.views = set(), {}, {}
    monkeypatch.setattr(teacher_render_budget, "_stretch", 3.0)
    await page.draw()
    assert page_memory(page.channel_name).lobby_reads.reread_s == 3 * LOBBY_REREAD_S
    page_forget(page.channel_name)
