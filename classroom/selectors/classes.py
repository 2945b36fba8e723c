"""Classes and students, always scoped to their teacher."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Count, QuerySet

from classroom.models import SchoolClass, Student

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def class_list(*, teacher: User) -> QuerySet[SchoolClass]:
    return SchoolClass.objects.filter(teacher=teacher).annotate(student_count=Count("students"))


def student_get_by_token(*, token: str) -> Student | None:
    return Student.objects.select_related("school_class").filter(token=token).first()
