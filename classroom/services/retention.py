"""Retention: trials older than a number of days are deleted.

Only Trial rows go. Sessions, seats and each table's action log stay until the teacher
deletes the class; the log holds inputs by seat number, not names. The analytics pages and
downloads then simply have fewer (or no) trials for the old sessions.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from classroom.models import Trial

if TYPE_CHECKING:
    from datetime import datetime

# Deleting in batches keeps each write short, so live tables recording trials on SQLite are
# never held up for long behind one huge DELETE.
BATCH_SIZE = 5000


def trials_prune(*, older_than_days: int, now: datetime | None = None) -> int:
    """Delete trials recorded more than ``older_than_days`` days before ``now``; return how
    many. Raises ``ValueError`` for fewer than 1 day (0 would delete today's trials too)."""
    if older_than_days < 1:
        raise ValueError(f"older_than_days must be at least 1, got {older_than_days}")
    cutoff = (now or timezone.now()) - timedelta(days=older_than_days)
    old = Trial.objects.filter(created_at__lt=cutoff)
    deleted = 0
    while batch := list(old.order_by("pk").values_list("pk", flat=True)[:BATCH_SIZE]):
        count, _per_model = Trial.objects.filter(pk__in=batch).delete()
        deleted += count
    return deleted
