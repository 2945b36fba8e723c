"""The process's idle SQLite connection keeps the write-ahead log open between calls, and
checkpoints it in a thread of its own so the live log writer's commits never do."""

from __future__ import annotations

import sqlite3
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

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


# --------------------------------------------------------------------------------------------
# Checkpoints off the log writer's commits


class _Ticks:
    """An Event whose waits time out ``times`` times, then report it set: no real waiting."""

    def __init__(self, times: int) -> None:
        self.left = times

    def wait(self, _timeout: float) -> bool:
        self.left -= 1
        return self.left < 0


def _writer(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA wal_autocheckpoint=0")  # as the log writer's
    connection.execute("CREATE TABLE IF NOT EXISTS t (x)")
    return connection


def test_the_anchors_thread_checkpoints_what_the_writer_left(tmp_path: Path) -> None:
    path = tmp_path / "site.sqlite3"
    writer = _writer(path)
    for number in range(2000):
        writer.execute("INSERT INTO t VALUES (?)", (f"row {number:0>200}",))
    # Nothing checkpointed by the writer: the rows are only in the log.
    before = path.stat().st_size
    anchor = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    sqlite_anchor.sqlite_checkpoints_run(anchor, _Ticks(1))  # type: ignore[arg-type]
    assert path.stat().st_size > before + 2000 * 200
    # Caught up between two commits: the next write starts the log from its beginning.
    busy, frames, checkpointed = anchor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert (busy, frames) == (0, checkpointed)
    writer.execute("INSERT INTO t VALUES (1)")
    assert anchor.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1] < 10
    anchor.close()
    writer.close()


def test_a_checkpoint_that_fails_is_tried_again_and_a_closed_anchor_stops_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    class Flaky:
        calls = 0

        def execute(self, _sql: str) -> Any:
            self.calls += 1
            if self.calls == 1:
                raise sqlite3.OperationalError("database is locked")
            raise sqlite3.ProgrammingError("Cannot operate on a closed database.")

    flaky = Flaky()
    sqlite_anchor.sqlite_checkpoints_run(flaky, _Ticks(5))  # type: ignore[arg-type]
    assert flaky.calls == 2  # the lock was tried again; the closed anchor ended the thread
    assert "SQLite checkpoint failed (database is locked)" in caplog.text


def test_the_log_writers_connection_leaves_checkpoints_to_the_anchor(tmp_path: Path) -> None:
    raw = sqlite3.connect(tmp_path / "site.sqlite3", isolation_level=None)

    class Cursor:
        def __enter__(self) -> sqlite3.Cursor:
            return raw.cursor()

        def __exit__(self, *_exc: object) -> None:
            return None

    wrapper = SimpleNamespace(
        vendor="sqlite",
        settings_dict={"NAME": str(tmp_path / "site.sqlite3")},
        connection=raw,
        cursor=Cursor,
    )
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (1000,)
    sqlite_anchor.sqlite_checkpoints_leave(wrapper)
    assert raw.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    # Not open yet: nothing happens now (the writer's next write opens it, then it is set).
    sqlite_anchor.sqlite_checkpoints_leave(
        SimpleNamespace(vendor="sqlite", settings_dict=wrapper.settings_dict, connection=None)
    )
    # A database in memory, or PostgreSQL, is left as it is.
    for vendor, name in (("sqlite", ":memory:"), ("postgresql", "snapclass")):
        other = SimpleNamespace(vendor=vendor, settings_dict={"NAME": name})
        sqlite_anchor.sqlite_checkpoints_leave(other)
