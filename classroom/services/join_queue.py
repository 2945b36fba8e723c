"""Joins that arrive together are seated together (a group commit).

Django answers each request's sync view in a thread of its own, so a class tapping "Join" at
once is dozens of threads racing for the database's one write lock; SQLite's busy handler
then sleeps up to 100 ms between tries while the lock sits free. Here the first join to
arrive leads: it takes every join waiting (of any session) and seats each session's in one
transaction (``seats_join``: one balance, one notice to the pages); joins that arrive
meanwhile wait, and the first of them leads the next batch. A lone join is a batch of one
and waits for nobody.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from classroom.services.seats import seats_join

if TYPE_CHECKING:
    from django.core.exceptions import ValidationError

    from classroom.models import GameSession, Seat
    from classroom.services.seats import JoinRequest


@dataclass(eq=False)
class _Waiting:
    session: GameSession
    request: JoinRequest
    wake: threading.Event = field(default_factory=threading.Event)
    outcome: Seat | ValidationError | Exception | None = None
    leads: bool = False


_lock = threading.Lock()
_queue: list[_Waiting] = []
_leader = False  # a thread is seating a batch now


def seat_join_queued(*, session: GameSession, request: JoinRequest) -> Seat:
    """Seat one student as ``seats_join`` would, together with whoever joins at the same
    moment. Raises the ValidationError of a refused join."""
    global _leader
    waiting = _Waiting(session=session, request=request)
    with _lock:
        _queue.append(waiting)
        if not _leader:
            _leader = waiting.leads = True
    while waiting.outcome is None:
        if waiting.leads:
            _lead()
        else:
            waiting.wake.wait()
            waiting.wake.clear()
    if isinstance(waiting.outcome, Exception):
        raise waiting.outcome
    return waiting.outcome


def _lead() -> None:
    """Seat every join waiting now, then hand the lead to the first that came meanwhile."""
    global _leader
    with _lock:
        batch = list(_queue)
        _queue.clear()
    try:
        _seat(batch)
    finally:
        with _lock:
            if _queue:
                _queue[0].leads = True
                _queue[0].wake.set()
            else:
                _leader = False
        for waiting in batch:
            if waiting.outcome is None:  # never left so, but a waiter must not hang on it
                waiting.outcome = RuntimeError("the join was not seated")
            waiting.leads = False
            waiting.wake.set()


def _seat(batch: list[_Waiting]) -> None:
    by_session: dict[int, list[_Waiting]] = {}
    for waiting in batch:
        by_session.setdefault(waiting.session.pk, []).append(waiting)
    for group in by_session.values():
        outcomes: list[Seat | ValidationError | Exception]
        try:
            outcomes = list(
                seats_join(
                    session=group[0].session, requests=[waiting.request for waiting in group]
                )
            )
        except Exception as error:
            # Something no refusal covers: one by one, so it fails only the join it is in.
            outcomes = [_seat_alone(waiting) for waiting in group] if len(group) > 1 else [error]
        for waiting, outcome in zip(group, outcomes, strict=True):
            waiting.outcome = outcome


def _seat_alone(waiting: _Waiting) -> Seat | ValidationError | Exception:
    try:
        (outcome,) = seats_join(session=waiting.session, requests=[waiting.request])
    except Exception as error:
        return error
    return outcome
