"""A teacher changes their password from the account menu; nothing changes on a mistake."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from django.test import Client
from django.urls import reverse

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password
NEW = "lanterns-over-the-harbour-9"


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def test_the_account_menu_links_to_it(client: Client, teacher: User) -> None:
    client.force_login(teacher)
    assert f'href="{reverse("password_change")}"' in _text(client.get(reverse("home")))


def test_only_a_signed_in_teacher_may_open_it(client: Client, db: None) -> None:
    response = client.get(reverse("password_change"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_teacher_changes_their_password_and_stays_signed_in(
    client: Client, teacher: User
) -> None:
    client.force_login(teacher)
    page = _text(client.get(reverse("password_change")))
    assert "Change password" in page
    assert "Old password" in page
    response = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("home")
    assert "Your password has been changed." in _text(response)
    assert response.context["user"].is_authenticated  # this browser stays signed in
    teacher.refresh_from_db()
    assert teacher.check_password(NEW)
    assert not teacher.check_password(PASSWORD)
    elsewhere = Client()
    assert not elsewhere.login(username=teacher.username, password=PASSWORD)
    assert elsewhere.login(username=teacher.username, password=NEW)


def test_a_wrong_old_password_or_a_weak_new_one_changes_nothing(
    client: Client, teacher: User
) -> None:
    client.force_login(teacher)
    for data, problem in (
        ({"old_password": "nope", "new_password1": NEW, "new_password2": NEW}, "incorrectly"),
        ({"old_password": PASSWORD, "new_password1": "1234", "new_password2": "1234"}, "too short"),
        (
            {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW + "x"},
            "didn’t match",
        ),
    ):
        response = client.post(reverse("password_change"), data)
        assert response.status_code == 200
        assert problem in _text(response)
    teacher.refresh_from_db()
    assert teacher.check_password(PASSWORD)
