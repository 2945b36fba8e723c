"""``manage.py restore FILE [--force]``: replace the database with a backup made by
``manage.py backup``; refuses while the database has live sessions unless forced."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.core.management.base import BaseCommand, CommandError

from classroom.server.backup import BackupError, database_restore

if TYPE_CHECKING:
    from argparse import ArgumentParser


class Command(BaseCommand):
    help = (
        "Replace everything in the database with the backup FILE. Refuses while sessions are "
        "running or paused, unless --force (stop the site first)."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", type=Path, help="A file written by manage.py backup.")
        parser.add_argument(
            "--force",
            action="store_true",
            help="Restore even though sessions are live (stop the site first).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source: Path = options["file"]
        try:
            counts = database_restore(source=source, force=options["force"])
        except BackupError as error:
            raise CommandError(str(error)) from error
        held = (
            "" if counts.sessions < 0 else f" ({counts.sessions} sessions, {counts.trials} trials)"
        )
        self.stdout.write(f"Restored the database from {source}{held}.")
