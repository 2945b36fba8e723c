"""A student's first play of each game starts with its how-to-play demo, and only the first."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.models import HowToPlaySeen
from classroom.services.how_to_play import how_to_play_seen_record

if TYPE_CHECKING:
    from classroom.models import SchoolClass

pytestmark = pytest.mark.django_db


def test_the_first_record_of_a_game_is_the_only_first(school_class: SchoolClass) -> None:
    ava, ben = school_class.students.order_by("display_name")[:2]
    assert how_to_play_seen_record(student=ava, game="palm_strike") is True
    assert how_to_play_seen_record(student=ava, game="palm_strike") is False
    # Per game and per student.
    assert how_to_play_seen_record(student=ava, game="commotion") is True
    assert how_to_play_seen_record(student=ben, game="palm_strike") is True
    assert HowToPlaySeen.objects.filter(student=ava).count() == 2


def test_a_student_taken_off_the_class_list_takes_the_record_along(
    school_class: SchoolClass,
) -> None:
    ava = school_class.students.get(display_name="Ava")
    how_to_play_seen_record(student=ava, game="riff_raff")
    ava.delete()
    assert not HowToPlaySeen.objects.exists()
