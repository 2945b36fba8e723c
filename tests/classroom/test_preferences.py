"""The teacher's settings page: their own words no guest nickname may contain."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from classroom.models import TeacherPreferences
from classroom.people.nickname_filter import MAX_WORD_LENGTH
from classroom.selectors.preferences import preferences_get, teacher_blocked_words
from classroom.services.preferences import nickname_blocklist_clean, preferences_update

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test import Client


def test_a_teacher_without_preferences_has_an_empty_list(teacher: User) -> None:
    assert preferences_get(teacher=teacher).nickname_blocklist == ""
    assert teacher_blocked_words(teacher_id=teacher.pk) == []
    assert not TeacherPreferences.objects.exists()


def test_the_list_is_kept_as_typed_without_blanks_or_repeats(teacher: User) -> None:
    preferences_update(teacher=teacher, nickname_blocklist="  Banana \n\nbanana\nKevin  Jr\n")
    assert preferences_get(teacher=teacher).nickname_blocklist == "Banana\nKevin Jr"
    assert teacher_blocked_words(teacher_id=teacher.pk) == ["banana", "kevinjr"]
    preferences_update(teacher=teacher, nickname_blocklist="")
    assert TeacherPreferences.objects.get().nickname_blocklist == ""


def test_an_overlong_line_is_refused() -> None:
    with pytest.raises(ValidationError):
        nickname_blocklist_clean("x" * (MAX_WORD_LENGTH + 1))


def test_the_settings_page_is_linked_from_home_and_saves(client: Client, teacher: User) -> None:
    client.force_login(teacher)
    home = html.unescape(client.get(reverse("home")).content.decode())
    assert reverse("teacher_settings") in home
    page = client.get(reverse("teacher_settings"))
    assert "Words not allowed in nicknames" in html.unescape(page.content.decode())
    response = client.post(reverse("teacher_settings"), {"nickname_blocklist": "Banana\nKevin"})
    assert response.status_code == 302
    assert teacher_blocked_words(teacher_id=teacher.pk) == ["banana", "kevin"]
    again = client.get(reverse("teacher_settings"))
    assert "Banana\nKevin" in html.unescape(again.content.decode())


def test_the_settings_page_needs_a_signed_in_teacher(client: Client, db: None) -> None:
    response = client.get(reverse("teacher_settings"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_each_teacher_has_their_own_list(teacher: User, other_teacher: User) -> None:
    preferences_update(teacher=teacher, nickname_blocklist="Banana")
    assert teacher_blocked_words(teacher_id=other_teacher.pk) == []
