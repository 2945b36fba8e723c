"""A demo class with children who fell behind: what the verdicts are seen on (browser tests,
screenshots).

On top of ``tests.seeding.palm_strike.demo_class_seed``, every child in ``year_group``; the
first ``behind`` children (by name) play their latest session slowly and badly: their RTs
``SLOWER`` times as long, and every other card answered wrongly (a match missed, or a slap
without one).

``main`` seeds one for a teacher and prints the class and the children behind as JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from django.db.models import F

from classroom.models import GameSession, Student, Trial
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

SLOWER = 1.8
WRONG_RT_MS = 900


def behind_class_seed(
    *, teacher: User, students: int = 24, behind: int = 2, year_group: str = "3"
) -> tuple[SchoolClass, list[Student]]:
    school_class = demo_class_seed(
        teacher=teacher, students=students, sessions=3, trials_per_session=120
    )
    Student.objects.filter(school_class=school_class).update(year_group=year_group)
    latest = GameSession.objects.filter(school_class=school_class).order_by("-created_at").first()
    assert latest is not None
    slow = list(school_class.students.order_by("display_name", "pk"))[:behind]
    for student in slow:
        mine = Trial.objects.filter(session=latest, student=student)
        mine.filter(rt_ms__isnull=False).update(rt_ms=F("rt_ms") * SLOWER)
        for trial in list(mine.order_by("log_seq"))[::2]:
            trial.responded, trial.correct = not trial.target, False
            trial.rt_ms = WRONG_RT_MS if trial.responded else None
            trial.save(update_fields=["responded", "correct", "rt_ms"])
    return school_class, slow


def main(username: str) -> None:
    """Seed a class for the teacher ``username`` and print it and the children behind as
    JSON (``manage.py shell -c``, for a browser test's live site)."""
    from django.contrib.auth.models import User

    found, slow = behind_class_seed(teacher=User.objects.get(username=username))
    print(
        json.dumps(
            {
                "class": found.pk,
                "behind": [s.pk for s in slow],
                "behind_names": [s.display_name for s in slow],
            }
        )
    )
