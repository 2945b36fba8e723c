"""A demo class with a child who changed and a run that was flagged: what the progress pages'
reliable change and the keep-this-run action are seen on (tests and screenshots).

On top of ``tests.seeding.palm_strike.demo_class_seed``: the first student (by name) plays
their latest session ``FASTER`` times as fast (a real change, well beyond the class's
practice effect); the second slaps before the card can be seen in most of their latest
session (an anticipator); the latest session's runs are then judged as a session's end
judges them (``run_flags_record``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import F

from classroom.models import GameSession, Seat, Trial
from classroom.services.run_flags import run_flags_record
from tests.seeding.palm_strike import demo_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Student

# The changed child's latest RTs are this share of what they were.
FASTER = 0.6
# The anticipator's responses: this fast (under the 200 ms anticipation floor, above the
# host's plausibility floor).
ANTICIPATION_MS = 150


@dataclass(frozen=True)
class ChangedClass:
    school_class: SchoolClass
    changed: Student
    anticipator: Student
    latest: GameSession
    flagged_seat: Seat


def changed_class_seed(
    *, teacher: User, students: int = 10, sessions: int = 6, trials: int = 60, seed: int = 0
) -> ChangedClass:
    school_class = demo_class_seed(
        teacher=teacher,
        students=students,
        sessions=sessions,
        trials_per_session=trials,
        seed=seed,
    )
    changed, anticipator = list(school_class.students.order_by("display_name", "pk"))[:2]
    latest = (
        GameSession.objects.filter(school_class=school_class).order_by("-created_at", "-pk").first()
    )
    assert latest is not None
    Trial.objects.filter(session=latest, student=changed, rt_ms__isnull=False).update(
        rt_ms=F("rt_ms") * FASTER
    )
    Trial.objects.filter(session=latest, student=anticipator, responded=True).update(
        rt_ms=ANTICIPATION_MS
    )
    run_flags_record(session=latest)
    seat = Seat.objects.get(session=latest, student=anticipator)
    return ChangedClass(
        school_class=school_class,
        changed=changed,
        anticipator=anticipator,
        latest=latest,
        flagged_seat=seat,
    )
