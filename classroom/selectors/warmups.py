"""Which seats still have their warm-up to do, and what the warm-ups measured."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from classroom.analytics.decision_time import decision_time_ms, simple_rt_kept
from classroom.gamesite import game_site
from classroom.models import GameSession, Warmup
from classroom.selectors.analytics import human_trials, measures_by

if TYPE_CHECKING:
    from datetime import datetime

    from classroom.analytics.measures import Measures
    from classroom.models import Device, Seat, Student

# A progress page lists the child's latest warm-ups, no more.
RECENT_WARMUPS = 10


@dataclass(frozen=True)
class DecisionTime:
    """A seat's warm-up beside its game RT: the simple RT (median of ``kept`` taps), the
    game's median RT, and their difference (``None`` where either is missing)."""

    warmup: Warmup
    kept: int
    simple_ms: int | None
    choice_ms: int | None
    decision_ms: int | None

    @property
    def device(self) -> Device | None:
        return self.warmup.device


def choice_median_ms(*, game: str, measures: Measures | None) -> int | None:
    """The game's median RT of ``measures`` (its speed measure, when that is a time)."""
    speed = game_site(game).speed_measure
    if measures is None or speed.unit != "ms":
        return None
    value = speed.value(measures)
    return None if value is None else round(value)


def decision_time(*, warmup: Warmup, choice_ms: int | None) -> DecisionTime:
    return DecisionTime(
        warmup=warmup,
        kept=len(simple_rt_kept(warmup.rts)),
        simple_ms=warmup.median_ms,
        choice_ms=choice_ms,
        decision_ms=decision_time_ms(choice_ms, warmup.median_ms),
    )


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


@dataclass(frozen=True)
class SessionDecision:
    """One session of a child's with a warm-up, for their progress page."""

    played_at: datetime
    game: str
    practice: bool
    decision: DecisionTime


def student_decision_times(*, student: Student, game: str | None) -> list[SessionDecision]:
    """The child's latest warm-ups (of ``game``, or any), newest first, each beside the
    median RT of its session."""
    warmups = Warmup.objects.select_related("device", "seat__session").filter(seat__student=student)
    if game is not None:
        warmups = warmups.filter(seat__session__game=game)
    recent = list(warmups.order_by("-created_at", "-pk")[:RECENT_WARMUPS])
    if not recent:
        return []
    sessions = {warmup.seat.session_id for warmup in recent}
    trials = human_trials().filter(student=student, session__in=sessions)
    measures = {key[0]: m for key, m in measures_by(trials=trials, by=["session"]).items()}
    return [
        SessionDecision(
            played_at=warmup.seat.session.started_at or warmup.seat.session.created_at,
            game=warmup.seat.session.game,
            practice=warmup.seat.session.is_practice,
            decision=decision_time(
                warmup=warmup,
                choice_ms=choice_median_ms(
                    game=warmup.seat.session.game, measures=measures.get(warmup.seat.session_id)
                ),
            ),
        )
        for warmup in recent
    ]
