"""Following others in a session (``classroom.analytics.following``), read from its stored
trials of the game's ``GameSite.following_kind``: every child's trial of a flip is written when
the flip's window closes, under that flip's log entry, so a table and a log entry are one
flip."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.analytics.following import FlipResponse, Following, flips_grouped, following_by_seat
from classroom.gamesite import game_site
from classroom.selectors.analytics import human_trials

if TYPE_CHECKING:
    from classroom.models import GameSession


def session_following(*, session: GameSession) -> dict[int, Following]:
    """Each seat's false slaps following others and alone, by seat id; empty for a session of
    a game without the measure. Trials with no target (a claim on the centre in team play) are
    left out: such a claim is not a slap at one card."""
    kind = game_site(session.game).following_kind
    if not kind:
        return {}
    rows = (
        human_trials()
        .filter(session=session, game=session.game, kind=kind, target__isnull=False)
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
