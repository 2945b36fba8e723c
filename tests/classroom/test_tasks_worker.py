"""``manage.py tasks_worker``: db_worker with its builds at a lower CPU priority, that
outlives a locked or lost database instead of stopping the prepared downloads, and takes up
unfinished class deletions when it starts."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.db import OperationalError
from django_tasks_db.management.commands import db_worker

from classroom.management.commands import tasks_worker
from classroom.models import SchoolClass, Student
from classroom.services.classes import class_delete_begin


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
    monkeypatch.setattr(
        tasks_worker, "low_priority_set", lambda *, niceness: niced.append(niceness)
    )
    call_command("tasks_worker", "--batch", "-v", "0")
    assert len(runs) == 3
    assert pauses == [tasks_worker.PAUSE_S] * 2
    assert niced == [19]  # the builds at the lowest CPU priority, by default
    assert "niceness" not in runs[0]


def test_other_errors_still_stop_the_worker(monkeypatch: pytest.MonkeyPatch, db: None) -> None:
    def handle(self: Any, *args: Any, **options: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(db_worker.Command, "handle", handle)
    with pytest.raises(RuntimeError):
        call_command("tasks_worker", "--batch", "--niceness", "0", "-v", "0")


def test_the_worker_finishes_deleting_a_class_when_it_starts(
    school_class: SchoolClass, settings: Any, transactional_db: None
) -> None:
    # Deleted while no worker ran (or one died mid-purge): the class is hidden, its rows stay.
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    class_delete_begin(school_class=school_class)
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--niceness", "0", "-v", "0")
    assert not SchoolClass.objects.filter(pk=school_class.pk).exists()
    assert not Student.objects.filter(school_class_id=school_class.pk).exists()
