"""A made-up nickname for a guest who would rather not think of one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.people.nickname_filter import nickname_is_blocked
from classroom.people.nickname_generator import nickname_generate
from classroom.selectors.preferences import teacher_blocked_words

if TYPE_CHECKING:
    from classroom.models import GameSession


def nickname_suggest(*, session: GameSession, language: str) -> str:
    """A friendly name no seat of the session has yet, that the teacher's list allows."""
    taken = set(session.seats.values_list("name_key", flat=True))
    words = teacher_blocked_words(teacher_id=session.teacher_id)
    return nickname_generate(
        taken=taken,
        language=language,
        allowed=lambda name: not nickname_is_blocked(name, extra_words=words),
    )
