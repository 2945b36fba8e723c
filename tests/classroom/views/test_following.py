"""Following others on the session report: each child's shares with their intervals, or
"needs more play" when the flips are few; read per flip from the stored trials."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from classroom.selectors.following import session_following
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db


def _seats(session: GameSession, school_class: SchoolClass) -> tuple[Seat, Seat]:
    students = list(school_class.students.order_by("display_name")[:2])
    seat_of = played_session(session=session, students=students)
    return seat_of[students[0].pk], seat_of[students[1].pk]


def _play(ava: Seat, ben: Seat, flips: int) -> None:
    """Ben slaps every flip at 500 ms; Ava, whose card never matches, slaps 300 ms after him
    on every other flip."""
    for flip in range(1, flips + 1):
        trial_add(seat=ben, target=True, responded=True, rt_ms=500, flip=flip)
        follows = flip % 2 == 0
        trial_add(
            seat=ava, target=False, responded=follows, rt_ms=800 if follows else None, flip=flip
        )


def test_the_flips_are_told_apart_by_their_log_entry(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = _seats(class_session, school_class)
    _play(ava, ben, 12)
    found = session_following(session=class_session)
    assert (found[ava.pk].followed, found[ava.pk].exposed) == (6, 12)
    assert found[ava.pk].alone == 0  # Ben slapped on every flip
    assert found[ben.pk].exposed == found[ben.pk].alone == 0  # his card always matched


def test_the_report_shows_the_shares_or_needs_more_play(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = _seats(class_session, school_class)
    _play(ava, ben, 12)
    url = reverse("session_report", args=[class_session.pk])
    page = html.unescape(teacher_client.get(url).content.decode())
    assert "Following others" in page
    assert "6 of 12 flips" in page
    # No flip alone: the difference waits for more play.
    assert "needs more play (0 of 10)" in page
    teacher_client.cookies["django_language"] = "zh-hant"
    page = html.unescape(teacher_client.get(url).content.decode())
    assert "跟著別人拍" in page
    assert "12 次翻牌中 6 次" in page


def test_a_session_of_another_game_has_none(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = _seats(class_session, school_class)
    _play(ava, ben, 12)
    class_session.game = "commotion"
    class_session.save(update_fields=["game"])
    assert session_following(session=class_session) == {}
