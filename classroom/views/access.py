"""The classes and sessions a teacher's request may reach, or 404.

Every teacher view finds its class or session here, through the one selector of what a
teacher may see (``classroom.selectors.classes``): another teacher gets 404, the same answer
as for an id that does not exist, so nothing tells them what exists.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.shortcuts import get_object_or_404

from classroom.models import Student
from classroom.selectors.classes import ClassRight, classes_visible
from classroom.selectors.sessions import sessions_visible

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass
    from classroom.views.http import TeacherRequest


def class_or_404(
    request: TeacherRequest, class_id: int, right: ClassRight = ClassRight.SEE
) -> SchoolClass:
    return get_object_or_404(classes_visible(teacher=request.user, right=right), pk=class_id)


def class_student_or_404(
    request: TeacherRequest, class_id: int, student_id: int, right: ClassRight = ClassRight.SEE
) -> tuple[SchoolClass, Student]:
    """The class (as ``class_or_404``) and one student of it, or 404."""
    school_class = class_or_404(request, class_id, right)
    return school_class, get_object_or_404(Student, pk=student_id, school_class=school_class)


def session_or_404(
    request: TeacherRequest, session_id: int, right: ClassRight = ClassRight.SEE
) -> GameSession:
    sessions = sessions_visible(teacher=request.user, right=right).select_related("school_class")
    return get_object_or_404(sessions, pk=session_id)
