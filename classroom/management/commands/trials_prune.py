"""``manage.py trials_prune [--days N]``: delete every session over for more than N days,
whole: seats, names, rosters, action log and trials (see ``classroom.services.retention``);
N defaults to the ``TRIAL_RETENTION_DAYS`` setting."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.services.retention import sessions_prune

if TYPE_CHECKING:
    from argparse import ArgumentParser


class Command(BaseCommand):
    help = (
        "Delete sessions over for more than N days, with their seats, names, logs and trials "
        "(default: the TRIAL_RETENTION_DAYS setting)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help="Delete sessions over for more than this many days (at least 1).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        days: int | None = options["days"]
        if days is None:
            days = getattr(settings, "TRIAL_RETENTION_DAYS", None)
        if days is None:
            raise CommandError(
                "No retention period: pass --days N or set TRIAL_RETENTION_DAYS. "
                "Nothing was deleted."
            )
        if not isinstance(days, int) or isinstance(days, bool):
            raise CommandError(f"TRIAL_RETENTION_DAYS must be a whole number, got {days!r}.")
        if days < 1:
            raise CommandError(
                f"The retention period must be at least 1 day, got {days}. Nothing was deleted."
            )
        pruned = sessions_prune(older_than_days=days)
        sessions = "session" if pruned.sessions == 1 else "sessions"
        trials = "trial" if pruned.trials == 1 else "trials"
        self.stdout.write(
            f"Deleted {pruned.sessions} {sessions} ({pruned.trials} {trials}) "
            f"over for more than {days} days."
        )
