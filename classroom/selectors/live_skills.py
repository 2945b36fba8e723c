"""A console's live skills, kept between its draws.

``session_dashboard`` reads every trial of the session; the console draws it every couple of
seconds all lesson long, so its cost grew with the lesson (37 ms a draw at 200 trials a
student, for each console, on the thread every socket's rendering shares). ``LiveSkills``
keeps what it read: each draw reads the trials recorded since the last one (a count per seat
in one aggregate, the new scored RTs in one query), and recomputes the measures of the seats
that had any.

Trials are only ever added while a session plays, in id order, so the ones since the last
draw are those with a higher id. Each draw checks that: the session's count of trials must be
what was read plus what is new. It is not when a trial committed late under a lower id (two
processes writing to PostgreSQL at once) or trials were deleted; the draw then reads the
whole session again, so the figures are never off for longer than one draw.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Max

from classroom.analytics.measures import CorrectRts, Measures, Tally, measures_from
from classroom.analytics.needs_help import Step
from classroom.analytics.speed import rolling_medians
from classroom.selectors.analytics import (
    ROLLING_RESPONSES,
    Dashboard,
    Key,
    dashboard_build,
    human_trials,
    trial_tallies,
)

if TYPE_CHECKING:
    from django.db.models import QuerySet

    from classroom.models import GameSession, Trial


@dataclass
class _SeatSkills:
    tally: Tally = field(default_factory=Tally)
    # Scored RTs, sorted (what ``measures_from`` takes), all and by congruence.
    sorted_all: list[int] = field(default_factory=list)
    sorted_congruent: list[int] = field(default_factory=list)
    sorted_incongruent: list[int] = field(default_factory=list)
    # Scored RTs as they came, and their rolling medians.
    in_order: list[int] = field(default_factory=list)
    rolling: list[float] = field(default_factory=list)
    # Every trial in order, for the "needs help" mark.
    steps: list[Step] = field(default_factory=list)
    measures: Measures | None = None  # None: to compute again

    def add_rt(self, rt: int, congruent: bool | None) -> None:
        bisect.insort(self.sorted_all, rt)
        if congruent is True:
            bisect.insort(self.sorted_congruent, rt)
        elif congruent is False:
            bisect.insort(self.sorted_incongruent, rt)
        self.in_order.append(rt)
        self.measures = None

    def current_measures(self) -> Measures:
        if self.measures is None:
            rts = CorrectRts(
                all=self.sorted_all,
                congruent=self.sorted_congruent,
                incongruent=self.sorted_incongruent,
            )
            self.measures = measures_from(self.tally, rts)
        return self.measures


class LiveSkills:
    """One console's live skills: ``dashboard`` equals ``session_dashboard`` of the session,
    read incrementally (see the module's docstring)."""

    def __init__(self) -> None:
        self._forget(session_id=None)
        # How many draws read the whole session (the first, and each whose count was off).
        self.full_reads = 0

    def _forget(self, *, session_id: int | None) -> None:
        self._session_id = session_id
        self._last_pk = 0
        self._count = 0
        self._seats: dict[int, _SeatSkills] = {}

    def dashboard(self, *, session: GameSession) -> Dashboard:
        if session.pk != self._session_id:
            self._forget(session_id=session.pk)
        trials = human_trials().filter(session=session)
        totals = trials.aggregate(last=Max("pk"), count=Count("pk"))
        last = totals["last"] or 0
        reading_all = self._last_pk == 0
        new = trials.filter(pk__gt=self._last_pk, pk__lte=last)
        tallies = trial_tallies(trials=new, by=["seat"])
        if not reading_all and self._count + _trials_in(tallies) != totals["count"]:
            self._forget(session_id=session.pk)
            reading_all = True
            new = trials.filter(pk__lte=last)
            tallies = trial_tallies(trials=new, by=["seat"])
        self.full_reads += reading_all
        self._add(new, tallies)
        self._last_pk = last
        seats = self._seats
        return dashboard_build(
            session=session,
            measures={seat_id: seat.current_measures() for seat_id, seat in seats.items()},
            in_order={seat_id: seat.in_order for seat_id, seat in seats.items() if seat.in_order},
            rolling={seat_id: seat.rolling for seat_id, seat in seats.items()},
            steps={seat_id: seat.steps for seat_id, seat in seats.items()},
        )

    def _add(self, new: QuerySet[Trial], tallies: dict[Key, Tally]) -> None:
        for (seat_id,), tally in tallies.items():
            seat = self._seats.setdefault(seat_id, _SeatSkills())
            seat.tally = seat.tally + tally
            seat.measures = None
            self._count += tally.trials
        # One read of the new trials in order: every trial is a step of the "needs help"
        # detector, and the scored ones (as ``scored_responses`` picks them) are the RTs.
        rts: dict[int, list[tuple[int, bool | None]]] = defaultdict(list)
        rows = new.order_by("pk").values_list(
            "seat", "responded", "correct", "rt_ms", "plausible", "congruent"
        )
        for seat_id, responded, correct, rt, plausible, congruent in rows:
            if seat_id is None:
                continue  # never: human trials have a seat
            step = Step(responded=bool(responded), correct=correct, rt_ms=rt, plausible=plausible)
            self._seats.setdefault(seat_id, _SeatSkills()).steps.append(step)
            if correct and responded and plausible and rt is not None:
                rts[seat_id].append((rt, congruent))
        for seat_id, seat_rts in rts.items():
            # setdefault: a trial that committed after the count lands here first; the next
            # draw finds the count off and reads the session again.
            seat = self._seats.setdefault(seat_id, _SeatSkills())
            since = len(seat.in_order)
            for rt, congruent in seat_rts:
                seat.add_rt(rt, congruent)
            seat.rolling += rolling_medians(seat.in_order, window=ROLLING_RESPONSES, since=since)


def _trials_in(tallies: dict[Key, Tally]) -> int:
    return sum(tally.trials for tally in tallies.values())
