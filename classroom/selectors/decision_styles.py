"""Careful or hasty: each child's EZ-diffusion reading of a session, against the session's
class (``classroom.analytics.diffusion``).

For games whose trials are yes/no choices with errors (``GameSite.signal_detection``). A
child's match cards give the model its three numbers: the hit rate Pc over the match cards
and the mean and variance of the hit RTs. A trial whose RT the server found implausible is
left out of both; anticipations (under 200 ms) are left out of the RTs.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache

from classroom.analytics.diffusion import (
    Diffusion,
    class_cuts,
    decision_style,
    ez_from_trials,
)
from classroom.analytics.speed import ANTICIPATION_FLOOR_MS
from classroom.gamesite import game_site, game_sites
from classroom.models import GameSession, Trial

if TYPE_CHECKING:
    from classroom.models import Student

# The fewest match cards a reading is made from, and the fewest children read in a session
# for its medians to cut by: with fewer the parameters move by more than the gaps between
# children (a child's 40 match cards give v and a to about 20 %, as the known-truth
# simulation shows).
MIN_MATCH_TRIALS = 40
MIN_CHILDREN = 4
# A progress page reads the child's latest class sessions of the game, no more.
RECENT_SESSIONS = 8
_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class StyleReading:
    """One child's reading in one session: ``style`` (a ``diffusion.STYLE_TEXT`` key) when
    there is one; ``matches`` of ``needed`` match cards; the cuts it was read against."""

    matches: int
    needed: int
    fit: Diffusion | None = None
    style: str = ""
    # The session's medians (drift, boundary); None with too few children read.
    cuts: tuple[float, float] | None = None
    children: int = 0

    @property
    def enough(self) -> bool:
        return self.matches >= self.needed

    def position(self) -> tuple[float, float] | None:
        """Where the child sits on the picture, each axis 0-100 with the class median at 50
        (twice the median and beyond at the edge): (drift, boundary)."""
        if self.fit is None or self.cuts is None:
            return None
        drift_cut, boundary_cut = self.cuts

        def share(value: float, cut: float) -> float:
            return max(0.0, min(100.0, 50 * value / cut)) if cut > 0 else 50.0

        return share(self.fit.drift, drift_cut), share(self.fit.boundary, boundary_cut)

    def plot_point(self) -> tuple[int, int] | None:
        """The position as the picture's SVG draws it: x right, y down, in a 100 x 100 box
        (an attribute, not an inline style, which the content policy refuses)."""
        position = self.position()
        if position is None:
            return None
        return round(position[0]), round(100 - position[1])


def _fits(session: GameSession) -> dict[int, tuple[int, Diffusion | None]]:
    """Seat pk -> (its match cards, its EZ fit or None)."""
    rows = Trial.objects.filter(session=session, seat__isnull=False, target=True, plausible=True)
    matches: dict[int, int] = defaultdict(int)
    hits: dict[int, int] = defaultdict(int)
    rts: dict[int, list[int]] = defaultdict(list)
    for seat, responded, correct, rt_ms in rows.values_list(
        "seat", "responded", "correct", "rt_ms"
    ).iterator(chunk_size=4000):
        matches[seat] += 1
        if responded and correct:
            hits[seat] += 1
            if rt_ms is not None and rt_ms >= ANTICIPATION_FLOOR_MS:
                rts[seat].append(rt_ms)
    return {
        seat: (
            count,
            ez_from_trials(correct_rts_ms=rts[seat], correct=hits[seat], trials=count)
            if count >= MIN_MATCH_TRIALS
            else None,
        )
        for seat, count in matches.items()
    }


def session_decision_styles(*, session: GameSession) -> dict[int, StyleReading]:
    """Seat pk -> its reading, for a game that reads one (else empty). Cached by the session
    and its number of trials, so a session still being played is read again as it grows."""
    if not game_site(session.game).signal_detection:
        return {}
    total = Trial.objects.filter(session=session).count()
    key = f"snapclass:decision-styles:{session.pk}:{total}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    fits = _fits(session)
    read = [fit for _count, fit in fits.values() if fit is not None and fit.drift > 0]
    cuts = class_cuts(read) if len(read) >= MIN_CHILDREN else None
    readings = {
        seat: StyleReading(
            matches=count,
            needed=MIN_MATCH_TRIALS,
            fit=fit,
            style=(
                decision_style(fit, drift_cut=cuts[0], boundary_cut=cuts[1])
                if fit is not None and cuts is not None
                else ""
            ),
            cuts=cuts,
            children=len(read),
        )
        for seat, (count, fit) in fits.items()
    }
    cache.set(key, readings, _CACHE_SECONDS)
    return readings


@dataclass(frozen=True)
class SessionStyle:
    """A child's reading in one of their class sessions, for their progress page."""

    session: GameSession
    reading: StyleReading


def student_decision_styles(*, student: Student, game: str | None) -> list[SessionStyle]:
    """The child's readings in their latest class sessions of a game that reads one, newest
    first (practice is a child alone: there is no class to read against)."""
    games = [
        site.slug
        for site in game_sites()
        if site.signal_detection and (game is None or site.slug == game)
    ]
    if not games:
        return []
    seats = (
        student.seats.filter(session__game__in=games, session__kind=GameSession.Kind.CLASS)
        .select_related("session")
        .order_by("-session__started_at", "-pk")[:RECENT_SESSIONS]
    )
    made = []
    for seat in seats:
        reading = session_decision_styles(session=seat.session).get(seat.pk)
        if reading is not None:
            made.append(SessionStyle(session=seat.session, reading=reading))
    return made
