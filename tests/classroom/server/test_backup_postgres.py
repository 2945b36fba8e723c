"""pg_dump and pg_restore behind manage.py backup/restore, on a real PostgreSQL."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import dj_database_url
import psycopg
import pytest

from classroom.server.backup import BackupError, database_backup, database_restore
from tests.services import POSTGRES_URL, require

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


def _admin() -> psycopg.Connection[Any]:
    return psycopg.connect(POSTGRES_URL.replace("postgres://", "postgresql://"), autocommit=True)


@pytest.fixture
def databases() -> Iterator[list[dict[str, Any]]]:
    require("postgres")
    names = [f"snapclass_backup_{secrets.token_hex(4)}_{i}" for i in range(2)]
    with _admin() as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    settings = []
    for name in names:
        database = dj_database_url.parse(POSTGRES_URL)
        database["NAME"] = name
        settings.append(dict(database))
    try:
        yield settings
    finally:
        with _admin() as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _sql(database: dict[str, Any], query: str) -> list[Any]:
    with psycopg.connect(
        dbname=database["NAME"],
        host=database["HOST"],
        port=database["PORT"] or None,
        user=database["USER"],
    ) as db:
        cursor = db.execute(query)
        return cursor.fetchall() if cursor.description else []


def test_a_dump_restores_into_a_fresh_database_and_a_live_one_is_refused(
    databases: list[dict[str, Any]], tmp_path: Path
) -> None:
    source, target = databases
    _sql(
        source, "CREATE TABLE classroom_gamesession (id serial PRIMARY KEY, code text, status text)"
    )
    _sql(source, "INSERT INTO classroom_gamesession (code, status) VALUES ('ABC123', 'running')")
    backup = tmp_path / "snapclass.dump"
    database_backup(destination=backup, database=source)

    database_restore(source=backup, database=target)
    assert _sql(target, "SELECT code, status FROM classroom_gamesession") == [("ABC123", "running")]

    # Now the target has a running session: refused, then forced.
    _sql(target, "INSERT INTO classroom_gamesession (code, status) VALUES ('XYZ789', 'paused')")
    with pytest.raises(BackupError, match=r"2 live session\(s\) \(ABC123, XYZ789\)"):
        database_restore(source=backup, database=target)
    database_restore(source=backup, database=target, force=True)
    assert _sql(target, "SELECT code FROM classroom_gamesession") == [("ABC123",)]


def test_a_file_that_is_not_a_dump_is_refused(
    databases: list[dict[str, Any]], tmp_path: Path
) -> None:
    junk = tmp_path / "junk.dump"
    junk.write_text("nope")
    with pytest.raises(BackupError, match="not a Snapclass PostgreSQL backup"):
        database_restore(source=junk, database=databases[1])
