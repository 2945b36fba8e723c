from __future__ import annotations

from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Snapclass"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from classroom.server.request_threads import request_connection_keep
        from classroom.server.sqlite_anchor import sqlite_anchor_hold

        connection_created.connect(sqlite_anchor_hold, dispatch_uid="sqlite-anchor")
        connection_created.connect(request_connection_keep, dispatch_uid="request-connections")
