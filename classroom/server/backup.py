"""Backups that restore: a consistent copy of the whole database while a class plays.

SQLite (the embedded default): the online backup API (``sqlite3.Connection.backup``) copies
every page in one step inside one read transaction, so the copy is the database as of one
commit: a table's log entries and the trials written with them are either both in it or both
not. WAL mode lets the table hosts go on writing meanwhile. PostgreSQL: ``pg_dump`` (custom
format), which reads everything in one snapshot; ``pg_restore`` brings it back.

A restore replaces everything in the target database. It refuses while the target has live
sessions (running or paused: children may be playing on it) unless forced, and it checks the
backup before it touches anything, so a wrong file changes nothing.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import connections

from classroom.models import GameSession, Trial

if TYPE_CHECKING:
    from collections.abc import Mapping

SQLITE = "django.db.backends.sqlite3"
POSTGRES = "django.db.backends.postgresql"

_SESSIONS = GameSession._meta.db_table
_TRIALS = Trial._meta.db_table
_LIVE = (GameSession.Status.RUNNING.value, GameSession.Status.PAUSED.value)


class BackupError(Exception):
    """The backup or restore could not be done; the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class BackupCounts:
    """What a backup holds, said back to whoever ran it."""

    sessions: int
    trials: int


def _vendor(database: Mapping[str, Any]) -> str:
    engine = str(database["ENGINE"])
    if engine == SQLITE:
        return "sqlite"
    if engine.startswith(POSTGRES):
        return "postgresql"
    raise BackupError(f"Backups support SQLite and PostgreSQL, not {engine}.")


def backup_suffix(database: Mapping[str, Any]) -> str:
    """The file suffix of a backup of ``database``: a SQLite file or a pg_dump archive."""
    return ".sqlite3" if _vendor(database) == "sqlite" else ".dump"


def database_settings(*, alias: str = "default") -> dict[str, Any]:
    """The Django settings of one database (a copy: callers may point it elsewhere)."""
    return dict(connections.databases[alias])


def _counts(cursor: Any) -> BackupCounts:
    cursor.execute(f"SELECT COUNT(*) FROM {_SESSIONS}")  # noqa: S608 (a model's table name)
    sessions = int(cursor.fetchone()[0])
    cursor.execute(f"SELECT COUNT(*) FROM {_TRIALS}")  # noqa: S608
    return BackupCounts(sessions=sessions, trials=int(cursor.fetchone()[0]))


# --- SQLite -------------------------------------------------------------------------------


def _sqlite_connect(path: Path) -> sqlite3.Connection:
    # The same busy timeout as the site's: a host's commit in progress is waited for.
    return sqlite3.connect(str(path), timeout=20)


def _sqlite_backup(*, source: Path, destination: Path) -> BackupCounts:
    if not source.exists():
        raise BackupError(f"There is no database at {source}.")
    partial = destination.with_name(destination.name + ".partial")
    partial.unlink(missing_ok=True)
    src = _sqlite_connect(source)
    dst = _sqlite_connect(partial)
    try:
        # pages=-1 (the default): every page in one step, so no commit lands in the middle.
        src.backup(dst)
        counts = _counts(dst.cursor())
    finally:
        dst.close()
        src.close()
    # Only a finished copy takes the name: a crash mid-backup never leaves a half file there.
    partial.replace(destination)
    return counts


def _sqlite_check(path: Path) -> BackupCounts:
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    try:
        backup = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            (state,) = backup.execute("PRAGMA quick_check").fetchone()
            if state != "ok":
                raise BackupError(f"{path} is damaged ({state}); nothing was restored.")
            return _counts(backup.cursor())
        finally:
            backup.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(
            f"{path} is not a Snapclass SQLite backup ({error}); nothing was restored."
        ) from error


def _sqlite_live(path: Path) -> list[str]:
    if not path.exists():
        return []
    target = _sqlite_connect(path)
    try:
        rows = target.execute(
            f"SELECT code FROM {_SESSIONS} WHERE status IN (?, ?) ORDER BY id",  # noqa: S608
            _LIVE,
        ).fetchall()
    except sqlite3.OperationalError:
        return []  # no tables yet: a fresh database
    finally:
        target.close()
    return [code for (code,) in rows]


def _sqlite_restore(*, source: Path, target: Path) -> None:
    backup = _sqlite_connect(source)
    dst = _sqlite_connect(target)
    try:
        # Writes every page of the backup into the target (its WAL included), in place.
        backup.backup(dst)
    finally:
        dst.close()
        backup.close()


# --- PostgreSQL ---------------------------------------------------------------------------


def _pg_tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(
            f"{name} is not installed; it comes with the PostgreSQL client "
            "(Debian: apt-get install postgresql-client)."
        )
    return found


def _pg_args(database: Mapping[str, Any]) -> tuple[list[str], dict[str, str]]:
    args = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if database.get(key):
            args.append(f"{flag}={database[key]}")
    env = dict(os.environ)
    if database.get("PASSWORD"):
        env["PGPASSWORD"] = str(database["PASSWORD"])
    return args, env


def _pg_run(command: list[str], env: Mapping[str, str], what: str) -> None:
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)  # noqa: S603
    if done.returncode != 0:
        raise BackupError(f"{what} failed: {done.stderr.strip() or done.returncode}")


def _pg_query(database: Mapping[str, Any], query: str, params: tuple[Any, ...]) -> list[Any]:
    import psycopg

    try:
        with psycopg.connect(
            dbname=str(database["NAME"]),
            host=database.get("HOST") or None,
            port=database.get("PORT") or None,
            user=database.get("USER") or None,
            password=database.get("PASSWORD") or None,
        ) as target:
            return list(target.execute(query, params).fetchall())
    except psycopg.errors.UndefinedTable:
        return []


def _pg_backup(*, database: Mapping[str, Any], destination: Path) -> BackupCounts:
    args, env = _pg_args(database)
    partial = destination.with_name(destination.name + ".partial")
    _pg_run(
        [
            _pg_tool("pg_dump"),
            *args,
            "--format=custom",
            "--no-owner",
            f"--file={partial}",
            str(database["NAME"]),
        ],
        env,
        "pg_dump",
    )
    partial.replace(destination)
    return _pg_counts_of_dump(destination)


def _pg_counts_of_dump(path: Path) -> BackupCounts:
    # The dump's table of contents names its tables; counting rows would need a restore.
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    done = subprocess.run(  # noqa: S603
        [_pg_tool("pg_restore"), "--list", str(path)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0 or _SESSIONS not in done.stdout:
        raise BackupError(f"{path} is not a Snapclass PostgreSQL backup; nothing was restored.")
    return BackupCounts(sessions=-1, trials=-1)


def _pg_live(database: Mapping[str, Any]) -> list[str]:
    rows = _pg_query(
        database,
        f"SELECT code FROM {_SESSIONS} WHERE status IN (%s, %s) ORDER BY id",  # noqa: S608
        _LIVE,
    )
    return [code for (code,) in rows]


def _pg_restore(*, database: Mapping[str, Any], source: Path) -> None:
    args, env = _pg_args(database)
    _pg_run(
        [
            _pg_tool("pg_restore"),
            *args,
            "--clean",
            "--if-exists",
            "--no-owner",
            "--single-transaction",
            f"--dbname={database['NAME']}",
            str(source),
        ],
        env,
        "pg_restore",
    )


# --- the two services ---------------------------------------------------------------------


def database_backup(
    *, destination: Path, database: Mapping[str, Any] | None = None
) -> BackupCounts:
    """Write a consistent copy of ``database`` (default: the site's) to ``destination``."""
    database = database or database_settings()
    destination = Path(destination)
    if not destination.parent.is_dir():
        raise BackupError(f"The folder {destination.parent} does not exist.")
    if _vendor(database) == "sqlite":
        return _sqlite_backup(source=Path(database["NAME"]), destination=destination)
    return _pg_backup(database=database, destination=destination)


def database_live_sessions(*, database: Mapping[str, Any] | None = None) -> list[str]:
    """Join codes of the running or paused sessions in ``database``."""
    database = database or database_settings()
    if _vendor(database) == "sqlite":
        return _sqlite_live(Path(database["NAME"]))
    return _pg_live(database)


def database_restore(
    *, source: Path, database: Mapping[str, Any] | None = None, force: bool = False
) -> BackupCounts:
    """Replace everything in ``database`` (default: the site's) with the backup ``source``.

    Refuses (BackupError, nothing changed) if the backup is not a readable Snapclass backup,
    or if the target has live sessions and ``force`` is not set.
    """
    database = database or database_settings()
    source = Path(source)
    vendor = _vendor(database)
    counts = _sqlite_check(source) if vendor == "sqlite" else _pg_counts_of_dump(source)
    live = database_live_sessions(database=database)
    if live and not force:
        codes = ", ".join(live[:10]) + (" …" if len(live) > 10 else "")
        raise BackupError(
            f"The database has {len(live)} live session(s) ({codes}): children may be playing "
            "on it. End them first, or stop the site and restore with --force. "
            "Nothing was restored."
        )
    # The site's own connections would keep reading the old pages (and hold locks).
    connections.close_all()
    if vendor == "sqlite":
        _sqlite_restore(source=source, target=Path(database["NAME"]))
    else:
        _pg_restore(database=database, source=source)
    return counts
