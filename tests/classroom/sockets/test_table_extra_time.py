"""Extra time through the full ASGI stack with a real host: the child with x2 gets twice the
table's window on their own tablet, and the child beside them keeps the table's."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from asgiref.sync import sync_to_async

from classroom.hosting import table_hosts
from classroom.models import Seat
from classroom.services.classes import student_extra_time_set
from classroom.services.seats import seat_join_student
from classroom.services.sessions import session_start
from tests.classroom.sockets.test_table import _frame, _seat_all

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db(transaction=True)

WINDOW_MS = 2500  # the session's response window: the default 2.5 s


async def test_a_seat_with_double_time_gets_twice_the_window_and_the_other_keeps_its_own(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    def prepare() -> tuple[GameSession, list[Seat]]:
        ava = school_class.students.get(display_name="Ava")
        student_extra_time_set(student=ava, extra_time="x2")
        session = make_session(
            school_class=school_class, players_per_table=2, settings={"flip_pacing": "tap"}
        )
        seats = [
            seat_join_student(session=session, student=school_class.students.get(display_name=n))
            for n in ("Ava", "Ben")
        ]
        session_start(session=session)
        return session, [Seat.objects.get(pk=seat.pk) for seat in seats]

    session, seats = await sync_to_async(prepare)()
    try:
        sockets, views = await _seat_all(session, seats)
        active = views[0]["active_seat"]
        you = {socket: view["you"] for socket, view in zip(sockets, views, strict=True)}
        flipper = next(s for s in sockets if you[s] == active)
        await flipper.send_to(
            text_data=json.dumps({"type": "act", "seq": 1, "action": {"kind": "flip"}})
        )
        closes = []
        flips = []
        for socket in sockets:
            state = await _frame(socket, "state", where=lambda f: f["view"]["flip"] == 1)
            closes.append(state["view"]["window_closes_ms"])
            flips += [event for event in state["events"] if event.get("kind") == "flip"]
        ava_closes, ben_closes = closes
        # The card opened a table's window before Ben's closes (the default 2.5 s): Ava's
        # own window ends a whole table's window after his, so hers is 5 s.
        assert ava_closes - ben_closes == WINDOW_MS
        # The card stays on the table until the longest window has ended.
        assert flips
        assert {event["closes_ms"] for event in flips} == {ava_closes}
        for socket in sockets:
            await socket.disconnect()
    finally:
        await table_hosts.registry.stop_all()
