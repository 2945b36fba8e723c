"""The teacher renames a guest from the console (a rude nickname that slipped through)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from classroom.models import Seat
from classroom.services.preferences import preferences_update
from classroom.services.seats import seat_join_guest, seat_join_student, seat_rename
from classroom.services.sessions import session_end, session_start

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client

    from classroom.models import GameSession, SchoolClass


def test_a_guest_gets_a_new_name_and_the_table_roster_follows(guest_session: GameSession) -> None:
    ava = seat_join_guest(session=guest_session, nickname="Ava")
    seat_join_guest(session=guest_session, nickname="Ben")
    session_start(session=guest_session)
    seat_rename(seat=Seat.objects.get(pk=ava.pk), name="  Brave   Otter ")
    ava.refresh_from_db()
    assert (ava.name, ava.name_key) == ("Brave Otter", "brave otter")
    assert ava.table is not None
    names = [entry["name"] for entry in ava.table.roster if entry.get("seat_id") == ava.pk]
    assert names == ["Brave Otter"]


def test_a_new_name_follows_the_same_rules_as_joining(
    guest_session: GameSession, teacher: User
) -> None:
    preferences_update(teacher=teacher, nickname_blocklist="Banana")
    ava = seat_join_guest(session=guest_session, nickname="Ava")
    seat_join_guest(session=guest_session, nickname="Ben")
    for bad in ("ben", "Big Banana", "Stupid", "   "):
        with pytest.raises(ValidationError):
            seat_rename(seat=ava, name=bad)
    assert seat_rename(seat=ava, name="AVA").name == "AVA"  # the same name, other capitals


def test_class_students_and_ended_sessions_keep_their_names(
    class_session: GameSession, school_class: SchoolClass, guest_session: GameSession
) -> None:
    seat = seat_join_student(
        session=class_session, student=school_class.students.get(display_name="Ava")
    )
    with pytest.raises(ValidationError):
        seat_rename(seat=seat, name="Zed")
    guest = seat_join_guest(session=guest_session, nickname="Ava")
    session_end(session=guest_session)
    with pytest.raises(ValidationError):
        seat_rename(seat=guest, name="Zed")


def test_the_console_renames_a_guest(
    client: Client, teacher: User, guest_session: GameSession
) -> None:
    client.force_login(teacher)
    ava = seat_join_guest(session=guest_session, nickname="Ava")
    console = html.unescape(
        client.get(reverse("session_console", args=[guest_session.pk])).content.decode()
    )
    assert "Rename Ava" in console
    response = client.post(
        reverse("seat_action", args=[guest_session.pk, ava.pk, "rename"]),
        {"name": "Calm Koala"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert "Calm Koala" in html.unescape(response.content.decode())
    ava.refresh_from_db()
    assert ava.name == "Calm Koala"
