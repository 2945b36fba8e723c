from __future__ import annotations

from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Snapclass"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from classroom.hosting.table_hosts import hosts_subscribe
        from classroom.pages.notify import notices_subscribe
        from classroom.server import deploy_checks  # noqa: F401 (registers the checks)
        from classroom.server.kept_connections import connection_keep_on_kept_thread
        from classroom.server.sqlite_anchor import sqlite_anchor_hold
        from classroom.tasks import tasks_subscribe

        connection_created.connect(sqlite_anchor_hold, dispatch_uid="sqlite-anchor")
        connection_created.connect(connection_keep_on_kept_thread, dispatch_uid="kept-connections")
        # What the store publishes after a write reaches the pages, the table hosts and the
        # task queue (classroom.events): the store imports none of them.
        notices_subscribe()
        hosts_subscribe()
        tasks_subscribe()
