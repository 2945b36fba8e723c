"""Background tasks (Django's Tasks framework, the ``django-tasks`` backport).

Each task is a thin shell around a service, so the work itself is tested without a worker.
``manage.py tasks_worker`` runs them (``make run`` and ``make cluster`` start one).
"""

from __future__ import annotations

from django_tasks import task

from classroom.services.exports import export_run


@task()
def export_build(export_id: int) -> str:
    """Build a prepared download (``classroom.services.exports.export_run``)."""
    return export_run(export_id=export_id)
