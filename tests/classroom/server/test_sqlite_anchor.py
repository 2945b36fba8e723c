"""The process's idle SQLite connection keeps the write-ahead log open between calls."""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace
from typing import TYPE_CHECKING

import pytest

from classroom.server import sqlite_anchor

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(autouse=True)
def _own_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    # The test database's own anchor stays out of these tests (and open).
    monkeypatch.setattr(sqlite_anchor, "_anchors", {})


def _write_and_close(path: Path) -> None:
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("CREATE TABLE IF NOT EXISTS t (x)")
    connection.execute("INSERT INTO t VALUES (1)")
    connection.close()


def _fake(vendor: str, name: str) -> SimpleNamespace:
    return SimpleNamespace(vendor=vendor, settings_dict={"NAME": name})


def test_without_it_the_last_close_removes_the_log(tmp_path: Path) -> None:
    path = tmp_path / "plain.sqlite3"
    _write_and_close(path)
    assert not (tmp_path / "plain.sqlite3-wal").exists()


def test_with_it_a_close_leaves_the_log_for_the_next_call(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    _write_and_close(path)
    try:
        sqlite_anchor.sqlite_anchor_hold(sender=None, connection=_fake("sqlite", str(path)))
        sqlite_anchor.sqlite_anchor_hold(sender=None, connection=_fake("sqlite", str(path)))
        assert list(sqlite_anchor._anchors) == [str(path)]  # one per file
        _write_and_close(path)
        assert (tmp_path / "site.sqlite3-wal").exists()
        count = sqlite3.connect(path).execute("SELECT count(*) FROM t").fetchone()
        assert count == (2,)
    finally:
        sqlite_anchor.sqlite_anchors_release()
    assert not sqlite_anchor._anchors


def test_other_databases_and_memory_get_none() -> None:
    for connection in (_fake("postgresql", "snapclass"), _fake("sqlite", ":memory:")):
        sqlite_anchor.sqlite_anchor_hold(sender=None, connection=connection)
    assert not sqlite_anchor._anchors
