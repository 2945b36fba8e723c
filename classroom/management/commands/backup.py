"""``manage.py backup FILE``: a consistent copy of the whole database, safe while a class
plays (see ``classroom.server.backup``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError

from classroom.server.backup import BackupError, database_backup

if TYPE_CHECKING:
    from argparse import ArgumentParser


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database to FILE (SQLite: the online backup API; "
        "PostgreSQL: pg_dump). Safe while classes play."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path, help="Where to write the backup.")

    def handle(self, *args: Any, **options: Any) -> None:
        destination: Path = options["file"]
        try:
            counts = database_backup(destination=destination)
        except BackupError as error:
            raise CommandError(str(error)) from error
        held = (
            "" if counts.sessions < 0 else f" ({counts.sessions} sessions, {counts.trials} trials)"
        )
        self.stdout.write(f"Backed up the database to {destination}{held}.")
