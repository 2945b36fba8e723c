"""Retention: sessions over for longer than a number of days are deleted whole.

A session holds children's names (seats, each table's roster) and their responses (trials,
and every reaction time again in its tables' action log, tied to a seat by its place in the
roster). Deleting only some of it would leave the rest identifiable, so an old session goes
with everything of it: tables, rosters, seats, action log and trials. Sessions still within
the limit are kept whole, so every kept game still replays.

A session is old when its last moment is: its end; for one never ended (a lobby left open, a
practice the child walked away from) its start or creation, unless its tables logged play
since. The class list itself (students' display names and badges) is kept until the teacher
removes the student or deletes the class.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from classroom.models import ActionLogEntry, GameSession, Trial

if TYPE_CHECKING:
    from datetime import datetime

    from django.db.models import Model, QuerySet

# Each batch is one short statement, and the purge rests between batches: a live table's write
# waiting on SQLite's lock polls it (1, 2, 5 … 100 ms apart) and finds it free at its next try,
# so it waits for about one batch, never for the whole session. The batches are small because
# the task worker runs at the lowest CPU priority: the fewer steps a batch takes, the less
# likely the worker is set aside while it holds the lock (``make bench-purge``).
BATCH_SIZE = 20
BATCH_PAUSE_S = 0.01


@dataclass(frozen=True)
class Pruned:
    sessions: int
    trials: int


def rows_delete_batched(rows: QuerySet[Model]) -> int:
    """Delete ``rows`` ``BATCH_SIZE`` at a time, each batch its own short statement."""
    model = rows.model
    deleted = last = 0
    ids = rows.order_by("pk").values_list("pk", flat=True)
    # After the last batch's highest id: nothing is written to rows being purged.
    while batch := list(ids.filter(pk__gt=last)[:BATCH_SIZE]):
        if last:
            time.sleep(BATCH_PAUSE_S)
        count, _per_model = model._default_manager.filter(pk__in=batch).delete()
        deleted += count
        last = batch[-1]
    return deleted


def session_rows_delete(*, session_id: int) -> int:
    """Delete a session and everything of it (trials and log first, in batches); return how
    many trials went."""
    trials = rows_delete_batched(Trial.objects.filter(session_id=session_id))
    rows_delete_batched(ActionLogEntry.objects.filter(table__session_id=session_id))
    with transaction.atomic():
        # Tables (with their rosters), seats and their connections cascade.
        GameSession.objects.filter(pk=session_id).delete()
    return trials


def sessions_purge() -> Pruned:
    """Remove every session marked deleted (``deleted_at``: by its teacher, or by the
    retention prune) with everything of it, a short batch at a time; a purge cut off is taken
    up by the next (the worker asks for one when it starts). Say how many went."""
    sessions = trials = 0
    for session_id in GameSession.objects.filter(deleted_at__isnull=False).values_list(
        "pk", flat=True
    ):
        trials += session_rows_delete(session_id=session_id)
        sessions += 1
    return Pruned(sessions=sessions, trials=trials)


def sessions_prune(*, older_than_days: int, now: datetime | None = None) -> Pruned:
    """Delete every session whose last moment is more than ``older_than_days`` days before
    ``now``, with everything of it; say how many sessions and trials went. Raises
    ``ValueError`` for fewer than 1 day (0 would delete today's sessions too).

    The old sessions are marked deleted first, in one statement (no page finds them from
    then on), and then purged a batch at a time."""
    if older_than_days < 1:
        raise ValueError(f"older_than_days must be at least 1, got {older_than_days}")
    now = now or timezone.now()
    cutoff = now - timedelta(days=older_than_days)
    old = GameSession.objects.annotate(
        last=Coalesce(F("ended_at"), F("started_at"), F("created_at"))
    ).filter(last__lt=cutoff, deleted_at__isnull=True)
    # Never ended, but still being played.
    played = ActionLogEntry.objects.filter(table__session=OuterRef("pk"), created_at__gte=cutoff)
    old = old.filter(Q(status=GameSession.Status.ENDED) | ~Exists(played))
    GameSession.objects.filter(pk__in=list(old.values_list("pk", flat=True))).update(deleted_at=now)
    return sessions_purge()
