"""Nightly backups in one folder, rotated: a copy a day, of which the newest ``daily`` stay, and
the newest of each of the last ``weekly`` calendar weeks (Monday to Sunday) with a copy.

With 7 and 4, a folder holds the last week day by day and one copy for each of the three
weeks before it: a month back, in ten files at most. Copies are named
``snapclass-<YYYY-MM-DD>.<sqlite3|dump>``; nothing else in the folder is ever deleted.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from classroom.server.backup import BackupCounts, backup_suffix, database_backup, database_settings

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

_NAME = re.compile(r"^snapclass-(\d{4}-\d{2}-\d{2})\.(?:sqlite3|dump)$")


@dataclasses.dataclass(frozen=True)
class RotatedBackup:
    """The copy just written, what it holds, and the old copies deleted."""

    path: Path
    counts: BackupCounts
    deleted: list[Path]


def backups_kept(days: Iterable[datetime.date], *, daily: int, weekly: int) -> set[datetime.date]:
    """The days whose copies stay: the newest ``daily``, and the newest in each of the
    newest ``weekly`` ISO weeks that have one."""
    newest_first = sorted(set(days), reverse=True)
    kept = set(newest_first[:daily])
    weeks: set[tuple[int, int]] = set()
    for day in newest_first:
        week = day.isocalendar()[:2]
        if week in weeks:
            continue
        if len(weeks) == weekly:
            break
        weeks.add(week)
        kept.add(day)
    return kept


def _dated_copies(folder: Path) -> dict[Path, datetime.date]:
    copies = {}
    for path in folder.iterdir():
        found = _NAME.match(path.name)
        if found is None or not path.is_file():
            continue
        try:
            copies[path] = datetime.date.fromisoformat(found.group(1))
        except ValueError:
            continue  # a name that looks dated but is not a date: not ours to delete
    return copies


def backup_rotated(
    *,
    folder: Path,
    today: datetime.date,
    daily: int = 7,
    weekly: int = 4,
    database: Mapping[str, Any] | None = None,
) -> RotatedBackup:
    """Back up ``database`` (default: the site's) to ``folder``/snapclass-<today>, then delete
    the copies :func:`backups_kept` does not keep. Today's copy replaces an earlier one of
    the same day; a backup that fails deletes nothing."""
    if daily < 1 or weekly < 0:
        raise ValueError(f"Keep at least one daily copy (daily={daily}, weekly={weekly}).")
    database = database or database_settings()
    path = Path(folder) / f"snapclass-{today.isoformat()}{backup_suffix(database)}"
    counts = database_backup(destination=path, database=database)
    copies = _dated_copies(Path(folder))
    kept = backups_kept(copies.values(), daily=daily, weekly=weekly)
    deleted = sorted(copy for copy, day in copies.items() if day not in kept)
    for copy in deleted:
        copy.unlink()
    return RotatedBackup(path=path, counts=counts, deleted=deleted)
