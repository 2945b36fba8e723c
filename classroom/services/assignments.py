"""Practice a teacher sets for a class or one student."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from classroom.models import Assignment
from classroom.selectors.classes import ClassRight, classes_visible
from games.registry import game_get

if TYPE_CHECKING:
    from datetime import date

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Student

GOAL_LIMITS = {Assignment.Goal.MINUTES: (1, 120), Assignment.Goal.GAMES: (1, 20)}


def assignment_create(
    *,
    teacher: User,
    school_class: SchoolClass,
    student: Student | None,
    game: str,
    rung_min: int,
    rung_max: int,
    goal_kind: str,
    goal: int,
    due_on: date | None,
) -> Assignment:
    if (
        not classes_visible(teacher=teacher, right=ClassRight.MANAGE)
        .filter(pk=school_class.pk)
        .exists()
    ):
        raise ValidationError(_("Choose one of your classes."))
    if student is not None and student.school_class_id != school_class.pk:
        raise ValidationError({"student": _("Choose a student of this class.")})
    spec = game_get(game)
    if spec is None or not spec.ladder:
        raise ValidationError({"game": _("Choose one of the games in the list.")})
    top = len(spec.ladder) - 1
    if not 0 <= rung_min <= rung_max <= top:
        raise ValidationError(
            {"rung_max": _("The hardest level must be at least the easiest one.")}
        )
    if goal_kind not in GOAL_LIMITS:
        raise ValidationError({"goal_kind": _("Choose minutes or games.")})
    low, high = GOAL_LIMITS[Assignment.Goal(goal_kind)]
    if not low <= goal <= high:
        raise ValidationError(
            {"goal": _("Choose between %(low)d and %(high)d.") % {"low": low, "high": high}}
        )
    return Assignment.objects.create(
        teacher=teacher,
        school_class=school_class,
        student=student,
        game=spec.slug,
        rung_min=rung_min,
        rung_max=rung_max,
        goal_kind=goal_kind,
        goal=goal,
        due_on=due_on,
    )


def assignment_delete(*, assignment: Assignment) -> None:
    """Remove the assignment; practice already done stays in the students' progress."""
    assignment.delete()
