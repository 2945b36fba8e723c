"""Reads for run validity: each seat's trials of a session, judged as a whole
(``classroom.analytics.validity``)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from classroom.analytics.validity import RunTrial, Validity, run_validity, yes_no_chance
from classroom.models import GameSession, Trial

if TYPE_CHECKING:
    from datetime import datetime

_FIELDS = ("seat", "created_at", "target", "responded", "correct", "rt_ms")


def _ms(moment: datetime) -> float:
    return moment.timestamp() * 1000


def session_run_validity(*, session: GameSession) -> dict[int, Validity]:
    """Each seated player's run of the session (by seat id): its validity flags.

    Trials are taken in the order they closed, with the time each was written. Accuracy is
    tested against chance only in a run with noise trials (a response not called for), where
    guessing has a rate to compare with; in a game with none, answering more is always right.
    """
    rows = (
        Trial.objects.filter(session=session, seat__isnull=False)
        .order_by("seat", "created_at", "log_seq")
        .values_list(*_FIELDS)
    )
    runs: dict[int, list[RunTrial]] = defaultdict(list)
    for seat, created_at, target, responded, correct, rt_ms in rows.iterator(chunk_size=4000):
        runs[seat].append(RunTrial(_ms(created_at), target, responded, correct, rt_ms))
    return {
        seat: run_validity(
            trials,
            chance=yes_no_chance(trials) if any(t.target is False for t in trials) else None,
        )
        for seat, trials in runs.items()
    }
