"""What the WebSocket consumers read: whose session or table a page may watch, which seat a
tablet's token opens. Writes (presence rows) stay in ``classroom.services.presence``."""

from __future__ import annotations

from typing import NamedTuple, TypeGuard

from django.contrib.auth.models import User

from classroom.models import Seat, Table
from classroom.selectors.practice_access import practice_seat_problem
from classroom.selectors.sessions import sessions_kept, sessions_visible
from classroom.selectors.standings import TabletStandings, standings_for_tablets
from classroom.selectors.unique_rows import unique_row


class PlayingSeat(NamedTuple):
    seat_id: int
    table_id: int
    seat_index: int  # the engine's
    session_id: int
    standings: TabletStandings
    # Which of the session's games the seat's table plays (Play again deals the next).
    game_number: int = 1


def _still_active(user: object) -> TypeGuard[User]:
    """Whether the scope's user (an AnonymousUser when nobody is signed in) is a teacher whose
    account is enabled now: read again, since a socket keeps the user it opened with while a
    school admin may disable the account (``classroom.services.teacher_accounts``)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return False
    return User.objects.filter(pk=user.pk, is_active=True).exists()


def session_visible_to(*, session_id: int, user: object) -> bool:
    """Whether ``user`` (a socket scope's user, perhaps anonymous) may watch the session: its
    teacher, or a teacher of its class (``sessions_visible``)."""
    if not _still_active(user):
        return False
    return sessions_visible(teacher=user).filter(pk=session_id).exists()


def table_visible_to(*, session_id: int, table_id: int, user: object) -> bool:
    """Whether ``user`` may watch the session this table belongs to."""
    if not _still_active(user):
        return False
    return Table.objects.filter(
        pk=table_id, session_id=session_id, session__in=sessions_visible(teacher=user)
    ).exists()


def seat_find_by_token(*, code: str, token: str) -> Seat | None:
    """The seat a token holds in the session with this join code, kicked or not, or None;
    with its session and table, as its lobby shows them."""
    if not token:
        return None
    seats = Seat.objects.select_related("session", "table")
    return unique_row(seats.filter(session__in=sessions_kept(), session__code=code, token=token))


def seat_playing_find(*, code: str, token: str) -> PlayingSeat | None:
    """The seat of a token at a playing table, or None."""
    seat = (
        unique_row(
            Seat.objects.select_related("session", "table").filter(
                session__in=sessions_kept(),
                session__code=code,
                token=token,
                kicked_at__isnull=True,
            )
        )
        if token
        else None
    )
    if seat is None or seat.table is None or practice_seat_problem(seat=seat):
        return None
    for index, entry in enumerate(seat.table.roster):
        if entry.get("seat_id") == seat.pk:
            standings = standings_for_tablets(session=seat.session)
            return PlayingSeat(
                seat.pk, seat.table.pk, index, seat.session_id, standings, seat.table.game_number
            )
    return None


def seat_token_valid(*, seat_id: int, token: str) -> bool:
    """Whether the seat is still this token's: not kicked, the token not replaced."""
    return Seat.objects.filter(pk=seat_id, token=token, kicked_at__isnull=True).exists()
