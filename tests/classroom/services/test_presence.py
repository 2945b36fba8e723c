"""Which seats have a tablet connected: each socket's row, in the order the sockets opened."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import IntegrityError, connection
from django.test.utils import CaptureQueriesContext

from classroom.models import Seat, SeatConnection
from classroom.processes import PROCESS_ID
from classroom.services.presence import seat_connection_close, seat_connection_open
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db


def test_each_socket_of_a_seat_gets_a_later_number(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    seat = seat_join_guest(session=session, nickname="Ann")

    first = seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="a")
    second = seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="b")

    assert second > first
    rows = SeatConnection.objects.filter(seat=seat).order_by("pk")
    assert [(row.channel_name, row.process_id) for row in rows] == [
        ("a", PROCESS_ID),
        ("b", PROCESS_ID),
    ]
    seat.refresh_from_db()
    assert seat.last_seen_at is not None


def test_opening_a_socket_reads_nothing_first(make_session: Callable[..., GameSession]) -> None:
    # A class's sockets open on the one thread all their database calls share: the seat's
    # row is touched (its lock orders the numbers) and the socket's row inserted, no more.
    session = make_session()
    seat = seat_join_guest(session=session, nickname="Ann")
    with CaptureQueriesContext(connection) as queries:
        seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="a")
    statements = [query["sql"].split()[0] for query in queries.captured_queries]
    assert [word for word in statements if word not in {"SAVEPOINT", "RELEASE"}] == [
        "UPDATE",
        "INSERT",
    ]


def test_a_channel_name_is_recorded_once(make_session: Callable[..., GameSession]) -> None:
    session = make_session()
    seat = seat_join_guest(session=session, nickname="Ann")
    seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="a")

    with pytest.raises(IntegrityError):
        seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="a")
    assert SeatConnection.objects.filter(channel_name="a").count() == 1


def test_closing_forgets_the_socket_and_notes_when_it_was_seen(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    seat = seat_join_guest(session=session, nickname="Ann")
    seat_connection_open(seat_id=seat.pk, session_id=session.pk, channel_name="a")
    Seat.objects.filter(pk=seat.pk).update(last_seen_at=None)

    seat_connection_close(channel_name="a")
    seat_connection_close(channel_name="never-opened")  # nothing to do, and no error

    assert not SeatConnection.objects.filter(seat=seat).exists()
    seat.refresh_from_db()
    assert seat.last_seen_at is not None
