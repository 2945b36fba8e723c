"""Following others in a Palm Strike session (``classroom.analytics.following``), read from its
stored trials: every child's trial of a flip is written when the flip's window closes, under
that flip's log entry, so a table and a log entry are one flip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.analytics.following import FlipResponse, Following, flips_grouped, following_by_seat
from classroom.gamesite.palm_strike import FLIP
from classroom.selectors.analytics import human_trials

if TYPE_CHECKING:
    from classroom.models import GameSession

GAME = "palm_strike"


def session_following(*, session: GameSession) -> dict[int, Following]:
    """Each seat's false slaps following others and alone, by seat id; empty for a session of
    another game. Team flips are left out: a claim on the centre is not a slap at one card."""
    if session.game != GAME:
        return {}
    rows = (
        human_trials()
        .filter(session=session, game=GAME, kind=FLIP, target__isnull=False)
        .order_by("pk")
        .values_list("table", "log_seq", "seat", "target", "responded", "rt_ms")
    )
    flips = flips_grouped(
        (
            (table, log_seq),
            FlipResponse(seat=seat, target=bool(target), responded=bool(responded), rt_ms=rt_ms),
        )
        for table, log_seq, seat, target, responded, rt_ms in rows
    )
    return following_by_seat(flips.values())
