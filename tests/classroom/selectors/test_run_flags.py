"""Reads of flagged runs: the rows a run left out covers, its words in the files, and the
count of a class's runs left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.models import RunFlag, Trial
from classroom.selectors.run_flags import (
    class_runs_left_out,
    run_flag_text,
    run_left_out,
    session_run_flags,
)
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


def test_a_flag_reads_as_its_reasons_then_whether_it_counts() -> None:
    assert run_flag_text(flags="anticipations,at_chance", kept=False) == (
        "many taps before the card could be seen; right about as often as by guessing; "
        "flagged, left out"
    )
    # A key no check raises any more is left out, not shown as a raw key.
    assert run_flag_text(flags="retired,anticipations", kept=True) == (
        "many taps before the card could be seen; flagged, kept"
    )


def test_only_runs_flagged_and_not_kept_are_left_out(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben, chen = school_class.students.order_by("display_name")[:3]
    seats = played_session(session=class_session, students=[ava, ben, chen])
    for student in (ava, ben, chen):
        trial_add(seat=seats[student.pk], target=True, responded=True, rt_ms=500)
    RunFlag.objects.create(
        seat=seats[ava.pk], session=class_session, student=ava, flags="anticipations"
    )
    RunFlag.objects.create(
        seat=seats[ben.pk], session=class_session, student=ben, flags="anticipations", kept=True
    )

    counted = Trial.objects.exclude(run_left_out()).values_list("student__display_name", flat=True)
    assert sorted(counted) == sorted([ben.display_name, chen.display_name])
    assert session_run_flags(session=class_session) == {
        seats[ava.pk].pk: False,
        seats[ben.pk].pk: True,
    }
    assert class_runs_left_out(school_class=school_class) == {(ava.pk, class_session.game): 1}
