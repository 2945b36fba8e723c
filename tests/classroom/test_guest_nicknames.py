"""Guests' nicknames on the join page: "Pick a name for me", and names that are refused."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from classroom.models import Seat
from classroom.people.names import name_key
from classroom.people.nickname_generator import ADJECTIVES, ANIMALS
from classroom.services.preferences import preferences_update
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import GameSession

BLOCKED = "Please choose a different name."


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def _suggested(response: object) -> str:
    found = re.search(
        r'name="nickname" id="id_nickname" maxlength="60" value="([^"]*)"', _text(response)
    )
    assert found, _text(response)
    return found.group(1)


def test_built_in_rude_words_are_refused(guest_session: GameSession) -> None:
    for name in ("Stu Pid", "笨蛋王"):
        with pytest.raises(ValidationError) as caught:
            seat_join_guest(session=guest_session, nickname=name)
        assert caught.value.messages == [BLOCKED]
    assert not Seat.objects.exists()


def test_the_teachers_own_words_are_refused(guest_session: GameSession, teacher: User) -> None:
    preferences_update(teacher=teacher, nickname_blocklist="Banana")
    with pytest.raises(ValidationError):
        seat_join_guest(session=guest_session, nickname="BA-NA-NA 99")
    assert seat_join_guest(session=guest_session, nickname="Ava").name == "Ava"


def test_another_teachers_words_do_not_apply(
    guest_session: GameSession, other_teacher: User
) -> None:
    preferences_update(teacher=other_teacher, nickname_blocklist="Banana")
    assert seat_join_guest(session=guest_session, nickname="Banana").name == "Banana"


def test_the_join_page_refuses_a_blocked_name_kindly(guest_session: GameSession) -> None:
    response = Client().post(
        reverse("join_session", args=[guest_session.code]), {"nickname": "Idiot"}
    )
    assert response.status_code == 200
    assert BLOCKED in _text(response)


def test_pick_a_name_fills_the_field_and_joins_nobody(guest_session: GameSession) -> None:
    tablet = Client()
    page = tablet.get(reverse("join_session", args=[guest_session.code]))
    assert "Pick a name for me" in _text(page)
    response = tablet.post(
        reverse("join_session", args=[guest_session.code]),
        {"nickname": "", "suggest": "1"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    name = _suggested(response)
    words = name.split(" ")
    assert words[0] in {en for en, _zh in ADJECTIVES}
    assert words[1] in {en for en, _zh in ANIMALS}
    assert not Seat.objects.exists()
    assert "Please type a name." not in _text(response)


def test_pick_a_name_speaks_the_tablets_language(guest_session: GameSession) -> None:
    tablet = Client()
    tablet.cookies["django_language"] = "zh-hant"
    response = tablet.post(
        reverse("join_session", args=[guest_session.code]), {"nickname": "", "suggest": "1"}
    )
    name = _suggested(response)
    assert any(name.startswith(zh) for _en, zh in ADJECTIVES), name


def test_pick_a_name_never_offers_a_name_already_here(guest_session: GameSession) -> None:
    taken = {name_key(seat_join_guest(session=guest_session, nickname=f"{en} Otter").name)
             for en, _zh in ADJECTIVES}  # fmt: skip
    for _attempt in range(10):
        response = Client().post(
            reverse("join_session", args=[guest_session.code]), {"nickname": "", "suggest": "1"}
        )
        assert name_key(_suggested(response)) not in taken
