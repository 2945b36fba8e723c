"""Practice as students and teachers see it: what is assigned, and how much is done."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Max, Q
from django.utils import timezone

from classroom.models import Assignment, GameSession, Student

if TYPE_CHECKING:
    from collections.abc import Iterable

    from django.db.models import QuerySet

    from classroom.models import SchoolClass


@dataclass(frozen=True)
class Progress:
    """How far one student is with one assignment."""

    assignment: Assignment
    done: int  # minutes or games, as the assignment counts
    goal: int
    answers: int  # the student's own answers in the games that count for it

    @property
    def started(self) -> bool:
        """Practice counts from the first answer: nine answers in 50 s are a start, though
        they make no whole minute yet."""
        return self.answers > 0 or self.done > 0

    @property
    def complete(self) -> bool:
        return self.done >= self.goal

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.done / self.goal)) if self.goal else 100

    @property
    def overdue(self) -> bool:
        due = self.assignment.due_on
        return not self.complete and due is not None and due < timezone.localdate()


# A practice game has one child in it: the trials that name a student are that child's answers
# (a robot's trials name no student).
_ANSWERS = Count("trials", filter=Q(trials__student__isnull=False))


def practice_sessions(*, student: Student) -> QuerySet[GameSession]:
    """The student's practice games that have at least one trial, newest first."""
    return (
        GameSession.objects.filter(kind=GameSession.Kind.PRACTICE, seats__student=student)
        .annotate(
            trial_count=Count("trials"),
            last_trial_at=Max("trials__created_at"),
            answer_count=_ANSWERS,
        )
        .filter(trial_count__gt=0)
        .order_by("-started_at", "-pk")
    )


def _done(assignment: Assignment, sessions: Iterable[GameSession]) -> int:
    mine = [session for session in sessions if session.assignment_id == assignment.pk]
    if assignment.goal_kind == Assignment.Goal.GAMES:
        return len(mine)
    seconds = 0.0
    for session in mine:
        last = getattr(session, "last_trial_at", None)
        if session.started_at is not None and last is not None:
            seconds += max(0.0, (last - session.started_at).total_seconds())
    return int(seconds // 60)


def _answers(assignment: Assignment, sessions: Iterable[GameSession]) -> int:
    return sum(
        getattr(session, "answer_count", 0)
        for session in sessions
        if session.assignment_id == assignment.pk
    )


def _progress(assignment: Assignment, sessions: list[GameSession]) -> Progress:
    return Progress(
        assignment, _done(assignment, sessions), assignment.goal, _answers(assignment, sessions)
    )


def student_assignments(*, student: Student) -> list[Progress]:
    """Practice set for the student (or their whole class), with how much is done."""
    assignments = Assignment.objects.filter(
        Q(student=student) | Q(student__isnull=True, school_class_id=student.school_class_id)
    ).order_by("due_on", "-created_at", "-pk")
    sessions = list(practice_sessions(student=student).filter(assignment__isnull=False))
    return [_progress(a, sessions) for a in assignments]


@dataclass(frozen=True)
class AssignmentCompletion:
    assignment: Assignment
    rows: list[tuple[Student, Progress]]

    @property
    def complete_count(self) -> int:
        return sum(1 for _student, progress in self.rows if progress.complete)


def class_assignments(*, school_class: SchoolClass) -> list[AssignmentCompletion]:
    """Every assignment of the class with each assigned student's progress (teacher view)."""
    assignments = list(
        school_class.assignments.select_related("student").order_by("due_on", "-created_at")
    )
    students = list(school_class.students.all())
    sessions = list(
        GameSession.objects.filter(
            kind=GameSession.Kind.PRACTICE, assignment__school_class=school_class
        )
        .annotate(
            trial_count=Count("trials"),
            last_trial_at=Max("trials__created_at"),
            answer_count=_ANSWERS,
        )
        .filter(trial_count__gt=0)
        .prefetch_related("seats")
    )
    by_student: dict[int, list[GameSession]] = {}
    for session in sessions:
        for seat in session.seats.all():
            if seat.student_id is not None:
                by_student.setdefault(seat.student_id, []).append(session)
    completions = []
    for assignment in assignments:
        assigned = [assignment.student] if assignment.student is not None else students
        rows = [
            (student, _progress(assignment, by_student.get(student.pk, [])))
            for student in assigned
            if student is not None
        ]
        completions.append(AssignmentCompletion(assignment, rows))
    return completions
