"""Fixtures of the prepared-file pages (workbooks, printed reports)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client

if TYPE_CHECKING:
    from pathlib import Path

    from django.contrib.auth.models import User


@pytest.fixture
def queued_tasks(settings: Any, tmp_path: Path) -> Path:
    """The database backend: a click queues the task and nothing runs it until the test does
    (``export_run``); prepared files go under the test's own folder, which is returned."""
    settings.EXPORTS_ROOT = tmp_path / "exports"
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    return tmp_path / "exports"


@pytest.fixture
def intruder(other_teacher: User) -> Client:
    client = Client()
    client.force_login(other_teacher)
    return client
