"""Presence across processes: a seat's socket counts while the process holding it is alive."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.test import override_settings

from classroom.models import SeatConnection
from classroom.processes import PROCESS_ID, process_alive_mark, processes_alive
from classroom.selectors.sessions import seat_is_connected, seats_with_presence
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from collections.abc import Iterator

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db

OTHER = "f" * 32


@pytest.fixture(autouse=True)
def _empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


def _mark_alive(process_id: str) -> None:
    cache.set(f"snapclass:process:{process_id}:alive", 1, timeout=15)


def test_alone_only_this_process_is_alive() -> None:
    _mark_alive(OTHER)
    assert processes_alive([OTHER, PROCESS_ID]) == {PROCESS_ID}


@override_settings(REDIS_URL="redis://cluster")
def test_in_a_cluster_a_process_that_said_it_lives_is_alive() -> None:
    process_alive_mark()
    _mark_alive(OTHER)
    assert processes_alive([OTHER, "0" * 32]) == {PROCESS_ID, OTHER}


@override_settings(REDIS_URL="redis://cluster")
def test_a_tablet_on_another_live_process_shows_as_connected(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Ava")
    SeatConnection.objects.create(seat=seat, channel_name="elsewhere", process_id=OTHER)
    assert not seat_is_connected(seat=seat)  # that process never said it was alive
    _mark_alive(OTHER)
    assert seat_is_connected(seat=seat)
    assert seats_with_presence(session=guest_session).get(pk=seat.pk).connected
