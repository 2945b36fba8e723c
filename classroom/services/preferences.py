"""Saving a teacher's preferences."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from classroom.models import TeacherPreferences
from classroom.people.nickname_filter import MAX_WORD_LENGTH, MAX_WORDS, nickname_fold

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def nickname_blocklist_clean(text: str) -> str:
    """The list as the teacher will read it again: one word per line as typed, trimmed,
    without blank lines or repeats (in the form names are compared in)."""
    lines: list[str] = []
    seen: set[str] = set()
    for raw in text.splitlines():
        line = " ".join(raw.split())
        folded = nickname_fold(line)
        if not folded or folded in seen:
            continue
        if len(line) > MAX_WORD_LENGTH:
            raise ValidationError(
                _("“%(word)s…” is too long: at most %(max)d characters a line.")
                % {"word": line[:12], "max": MAX_WORD_LENGTH}
            )
        seen.add(folded)
        lines.append(line)
    if len(lines) > MAX_WORDS:
        raise ValidationError(_("At most %(max)d words, please.") % {"max": MAX_WORDS})
    return "\n".join(lines)


@transaction.atomic
def preferences_update(*, teacher: User, nickname_blocklist: str) -> TeacherPreferences:
    preferences, _created = TeacherPreferences.objects.update_or_create(
        teacher=teacher,
        defaults={"nickname_blocklist": nickname_blocklist_clean(nickname_blocklist)},
    )
    return preferences
