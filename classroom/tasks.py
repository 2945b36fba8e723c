"""Background tasks (Django's Tasks framework, the ``django-tasks`` backport).

Each task is a thin shell around a service, so the work itself is tested without a worker.
``manage.py tasks_worker`` runs them (``make run`` and ``make cluster`` start one).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django_tasks import task

from classroom.events import ClassDeleted, ExportRequested, SessionsDeleted, event_subscribe
from classroom.server.low_priority import low_priority_run
from classroom.services.classes import classes_purge as classes_purge_service
from classroom.services.exports import export_run, export_task_record
from classroom.services.retention import sessions_prune
from classroom.services.retention import sessions_purge as sessions_purge_service

logger = logging.getLogger(__name__)


@task()
def export_build(export_id: int) -> str:
    """Build a prepared download (``classroom.services.exports.export_run``), at the worker's
    low CPU priority."""
    return low_priority_run(lambda: export_run(export_id=export_id))


@task()
def retention_prune() -> dict[str, int]:
    """Delete the sessions older than ``TRIAL_RETENTION_DAYS`` (``classroom.services.
    retention``), in batches, off the live path; ``tasks_worker`` asks for it daily."""
    days = settings.TRIAL_RETENTION_DAYS
    if days is None:
        return {}
    pruned = sessions_prune(older_than_days=days)
    logger.info(
        "retention: deleted %s sessions (%s trials) over for more than %s days",
        pruned.sessions,
        pruned.trials,
        days,
    )
    return {"sessions": pruned.sessions, "trials": pruned.trials, "days": days}


@task()
def classes_purge() -> int:
    """Remove the sessions and trials of the classes their owners deleted
    (``classroom.services.classes.classes_purge``)."""
    return classes_purge_service()


@task()
def sessions_purge() -> dict[str, int]:
    """Remove the sessions their teachers deleted, in short batches
    (``classroom.services.retention.sessions_purge``)."""
    purged = sessions_purge_service()
    return {"sessions": purged.sessions, "trials": purged.trials}


def _export_requested(event: ExportRequested) -> None:
    result = export_build.enqueue(export_id=event.export_id)
    export_task_record(export_id=event.export_id, task_id=str(result.id))


def _class_deleted(event: ClassDeleted) -> None:
    classes_purge.enqueue()


def _sessions_deleted(event: SessionsDeleted) -> None:
    sessions_purge.enqueue()


def tasks_subscribe() -> None:
    """Queue the background work the store asks for (the app does it when it starts)."""
    event_subscribe(kind=ExportRequested, handler=_export_requested)
    event_subscribe(kind=ClassDeleted, handler=_class_deleted)
    event_subscribe(kind=SessionsDeleted, handler=_sessions_deleted)
