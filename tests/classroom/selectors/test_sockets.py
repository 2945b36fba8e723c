"""What the sockets read: whose session or table it is, which seat a token holds."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import AnonymousUser, User

from classroom.models import ClassShare
from classroom.selectors.sockets import (
    seat_find_by_token,
    seat_playing_find,
    seat_token_valid,
    session_visible_to,
    table_visible_to,
)
from classroom.services.class_shares import class_share_grant, class_share_revoke
from classroom.services.seats import seat_join_guest, seat_join_student, seat_kick
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


def test_only_the_sessions_teacher_may_watch_a_guest_session(
    guest_session: GameSession, teacher: User, other_teacher: User
) -> None:
    assert session_visible_to(session_id=guest_session.pk, user=teacher)
    assert not session_visible_to(session_id=guest_session.pk, user=other_teacher)
    assert not session_visible_to(session_id=guest_session.pk, user=AnonymousUser())
    assert not session_visible_to(session_id=guest_session.pk, user=None)


def test_a_table_of_another_session_is_not_watched_through_this_one(
    guest_session: GameSession, teacher: User
) -> None:
    assert not table_visible_to(session_id=guest_session.pk, table_id=10**9, user=teacher)


def test_the_teachers_of_a_shared_class_watch_its_sessions_until_the_share_is_revoked(
    class_session: GameSession,
    guest_session: GameSession,
    school_class: SchoolClass,
    teacher: User,
    other_teacher: User,
) -> None:
    seat_join_student(session=class_session, student=school_class.students.first())
    session_start(session=class_session)
    table = class_session.tables.get()
    class_share_grant(
        school_class=school_class, by=teacher, colleague=other_teacher.username,
        role=ClassShare.Role.SUBSTITUTE,
    )  # fmt: skip
    assert session_visible_to(session_id=class_session.pk, user=other_teacher)
    assert table_visible_to(session_id=class_session.pk, table_id=table.pk, user=other_teacher)
    # The owner's guest sessions are not the class's.
    assert not session_visible_to(session_id=guest_session.pk, user=other_teacher)

    class_share_revoke(share=ClassShare.objects.get(), by=teacher)
    assert not session_visible_to(session_id=class_session.pk, user=other_teacher)
    assert not table_visible_to(session_id=class_session.pk, table_id=table.pk, user=other_teacher)
    assert session_visible_to(session_id=class_session.pk, user=teacher)


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
