"""The background task queue as monitoring sees it (``/metrics``)."""

from __future__ import annotations

from django.db.models import Count, Q
from django_tasks import DEFAULT_TASK_BACKEND_ALIAS, TaskResultStatus, task_backends
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult


def tasks_waiting() -> dict[str, int]:
    """Tasks waiting for a worker (``queued``) and being run (``running``). Other backends
    (the immediate one of the tests) keep no queue: both 0."""
    if not isinstance(task_backends[DEFAULT_TASK_BACKEND_ALIAS], DatabaseBackend):
        return {"queued": 0, "running": 0}
    counts = DBTaskResult.objects.aggregate(
        queued=Count("pk", filter=Q(status=TaskResultStatus.READY)),
        running=Count("pk", filter=Q(status=TaskResultStatus.RUNNING)),
    )
    return {"queued": counts["queued"] or 0, "running": counts["running"] or 0}
