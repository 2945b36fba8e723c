"""Who hears of a lobby change: every page, only the tables that changed, or the teacher's."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers, get_channel_layer

from classroom.models import Seat
from classroom.pages.notify import session_group, teachers_group
from classroom.services.presence import seat_connection_open
from classroom.services.seats import seat_join_guest
from classroom.sockets.pages import SeatConsumer

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from classroom.models import GameSession

    MakeSession = Callable[..., GameSession]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> Iterator[None]:
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


async def _listen(group: str) -> str:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    return channel


async def _next(channel: str) -> dict[str, Any]:
    layer = get_channel_layer()
    assert layer is not None
    return dict(await asyncio.wait_for(layer.receive(channel), timeout=5))


async def test_a_join_names_the_tables_whose_players_changed(make_session: MakeSession) -> None:
    session = await sync_to_async(make_session)(players_per_table=2)
    await sync_to_async(seat_join_guest)(session=session, nickname="Ann")
    await sync_to_async(seat_join_guest)(session=session, nickname="Ben")
    pages = await _listen(session_group(session.pk))

    # Two tables of two are full: Cai needs a third, and nobody else moves.
    cai = await sync_to_async(seat_join_guest)(session=session, nickname="Cai")
    message = await _next(pages)
    table_id = (await sync_to_async(Seat.objects.get)(pk=cai.pk)).table_id
    assert message == {"type": "lobby.changed", "tables": [table_id]}


async def test_a_tablet_connecting_tells_the_teachers_pages_only(make_session: MakeSession) -> None:
    session = await sync_to_async(make_session)(players_per_table=2)
    seat = await sync_to_async(seat_join_guest)(session=session, nickname="Ann")
    teachers = await _listen(teachers_group(session.pk))
    pages = await _listen(session_group(session.pk))

    await sync_to_async(seat_connection_open)(
        seat_id=seat.pk, session_id=session.pk, channel_name="tablet-1"
    )
    assert await _next(teachers) == {"type": "lobby.changed"}
    layer = get_channel_layer()
    assert layer is not None
    with pytest.raises(TimeoutError):
        # Sent at once or not at all: the teachers' copy above has already arrived.
        await asyncio.wait_for(layer.receive(pages), timeout=0.2)


@pytest.mark.parametrize(
    ("shown", "event", "redraws"),
    [
        (None, {"tables": [2]}, True),  # not drawn yet: every change may concern it
        (1, {}, True),  # a change for every page (start, a move by the teacher)
        (1, {"tables": [1, 3]}, True),
        (1, {"tables": [2, 3]}, False),  # a join at other tables
        (1, {"tables": []}, False),
    ],
)
def test_a_tablet_redraws_only_for_its_own_table(
    shown: int | None, event: dict[str, Any], redraws: bool
) -> None:
    socket = SeatConsumer()
    socket.shown_table_id = shown
    assert socket.concerns(event) is redraws
