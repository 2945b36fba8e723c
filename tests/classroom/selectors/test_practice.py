"""Practice progress as the teacher's Practice page and the child's home read it."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.urls import reverse

from classroom.models import Trial
from classroom.selectors.practice import class_assignments, student_assignments
from classroom.services.assignments import assignment_create
from classroom.services.practice import practice_start

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import Assignment, SchoolClass, Seat, Student


def _assignment(teacher: User, school_class: SchoolClass) -> Assignment:
    return assignment_create(
        teacher=teacher, school_class=school_class, student=None, game="palm_strike",
        rung_min=0, rung_max=3, goal_kind="minutes", goal=10, due_on=None,
    )  # fmt: skip


def _answers(seat: Seat, student: Student | None, count: int, *, every_s: int) -> None:
    """``count`` answers, ``every_s`` seconds apart from the game's start."""
    assert seat.table is not None
    assert seat.session.started_at is not None
    for number in range(count):
        trial = Trial.objects.create(
            session=seat.session, table=seat.table, seat=seat if student else None,
            student=student, log_seq=number + 1, game="palm_strike", kind="palm_strike.flip",
        )  # fmt: skip
        at = seat.session.started_at + timedelta(seconds=every_s * (number + 1))
        Trial.objects.filter(pk=trial.pk).update(created_at=at)


def test_nine_answers_in_under_a_minute_are_started_not_a_whole_minute(
    teacher: User, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    assignment = _assignment(teacher, school_class)
    seat = practice_start(student=ava, game="palm_strike", assignment=assignment)
    _answers(seat, ava, 9, every_s=5)  # the last at 45 s

    [completion] = class_assignments(school_class=school_class)
    progress = dict(completion.rows)[ava]
    assert (progress.done, progress.answers, progress.started) == (0, 9, True)
    assert not progress.complete
    ben = school_class.students.get(display_name="Ben")
    assert not dict(completion.rows)[ben].started
    [own] = student_assignments(student=ava)
    assert (own.done, own.answers, own.started) == (0, 9, True)


def test_only_the_robots_answers_are_no_start(teacher: User, school_class: SchoolClass) -> None:
    ava = school_class.students.get(display_name="Ava")
    assignment = _assignment(teacher, school_class)
    seat = practice_start(student=ava, game="palm_strike", assignment=assignment)
    _answers(seat, None, 3, every_s=5)

    [completion] = class_assignments(school_class=school_class)
    assert not dict(completion.rows)[ava].started


def test_the_practice_page_says_started_after_the_first_answer(
    client: Client, teacher: User, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    assignment = _assignment(teacher, school_class)
    seat = practice_start(student=ava, game="palm_strike", assignment=assignment)
    _answers(seat, ava, 1, every_s=3)
    client.force_login(teacher)
    page = client.get(reverse("class_practice", args=[school_class.pk])).content.decode()
    row = page.split(">Ava</a></th>", 1)[1].split("</tr>", 1)[0]
    assert "Started" in row
    assert "Not started" not in row
