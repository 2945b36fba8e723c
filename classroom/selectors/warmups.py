"""Which seats still have their warm-up to do, and what the warm-ups measured."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import GameSession, Warmup

if TYPE_CHECKING:
    from classroom.models import Seat


def seat_warmup_due(*, seat: Seat, plays: bool) -> bool:
    """The seat's page shows the warm-up first: the session asks for it, the seat has neither
    done nor skipped it, and (in a class game) the game has not started for the seat
    (``plays``), so it never holds a child out of a running class game."""
    session = seat.session
    if not session.warmup or session.status == GameSession.Status.ENDED:
        return False
    if plays and session.kind != GameSession.Kind.PRACTICE:
        return False
    return not Warmup.objects.filter(seat=seat).exists()


def seat_warmup(*, seat: Seat) -> Warmup | None:
    """The seat's warm-up with its device, if it did one."""
    return Warmup.objects.select_related("device").filter(seat=seat).first()


def session_warmups(*, session: GameSession) -> dict[int, Warmup]:
    """Seat pk -> its warm-up, for the session's seats that did one."""
    return {
        warmup.seat_id: warmup
        for warmup in Warmup.objects.select_related("device").filter(seat__session=session)
    }
