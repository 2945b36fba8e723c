"""The class's norms and each child's reliable change, with flagged runs left out unless the
teacher keeps them (seeded class: ``tests.seeding.changes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError

from classroom.analytics.reliable_change import IMPROVED, NO_RELIABLE_CHANGE
from classroom.analytics.validity import ANTICIPATIONS
from classroom.models import RunFlag, Seat
from classroom.selectors.class_change import RATE, SPEED, class_change
from classroom.services.run_flags import run_keep
from tests.seeding.changes import changed_class_seed

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from tests.seeding.changes import ChangedClass

pytestmark = pytest.mark.django_db


@pytest.fixture
def changed(teacher: User) -> ChangedClass:
    cache.clear()
    return changed_class_seed(teacher=teacher)


def _verdict(found: ChangedClass, student_id: int, measure: str) -> str | None:
    changes = class_change(school_class=found.school_class).of_student(student_id)
    return next((c.change.verdict for c in changes if c.measure == measure), None)


def test_a_child_much_faster_than_the_class_improved_and_the_others_mostly_did_not(
    changed: ChangedClass,
) -> None:
    change = class_change(school_class=changed.school_class)
    assert _verdict(changed, changed.changed.pk, SPEED) == IMPROVED
    speed = [
        c.change.verdict
        for student_id, found in change.changes.items()
        if student_id != changed.changed.pk
        for c in found
        if c.measure == SPEED
    ]
    # The others who played the level twice (the anticipator's flagged run is left out): after
    # the class's practice effect is taken off, most show no reliable change.
    assert len(speed) >= 6
    assert speed.count(NO_RELIABLE_CHANGE) > len(speed) / 2
    norm = change.norms[("palm_strike", "advanced", None, SPEED)]
    assert norm.reliability is not None
    assert norm.practice is not None  # ten children played the level twice
    assert norm.needed is not None
    assert ("palm_strike", "advanced", None, RATE) in change.norms


def test_a_flagged_run_stays_out_of_changes_until_the_teacher_keeps_it(
    changed: ChangedClass,
) -> None:
    flag = RunFlag.objects.get(seat=changed.flagged_seat)
    assert ANTICIPATIONS in flag.flag_keys
    assert not flag.kept
    pair = (changed.anticipator.pk, changed.latest.pk)
    left_out = class_change(school_class=changed.school_class)
    assert pair in left_out.left_out
    # Without their latest run the anticipator has one session at the level: no change.
    assert _verdict(changed, changed.anticipator.pk, RATE) is None

    run_keep(seat=changed.flagged_seat, kept=True)
    kept = class_change(school_class=changed.school_class)
    assert pair not in kept.left_out
    # Kept, the run counts: a change of their rate (their speed has no RT above the
    # anticipation floor to take a median of).
    assert _verdict(changed, changed.anticipator.pk, RATE) is not None
    assert _verdict(changed, changed.anticipator.pk, SPEED) is None


def test_an_unflagged_run_cannot_be_kept_and_nothing_changes(changed: ChangedClass) -> None:
    seat = Seat.objects.get(session=changed.latest, student=changed.changed)
    with pytest.raises(ValidationError, match="not flagged"):
        run_keep(seat=seat, kept=True)
    assert not RunFlag.objects.filter(seat=seat).exists()
