from __future__ import annotations

from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Snapclass"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from classroom.server.kept_connections import connection_keep_on_kept_thread
        from classroom.server.sqlite_anchor import sqlite_anchor_hold

        connection_created.connect(sqlite_anchor_hold, dispatch_uid="sqlite-anchor")
        connection_created.connect(connection_keep_on_kept_thread, dispatch_uid="kept-connections")
