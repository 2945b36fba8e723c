"""Nightly copies in one folder: the newest seven days and the newest of each of the last four
weeks stay, nothing else in the folder is touched, and a failed backup deletes nothing."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given
from hypothesis import strategies as st

from classroom.server.backup import BackupError
from classroom.server.backup_rotation import backup_rotated, backups_kept

if TYPE_CHECKING:
    from pathlib import Path

# A Sunday: the weeks below run Monday to Sunday, as ISO weeks do.
SUNDAY = datetime.date(2026, 11, 29)


def _days(first: datetime.date, count: int) -> list[datetime.date]:
    return [first + datetime.timedelta(days=n) for n in range(count)]


def test_forty_nights_keep_the_last_week_and_one_copy_of_each_of_three_weeks_before() -> None:
    nights = _days(SUNDAY - datetime.timedelta(days=39), 40)

    kept = backups_kept(nights, daily=7, weekly=4)

    last_week = set(_days(SUNDAY - datetime.timedelta(days=6), 7))
    earlier_sundays = {SUNDAY - datetime.timedelta(weeks=n) for n in (1, 2, 3)}
    assert kept == last_week | earlier_sundays


def test_a_missed_night_keeps_the_weeks_newest_copy_whatever_day_it_is() -> None:
    # The week before the newest: copies on Monday and Wednesday only.
    monday = SUNDAY - datetime.timedelta(days=13)
    nights = [monday, monday + datetime.timedelta(days=2), SUNDAY]

    assert backups_kept(nights, daily=1, weekly=2) == {SUNDAY, monday + datetime.timedelta(days=2)}


@given(
    st.sets(st.dates(datetime.date(2020, 1, 1), datetime.date(2030, 1, 1)), max_size=60),
    st.integers(1, 10),
    st.integers(0, 6),
)
def test_what_is_kept_is_the_newest_days_and_at_most_one_a_week_beyond(
    days: set[datetime.date], daily: int, weekly: int
) -> None:
    kept = backups_kept(days, daily=daily, weekly=weekly)

    assert kept <= days
    newest = sorted(days, reverse=True)
    assert set(newest[:daily]) <= kept
    beyond = kept - set(newest[:daily])
    weeks = [day.isocalendar()[:2] for day in beyond]
    assert len(weeks) == len(set(weeks))
    assert len(kept) <= daily + weekly
    # Keeping is stable: a second pass over what is left keeps all of it.
    assert backups_kept(kept, daily=daily, weekly=weekly) == kept


@pytest.mark.django_db(transaction=True)
def test_the_nightly_backup_writes_todays_copy_and_deletes_only_old_copies(
    tmp_path: Path,
) -> None:
    for day in _days(SUNDAY - datetime.timedelta(days=20), 20):
        (tmp_path / f"snapclass-{day.isoformat()}.sqlite3").write_text("an old copy")
    notes = tmp_path / "notes.txt"
    notes.write_text("the school's own file")
    odd = tmp_path / "snapclass-2026-02-31.sqlite3"
    odd.write_text("not a date")

    rotated = backup_rotated(folder=tmp_path, today=SUNDAY)

    assert rotated.path == tmp_path / "snapclass-2026-11-29.sqlite3"
    assert rotated.path.read_bytes().startswith(b"SQLite format 3")
    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == [
        "notes.txt",
        "snapclass-2026-02-31.sqlite3",
        "snapclass-2026-11-15.sqlite3",  # the newest of the week two before
        "snapclass-2026-11-22.sqlite3",  # the newest of the week before the last seven days
        *[f"snapclass-2026-11-{day}.sqlite3" for day in range(23, 30)],
    ]
    assert len(rotated.deleted) == 21 - 9  # twenty old copies and today's


@pytest.mark.django_db(transaction=True)
def test_a_backup_that_fails_deletes_no_copy(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="does not exist"):
        backup_rotated(folder=tmp_path / "missing", today=SUNDAY)


@pytest.mark.django_db(transaction=True)
def test_the_command_takes_a_file_or_a_folder_and_says_what_it_deleted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(CommandError, match="either a FILE or --into"):
        call_command("backup")
    with pytest.raises(CommandError, match="either a FILE or --into"):
        call_command("backup", str(tmp_path / "b.sqlite3"), "--into", str(tmp_path))
    with pytest.raises(CommandError, match="--daily must be at least 1"):
        call_command("backup", "--into", str(tmp_path), "--daily", "0")
    assert list(tmp_path.iterdir()) == []

    old = tmp_path / "snapclass-2020-01-01.sqlite3"
    old.write_text("an old copy")
    call_command("backup", "--into", str(tmp_path), "--daily", "1", "--weekly", "0")

    said = capsys.readouterr().out
    assert "old copies deleted: snapclass-2020-01-01.sqlite3." in said
    assert [path.name.startswith("snapclass-20") for path in tmp_path.iterdir()] == [True]
    assert not old.exists()
