"""``manage.py backup FILE``: a consistent copy of the whole database, safe while a class
plays (see ``classroom.server.backup``). ``manage.py backup --into DIR`` writes the day's copy
into DIR and deletes the old ones beyond ``--daily`` and ``--weekly`` (the nightly timer,
deploy/systemd/snapclass-backup.service; ``classroom.server.backup_rotation``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from classroom.server.backup import BackupCounts, BackupError, database_backup
from classroom.server.backup_rotation import backup_rotated

if TYPE_CHECKING:
    from argparse import ArgumentParser


def _held(counts: BackupCounts) -> str:
    return "" if counts.sessions < 0 else f" ({counts.sessions} sessions, {counts.trials} trials)"


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database to FILE (SQLite: the online backup API; "
        "PostgreSQL: pg_dump), or with --into DIR the day's copy into DIR, keeping the newest "
        "--daily copies and the newest of each of the last --weekly weeks. Safe while classes "
        "play."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path, nargs="?", help="Where to write the backup.")
        parser.add_argument(
            "--into",
            type=Path,
            help="A folder for dated, rotated copies (snapclass-YYYY-MM-DD.dump or .sqlite3).",
        )
        parser.add_argument(
            "--daily", type=int, default=7, help="With --into: the newest copies kept (7)."
        )
        parser.add_argument(
            "--weekly",
            type=int,
            default=4,
            help="With --into: weeks whose newest copy is kept as well (4).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        destination: Path | None = options["file"]
        folder: Path | None = options["into"]
        try:
            if destination is not None and folder is None:
                counts = database_backup(destination=destination)
                self.stdout.write(f"Backed up the database to {destination}{_held(counts)}.")
            elif folder is not None and destination is None:
                self._rotated(folder, daily=options["daily"], weekly=options["weekly"])
            else:
                raise CommandError("Give either a FILE or --into DIR. Nothing was backed up.")
        except BackupError as error:
            raise CommandError(str(error)) from error

    def _rotated(self, folder: Path, *, daily: int, weekly: int) -> None:
        if daily < 1 or weekly < 0:
            raise CommandError(
                "--daily must be at least 1 and --weekly at least 0. Nothing was backed up."
            )
        rotated = backup_rotated(
            folder=folder, today=timezone.localdate(), daily=daily, weekly=weekly
        )
        gone = ", ".join(path.name for path in rotated.deleted) or "none"
        self.stdout.write(
            f"Backed up the database to {rotated.path}{_held(rotated.counts)}; "
            f"old copies deleted: {gone}."
        )
