"""Which seats have a tablet connected right now."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from classroom.events import PresenceChanged, event_publish
from classroom.models import Seat, SeatConnection
from classroom.processes import PROCESS_ID


@transaction.atomic
def seat_connection_open(*, seat_id: int, session_id: int, channel_name: str) -> int:
    """Record a new socket of the seat. Returns its place in the order the seat's sockets
    opened.

    The seat's row is updated first: that locks it, so two sockets of one seat opening at once
    (on any processes) get their numbers one after the other and the newest is well defined.
    A channel name is new for every socket, so the row is inserted outright: no read first and
    no savepoint, which a class's sockets opening at once pay for on the one thread all their
    database calls share.
    """
    Seat.objects.filter(pk=seat_id).update(last_seen_at=timezone.now())
    connection = SeatConnection.objects.create(
        seat_id=seat_id, channel_name=channel_name, process_id=PROCESS_ID
    )
    event_publish(event=PresenceChanged(session_id=session_id))
    return connection.pk


@transaction.atomic
def seat_connection_close(*, channel_name: str) -> None:
    connection = (
        SeatConnection.objects.select_related("seat").filter(channel_name=channel_name).first()
    )
    if connection is None:
        return
    connection.delete()
    Seat.objects.filter(pk=connection.seat_id).update(last_seen_at=timezone.now())
    event_publish(event=PresenceChanged(session_id=connection.seat.session_id))
