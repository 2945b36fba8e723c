from __future__ import annotations

from django.apps import AppConfig


class ClassroomConfig(AppConfig):
    name = "classroom"
    verbose_name = "Snapclass"
    default_auto_field = "django.db.models.BigAutoField"
