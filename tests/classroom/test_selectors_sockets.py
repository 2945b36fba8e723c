"""What the sockets read: whose session or table it is, which seat a token holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import AnonymousUser, User

from classroom.selectors.sockets import (
    seat_find_by_token,
    seat_playing_find,
    seat_token_valid,
    session_owned_by,
    table_owned_by,
)
from classroom.services.seats import seat_join_guest, seat_kick

if TYPE_CHECKING:
    from classroom.models import GameSession

pytestmark = pytest.mark.django_db


def test_only_the_sessions_teacher_owns_it(
    guest_session: GameSession, teacher: User, other_teacher: User
) -> None:
    assert session_owned_by(session_id=guest_session.pk, user=teacher)
    assert not session_owned_by(session_id=guest_session.pk, user=other_teacher)
    assert not session_owned_by(session_id=guest_session.pk, user=AnonymousUser())
    assert not session_owned_by(session_id=guest_session.pk, user=None)


def test_a_table_of_another_session_is_not_owned_through_this_one(
    guest_session: GameSession, teacher: User
) -> None:
    assert not table_owned_by(session_id=guest_session.pk, table_id=10**9, user=teacher)


def test_a_kicked_seat_is_found_by_its_token_but_plays_nowhere(
    guest_session: GameSession,
) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Otter")
    assert seat_find_by_token(code=guest_session.code, token=seat.token) == seat
    assert seat_token_valid(seat_id=seat.pk, token=seat.token)
    seat_kick(seat=seat)
    assert seat_find_by_token(code=guest_session.code, token=seat.token) == seat
    assert seat_playing_find(code=guest_session.code, token=seat.token) is None
    assert not seat_token_valid(seat_id=seat.pk, token=seat.token)


def test_no_token_or_a_wrong_code_finds_no_seat(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Otter")
    assert seat_find_by_token(code=guest_session.code, token="") is None
    assert seat_find_by_token(code="ZZZZZZ", token=seat.token) is None
    assert seat_playing_find(code=guest_session.code, token="") is None
