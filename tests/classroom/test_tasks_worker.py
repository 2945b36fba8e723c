"""``manage.py tasks_worker``: db_worker at a lower CPU priority, that outlives a locked or
lost database instead of stopping the prepared downloads."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django_tasks_db.management.commands import db_worker

from classroom.management.commands import tasks_worker


def test_the_worker_takes_the_queue_up_again_after_a_locked_database(
    monkeypatch: pytest.MonkeyPatch, db: None
) -> None:
    runs: list[dict[str, Any]] = []
    pauses: list[float] = []

    def handle(self: Any, *args: Any, **options: Any) -> None:
        runs.append(options)
        if len(runs) < 3:
            raise OperationalError("database is locked")

    monkeypatch.setattr(db_worker.Command, "handle", handle)
    monkeypatch.setattr(tasks_worker.time, "sleep", pauses.append)
    niced: list[int] = []
    monkeypatch.setattr(tasks_worker.os, "nice", niced.append)
    call_command("tasks_worker", "--batch", "-v", "0")
    assert len(runs) == 3
    assert pauses == [tasks_worker.PAUSE_S] * 2
    assert niced == [19]  # the lowest CPU priority, by default
    assert "niceness" not in runs[0]


def test_other_errors_still_stop_the_worker(monkeypatch: pytest.MonkeyPatch, db: None) -> None:
    def handle(self: Any, *args: Any, **options: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(db_worker.Command, "handle", handle)
    monkeypatch.setattr(tasks_worker.os, "nice", lambda _n: None)
    with pytest.raises(RuntimeError):
        call_command("tasks_worker", "--batch", "--niceness", "0", "-v", "0")
