"""A class session with adaptive difficulty: each table starts where its students left off,
its tablets see the level, and every trial records the level it was played at."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async

from classroom.hosting import table_hosts
from classroom.models import Seat, Trial
from classroom.services.seats import seat_join_student
from classroom.services.sessions import session_start
from tests.classroom.sockets.test_table import _seat_all

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
async def adaptive_table(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> AsyncIterator[tuple[GameSession, list[Seat]]]:
    def prepare() -> tuple[GameSession, list[Seat]]:
        session = make_session(
            school_class=school_class, players_per_table=2, settings={"flip_pacing": "tap"}
        )
        session.adaptive = True
        session.save(update_fields=["adaptive"])
        ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
        # Ava played at rung 5 before; Ben never played adaptively.
        earlier = make_session(school_class=school_class)
        old_seat = seat_join_student(session=earlier, student=ava)
        session_start(session=earlier)
        old_seat.refresh_from_db()
        assert old_seat.table is not None
        Trial.objects.create(
            session=earlier, table=old_seat.table, seat=old_seat, student=ava, log_seq=1,
            game="palm_strike", kind="palm_strike.flip", data={"rung": 5},
        )  # fmt: skip
        seats = [seat_join_student(session=session, student=s) for s in (ava, ben)]
        session_start(session=session)
        return session, [Seat.objects.select_related("table").get(pk=s.pk) for s in seats]

    yield await sync_to_async(prepare)()
    await table_hosts.registry.stop_all()


async def test_the_table_starts_at_its_weakest_players_level_shows_it_and_records_it(
    adaptive_table: tuple[GameSession, list[Seat]],
) -> None:
    session, seats = adaptive_table
    ava = seats[0]
    assert ava.table is not None
    roster: list[dict[str, Any]] = ava.table.roster
    assert [entry.get("rung") for entry in roster] == [5, 0]
    sockets, views = await _seat_all(session, seats)
    assert views[0]["adaptive"] == {"rung": 0, "rungs": 9}
    assert views[0]["level"] == "beginner"
    flipper = sockets[views[0]["active_seat"]]
    await flipper.send_to(
        text_data=json.dumps({"type": "act", "seq": 1, "action": {"kind": "flip"}})
    )
    # Nobody slaps; when the 3.5 s window closes, both children's trials are written.
    for _ in range(40):
        rungs = await sync_to_async(list)(
            Trial.objects.filter(session=session).values_list("data__rung", flat=True)
        )
        if len(rungs) == 2:
            break
        await asyncio.sleep(0.2)
    assert rungs == [0, 0]
    for socket in sockets:
        await socket.disconnect()
