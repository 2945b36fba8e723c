"""A teacher's preferences (one row per teacher, made on the first save)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import TeacherPreferences
from classroom.people.nickname_filter import blocked_words_parse

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def preferences_get(*, teacher: User) -> TeacherPreferences:
    """The teacher's preferences, or unsaved defaults if they never changed any."""
    found = TeacherPreferences.objects.filter(teacher=teacher).first()
    return found if found is not None else TeacherPreferences(teacher=teacher)


def teacher_blocked_words(*, teacher_id: int) -> list[str]:
    """The teacher's own nickname blocklist, folded (see ``classroom.people.nickname_filter``)."""
    text = (
        TeacherPreferences.objects.filter(teacher_id=teacher_id)
        .values_list("nickname_blocklist", flat=True)
        .first()
    )
    return blocked_words_parse(text or "")
