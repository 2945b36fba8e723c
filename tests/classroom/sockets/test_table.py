"""A tablet at a playing table: the game socket through the full ASGI stack, with a real host."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection
from django.urls import reverse
from prometheus_client import REGISTRY

from classroom.asgi import application
from classroom.hosting import table_hosts
from classroom.models import ActionLogEntry, Seat
from classroom.people.seat_cookies import seat_cookie_name
from classroom.services.classes import class_create, student_remove, student_token_rotate
from classroom.services.seats import (
    seat_join_badge,
    seat_join_guest,
    seat_join_student,
    seat_kick,
)
from classroom.services.sessions import session_pause, session_resume, session_start

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Student

pytestmark = pytest.mark.django_db(transaction=True)

TIMEOUT = 3
TURN_TIMEOUT_S = 15


def _socket(
    code: str, token: str, *, language: str = "en", query: str = ""
) -> WebsocketCommunicator:
    cookie = f"{seat_cookie_name(code)}={token}; django_language={language}"
    headers = [
        (b"host", b"127.0.0.1"),
        (b"origin", b"http://127.0.0.1"),
        (b"cookie", cookie.encode()),
    ]
    return WebsocketCommunicator(application, f"/ws/play/{code}/table/{query}", headers=headers)


async def _frame(
    socket: WebsocketCommunicator,
    kind: str,
    *,
    where: Callable[[dict[str, Any]], bool] = lambda _frame: True,
    tries: int = 20,
) -> dict[str, Any]:
    for _ in range(tries):
        frame = json.loads(await socket.receive_from(timeout=TIMEOUT))
        if frame["type"] == kind and where(frame):
            return dict(frame)
    raise AssertionError(f"no matching {kind} frame")


async def _seated(session: GameSession, seat: Seat) -> WebsocketCommunicator:
    """A connected tablet that has had its first view."""
    socket = _socket(session.code, seat.token)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _frame(socket, "state")
    return socket


async def _seat_all(
    session: GameSession, seats: list[Seat]
) -> tuple[list[WebsocketCommunicator], list[dict[str, Any]]]:
    """Every seat's tablet connected, with the first view each one got."""
    sockets = [_socket(session.code, seat.token) for seat in seats]
    views = []
    for socket in sockets:
        await socket.connect(timeout=TIMEOUT)
        views.append((await _frame(socket, "state"))["view"])
    return sockets, views


@pytest.fixture
async def playing(
    make_session: Callable[..., GameSession],
) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(players_per_table=2, settings={"flip_pacing": "tap"})
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, [Seat.objects.select_related("table").get(pk=s.pk) for s in seats]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def test_a_seated_tablet_gets_its_own_view(playing: tuple[GameSession, list[Seat]]) -> None:
    session, (ava, _ben) = playing
    socket = _socket(session.code, ava.token)
    assert (await socket.connect(timeout=TIMEOUT))[0]
    state = await _frame(socket, "state")
    assert state["view"]["game"] == "palm_strike"
    assert state["view"]["you"] == 0
    assert [player["seat"] for player in state["view"]["players"]] == [0, 1]
    await socket.disconnect()


async def test_a_rejected_action_answers_with_the_reason_and_logs_nothing(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    socket = await _seated(session, ava)
    await socket.send_to(
        text_data=json.dumps(
            {"type": "act", "seq": 4, "action": {"kind": "slap", "flip": 9, "rt_ms": 400}}
        )
    )
    error = await _frame(socket, "error")
    assert error["seq"] == 4
    assert error["code"] == "rejected"
    assert error["message"]
    assert not await sync_to_async(ActionLogEntry.objects.filter(kind="act").exists)()
    await socket.disconnect()


async def test_the_active_player_flips_and_both_tablets_see_it(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = playing
    sockets, views = await _seat_all(session, seats)
    active = views[0]["active_seat"]
    flipper = sockets[active]
    await flipper.send_to(
        text_data=json.dumps({"type": "act", "seq": 1, "action": {"kind": "flip"}})
    )
    ack = await _frame(flipper, "ack")
    assert ack["seq"] == 1
    for socket in sockets:
        for _ in range(10):
            state = await _frame(socket, "state")
            if state["view"]["flip"] == 1:
                break
        assert state["view"]["public"] is not None
    entries = await sync_to_async(list)(ActionLogEntry.objects.values_list("kind", "seat_index"))
    assert ("act", active) in entries
    for socket in sockets:
        await socket.disconnect()


async def test_a_duplicated_flip_is_applied_once_and_acknowledged_each_time(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = playing
    sockets, views = await _seat_all(session, seats)
    flipper = sockets[views[0]["active_seat"]]
    frame = {"type": "act", "seq": 1, "action": {"kind": "flip"}, "cid": "tab-1:1"}
    await flipper.send_to(text_data=json.dumps(frame))
    await flipper.send_to(text_data=json.dumps({**frame, "seq": 2}))  # the same input again
    acks = [await _frame(flipper, "ack"), await _frame(flipper, "ack")]
    assert [ack["seq"] for ack in acks] == [1, 2]
    assert acks[0]["version"] == acks[1]["version"]
    stored = await sync_to_async(list)(
        ActionLogEntry.objects.filter(kind="act").values_list("client_id", flat=True)
    )
    assert stored == ["tab-1:1"]
    for socket in sockets:
        await socket.disconnect()


@pytest.mark.parametrize(
    "raw",
    [
        "not json",
        '{"type":"act","seq":1,"action":{"kind":"explode"}}',
        '{"type":"act","seq":1,"action":{"kind":"slap","flip":"one","rt_ms":1}}',
        '{"type":"act","seq":1,"action":{"kind":"slap","flip":1,"rt_ms":1,"seat":1}}',
        '{"type":"act","seq":1}',
        json.dumps({"type": "ping", "seq": 1, "pad": "x" * 5000}),
        '{"type":"act","seq":1,"action":{"kind":"flip"},"cid":"no spaces allowed"}',
        json.dumps({"type": "act", "seq": 1, "action": {"kind": "flip"}, "cid": "x" * 65}),
        '{"type":"act","seq":1,"action":' + "[" * 1400 + "]" * 1400 + "}",
    ],
    ids=[
        "not-json",
        "unknown-kind",
        "wrong-type",
        "another-seat-field",
        "no-action",
        "oversize",
        "bad-client-id",
        "long-client-id",
        "deeply-nested",
    ],
)
async def test_bad_frames_get_an_error_and_change_nothing(
    playing: tuple[GameSession, list[Seat]], raw: str
) -> None:
    session, (ava, _ben) = playing
    socket = await _seated(session, ava)
    await socket.send_to(text_data=raw)
    error = await _frame(socket, "error")
    assert error["code"] in {"invalid", "malformed", "too_large"}
    await socket.send_to(text_data='{"type":"ping","seq":2}')
    assert (await _frame(socket, "pong"))["seq"] == 2  # still open and answering
    assert not await sync_to_async(ActionLogEntry.objects.filter(kind="act").exists)()
    await socket.disconnect()


async def test_a_flood_is_slowed_then_closed_with_4008(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, ben) = playing
    cutoffs = REGISTRY.get_sample_value("snapclass_flood_cutoffs_total", {"kind": "tablet"}) or 0
    socket = await _seated(session, ava)
    for number in range(200):
        await socket.send_to(text_data=json.dumps({"type": "ping", "seq": number}))
    codes = []
    closed_with = None
    for _ in range(300):
        message = await socket.receive_output(timeout=TIMEOUT)
        if message["type"] == "websocket.close":
            closed_with = message["code"]
            break
        codes.append(json.loads(message["text"]).get("code"))
    assert "slow_down" in codes
    assert closed_with == 4008
    assert REGISTRY.get_sample_value("snapclass_flood_cutoffs_total", {"kind": "tablet"}) == (
        cutoffs + 1
    )
    # Straight back: refused before any lookup, for the cooldown; other seats are not.
    again = _socket(session.code, ava.token)
    assert (await again.connect(timeout=TIMEOUT))[0]
    assert (await again.receive_output(timeout=TIMEOUT))["code"] == 4008
    await (await _seated(session, ben)).disconnect()


async def test_a_tablet_without_a_seat_is_told_and_closed(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, _seats = playing
    socket = _socket(session.code, "not-a-token")
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert (await _frame(socket, "error"))["code"] == "no_seat"
    assert (await socket.receive_output(timeout=TIMEOUT))["code"] == 4401


async def test_a_removed_student_is_closed_at_once(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    socket = await _seated(session, ava)
    await sync_to_async(seat_kick)(seat=ava)
    assert (await _frame(socket, "error"))["code"] == "removed"
    assert (await socket.receive_output(timeout=TIMEOUT))["code"] == 4403


async def test_a_seat_taken_over_by_its_badge_closes_the_old_tablet(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    def prepare() -> tuple[GameSession, Student, Seat]:
        session = make_session(school_class=school_class, settings={"flip_pacing": "tap"})
        ava, ben = school_class.students.order_by("display_name")[:2]
        seat = seat_join_student(session=session, student=ava)
        seat_join_student(session=session, student=ben)
        session_start(session=session)
        return session, ava, Seat.objects.get(pk=seat.pk)

    session, ava, seat = await sync_to_async(prepare)()
    old_tablet = await _seated(session, seat)
    await sync_to_async(seat_join_student)(session=session, student=ava, from_badge=True)
    assert (await _frame(old_tablet, "error"))["code"] == "removed"
    assert (await old_tablet.receive_output(timeout=TIMEOUT))["code"] == 4403


async def test_a_new_badge_closes_a_seat_taken_with_the_old_one_and_says_why(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    def prepare() -> tuple[GameSession, Student, Seat]:
        session = make_session(school_class=school_class, settings={"flip_pacing": "tap"})
        ava, ben = school_class.students.order_by("display_name")[:2]
        seat = seat_join_badge(token=ava.token)
        seat_join_student(session=session, student=ben)
        session_start(session=session)
        return session, ava, Seat.objects.get(pk=seat.pk)

    session, ava, seat = await sync_to_async(prepare)()
    tablet = await _seated(session, seat)
    await sync_to_async(student_token_rotate)(student=ava)
    error = await _frame(tablet, "error")
    assert error["code"] == "badge_replaced"
    assert "Scan your new badge" in error["message"]
    assert (await tablet.receive_output(timeout=TIMEOUT))["code"] == 4403


async def test_other_tablets_coming_and_going_do_not_wake_a_tablet(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    # Presence changes are lobby news; a game socket hears only its table and its own seat.
    session, (ava, ben) = playing
    ava_tablet = await _seated(session, ava)
    # Paused, the table's own timers are still, so anything Ava hears would come from Ben.
    await sync_to_async(session_pause)(session=session)
    await _frame(ava_tablet, "state", where=lambda frame: frame["view"]["paused"])
    ben_tablet = await _seated(session, ben)
    await ben_tablet.disconnect()
    assert await ava_tablet.receive_nothing(timeout=0.3)
    await ava_tablet.disconnect()


async def test_pause_reaches_the_table_and_refuses_play_until_resume(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = playing
    sockets, views = await _seat_all(session, seats)
    await sync_to_async(session_pause)(session=session)
    paused = await _frame(sockets[0], "state", where=lambda frame: frame["view"]["paused"])
    assert paused["events"] == [{"kind": "pause"}]
    flipper = sockets[views[0]["active_seat"]]
    await flipper.send_to(
        text_data=json.dumps({"type": "act", "seq": 3, "action": {"kind": "flip"}})
    )
    assert (await _frame(flipper, "error"))["code"] == "paused"
    await sync_to_async(session_resume)(session=session)
    resumed = await _frame(sockets[0], "state", where=lambda frame: not frame["view"]["paused"])
    assert resumed["events"] == [{"kind": "resume"}]
    for socket in sockets:
        await socket.disconnect()


async def test_a_refusal_reaches_the_child_in_their_language(
    playing: tuple[GameSession, list[Seat]],
) -> None:
    session, (ava, _ben) = playing
    socket = _socket(session.code, ava.token, language="zh-hant")
    assert (await socket.connect(timeout=TIMEOUT))[0]
    await _frame(socket, "state")
    slap = {"kind": "slap", "flip": 9, "rt_ms": 400}
    await socket.send_to(text_data=json.dumps({"type": "act", "seq": 5, "action": slap}))
    error = await _frame(socket, "error")
    assert error["message"] == "那張卡還沒有翻開。"
    assert error["seq"] == 5
    await socket.disconnect()


async def test_a_student_taken_off_the_class_list_mid_game_leaves_the_table_playing(
    make_session: Callable[..., GameSession], teacher: User, client: Client
) -> None:
    """Through the real host: the removed tablet is closed with 4403 and told why, a bot takes
    the seat, the classmate's table keeps flipping with every entry stored, and the name is
    gone from the console, the report and the download."""

    def prepare() -> tuple[GameSession, Seat, Seat, Student]:
        school_class = class_create(
            teacher=teacher, name="Year 5 Herons", student_names=["Zofia Quill", "Ben"]
        )
        session = make_session(
            school_class=school_class, settings={"flip_pacing": "tap", "cards_per_player": 3}
        )
        zofia, ben = (school_class.students.get(display_name=n) for n in ("Zofia Quill", "Ben"))
        seats = [seat_join_student(session=session, student=s) for s in (zofia, ben)]
        session_start(session=session)
        return session, *(Seat.objects.get(pk=seat.pk) for seat in seats), zofia  # type: ignore[return-value]

    session, zofia_seat, ben_seat, zofia = await sync_to_async(prepare)()
    try:
        (zofia_tablet, ben_tablet), views = await _seat_all(session, [zofia_seat, ben_seat])
        await sync_to_async(student_remove)(student=zofia)

        assert (await _frame(zofia_tablet, "error"))["code"] == "removed"
        assert (await zofia_tablet.receive_output(timeout=TIMEOUT))["code"] == 4403
        # Her token opens nothing any more.
        again = _socket(session.code, zofia_seat.token)
        assert (await again.connect(timeout=TIMEOUT))[0]
        assert (await _frame(again, "error"))["code"] == "no_seat"

        # Ben plays on; on the bot's turn the bot flips (it took Zofia's cards and turn).
        ben_index = views[1]["you"]
        seq, flips, flippers, over = 10, 0, set(), False
        for _ in range(80):
            # A bound, not a timing: past the 12 s turn time-out the card flips by itself.
            frame = json.loads(await ben_tablet.receive_from(timeout=TURN_TIMEOUT_S))
            if frame["type"] != "state":
                continue
            view = frame["view"]
            flips = int(view["flip"] or 0)
            events = frame.get("events") or []
            flippers |= {event["seat"] for event in events if event["kind"] == "flip"}
            over = any(event["kind"] == "game_over" for event in events)
            if flips >= 4 or over:
                break
            if view["active_seat"] == ben_index:
                # Refused while a card is still open (an error frame); the next turn's works.
                seq += 1
                await ben_tablet.send_to(
                    text_data=json.dumps({"type": "act", "seq": seq, "action": {"kind": "flip"}})
                )
        assert flips >= 2
        assert 1 - ben_index in flippers
        # Paused, the table writes nothing more: what is stored can be compared with it.
        await sync_to_async(session_pause)(session=session)
        await _frame(ben_tablet, "state", where=lambda frame: frame["view"]["paused"], tries=80)
        host = table_hosts.registry.running(zofia_seat.table_id or 0)
        assert host is not None
        kinds = await sync_to_async(list)(
            ActionLogEntry.objects.filter(table_id=zofia_seat.table_id).values_list(
                "kind", flat=True
            )
        )
        assert "bot" in kinds
        assert len(kinds) == host.version  # every entry stored: no write failed
        await ben_tablet.disconnect()
    finally:
        await table_hosts.registry.stop_all()

    def pages() -> list[str]:
        client.force_login(teacher)
        urls = [
            reverse("session_console", args=[session.pk]),
            reverse("session_projector", args=[session.pk]),
            reverse("session_report", args=[session.pk]),
            reverse("session_export", args=[session.pk, "trials.csv"]),
            reverse("session_export", args=[session.pk, "summary.csv"]),
            reverse("class_export", args=[session.school_class_id, "trials.csv"]),
            reverse("class_detail", args=[session.school_class_id]),
        ]
        bodies = []
        try:
            for url in urls:
                response = client.get(url)
                assert response.status_code == 200, url
                bodies.append(b"".join(response).decode())
                response.close()  # a streamed download finishes its request only here
        finally:
            # This thread's connection, or PostgreSQL will not drop the test database.
            connection.close()
        return bodies

    bodies = await sync_to_async(pages)()
    for body in bodies:
        assert "Zofia" not in body
    assert "Ben" in bodies[0]


@pytest.mark.alone
async def test_a_forged_round_trip_does_not_make_a_too_fast_reaction_time_plausible(
    make_session: Callable[..., GameSession],
) -> None:
    """The server times its own probes to the tablet and judges reaction times by them.

    Ava's tablet claims 101 ms for a slap that reached the server more than a second after
    the card was sent, with a forged round trip of 10 s that would explain the gap: the slap
    is judged on the round trip the server measured, so it is implausible and cannot win.
    Ben's honest slap (its time as this test saw the card) wins.
    """

    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(
            players_per_table=2, settings={"flip_pacing": "tap", "response_window_s": 4.0}
        )
        seats = [seat_join_guest(session=session, nickname=name) for name in ("Ava", "Ben")]
        session_start(session=session)
        return session, [Seat.objects.select_related("table").get(pk=s.pk) for s in seats]

    session, (ava, ben) = await sync_to_async(prepare)()
    # Ava's page as table_socket.js opens it: held to the heartbeat, so probed.
    forger = _socket(session.code, ava.token, query="?heartbeat=1")
    assert (await forger.connect(timeout=TIMEOUT))[0]
    # The first probe goes at once, with no ping asked for; answered at once, as the page does.
    opening: dict[str, dict[str, Any]] = {}
    while len(opening) < 2:
        frame = json.loads(await forger.receive_from(timeout=TIMEOUT))
        if frame["type"] in ("probe", "state"):
            opening.setdefault(frame["type"], frame)
    first = opening["state"]
    honest = _socket(session.code, ben.token)
    assert (await honest.connect(timeout=TIMEOUT))[0]
    ben_seat = (await _frame(honest, "state"))["view"]["you"]
    probe_answer = {"type": "ping", "seq": opening["probe"]["seq"]}
    await forger.send_to(text_data=json.dumps(probe_answer))
    # An answer to a probe gets no pong; the tablet's own ping does.
    await forger.send_to(text_data=json.dumps({"type": "ping", "seq": 1}))
    pong = await _frame(forger, "pong")
    assert pong["seq"] == 1
    flipper = (forger, honest)[first["view"]["active_seat"]]
    await flipper.send_to(
        text_data=json.dumps({"type": "act", "seq": 2, "action": {"kind": "flip"}})
    )
    for socket in (forger, honest):
        await _frame(socket, "state", where=lambda f: f["view"]["flip"] == 1)
    seen = asyncio.get_running_loop().time()
    await asyncio.sleep(1.2)
    forged = {"kind": "slap", "flip": 1, "rt_ms": 101, "rtt_ms": 10_000}
    await forger.send_to(text_data=json.dumps({"type": "act", "seq": 3, "action": forged}))
    await _frame(forger, "ack", where=lambda f: f["seq"] == 3)
    rt = round((asyncio.get_running_loop().time() - seen) * 1000)
    fair = {"kind": "slap", "flip": 1, "rt_ms": rt, "rtt_ms": 0}
    await honest.send_to(text_data=json.dumps({"type": "act", "seq": 3, "action": fair}))
    slaps: dict[int, bool] = {}
    for _ in range(10):
        state = await _frame(honest, "state")
        for event in state["events"]:
            if event["kind"] == "slap":
                slaps[event["seat"]] = event["plausible"]
        if len(slaps) == 2:
            break
    assert slaps == {first["view"]["you"]: False, ben_seat: True}
    stored = await sync_to_async(list)(
        ActionLogEntry.objects.filter(
            kind="act", seat_index=first["view"]["you"], payload__kind="slap"
        ).values_list("payload", flat=True)
    )
    # The log keeps the server's round trip (replay judges it the same), not the forged one.
    assert [payload["rtt_ms"] < 1000 for payload in stored] == [True]
    for socket in (forger, honest):
        await socket.disconnect()
    await table_hosts.registry.stop_all()


@pytest.mark.parametrize("frame", ["probe", "pong"])
async def test_a_frame_to_a_tablet_that_is_closing_is_dropped_quietly(
    frame: str, caplog: pytest.LogCaptureFixture
) -> None:
    # A tablet that closed between two beats, or just after its ping: Daphne raises on the
    # send until its disconnect is handled. The probe or the pong is dropped quietly: a
    # goodbye is no fault worth a traceback in the server's log.
    from autobahn.exception import Disconnected

    from classroom.sockets.table import TableConsumer
    from games.live.round_trip import RoundTrip

    async def closing(**_frame: Any) -> None:
        raise Disconnected("Attempt to send on a closed protocol")

    tablet = TableConsumer()
    tablet.round_trip = RoundTrip()
    tablet.send = closing  # type: ignore[method-assign]
    with caplog.at_level(logging.DEBUG, logger="classroom.sockets"):
        await (tablet._probe() if frame == "probe" else tablet.pinged(7))
    assert f"dropped a {frame} for a closing socket" in caplog.text
    assert not [record for record in caplog.records if record.levelno >= logging.WARNING]


async def test_a_tablet_whose_joining_waits_on_the_database_is_not_closed_as_silent(
    playing: tuple[GameSession, list[Seat]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class joining while a school plays: the tablet's answers wait unread until its
    socket has joined (a socket handles one message at a time), so the silence is counted
    from then, not from the handshake."""
    from functools import partial

    from classroom.sockets import base
    from classroom.sockets import table as table_sockets
    from games.live.heartbeat import SilenceWatchdog

    limit_s = 1.0
    monkeypatch.setattr(base, "SilenceWatchdog", partial(SilenceWatchdog, limit_s=limit_s))
    opened, release = threading.Event(), threading.Event()
    seat_connection_open = table_sockets.seat_connection_open

    def slow_open(**kwargs: Any) -> int:
        # Its number among the seat's sockets waits on a busy database (the shared thread).
        opened.set()
        release.wait(TURN_TIMEOUT_S)
        return seat_connection_open(**kwargs)

    monkeypatch.setattr(table_sockets, "seat_connection_open", slow_open)
    session, (ava, _ben) = playing
    socket = _socket(session.code, ava.token, query="?heartbeat=1")
    assert (await socket.connect(timeout=TIMEOUT))[0]
    assert await sync_to_async(opened.wait, thread_sensitive=False)(TIMEOUT)
    # The tablet pings, as table_socket.js does when it hears nothing; the ping waits unread.
    await socket.send_to(text_data=json.dumps({"type": "ping", "seq": 1}))
    await asyncio.sleep(limit_s * 3)
    release.set()
    # Its view, its ping answered, probed; and not closed, as silence counts from its joining.
    frames = [json.loads(await socket.receive_from(timeout=TIMEOUT)) for _ in range(3)]
    assert sorted(frame["type"] for frame in frames) == ["pong", "probe", "state"]
    assert next(frame for frame in frames if frame["type"] == "state")["view"]["you"] == 0
    assert await socket.receive_nothing(timeout=limit_s / 4)
    await socket.disconnect()
