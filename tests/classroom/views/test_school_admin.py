"""A school admin's pages: teachers listed (classes, last sign-in), invited, disabled,
re-enabled and sent a password reset, each in the audit log; nobody else finds the pages, and
the role shows no child's data."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import AccountAuditEntry, Invitation
from classroom.selectors.teachers import school_admin_is
from classroom.services.teacher_accounts import school_admin_grant

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from classroom.models import SchoolClass

PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def admin(make_teacher: Callable[..., User]) -> User:
    user = make_teacher("head-office")
    school_admin_grant(user=user, now=timezone.now())
    return user


@pytest.fixture
def admin_client(admin: User) -> Client:
    client = Client()
    client.force_login(admin)
    return client


def _action(client: Client, teacher: User, action: str) -> str:
    url = reverse("school_teacher_action", args=[teacher.pk, action])
    return _text(client.post(url, follow=True))


def test_only_a_school_admin_finds_the_pages(
    client: Client, teacher: User, admin: User, other_teacher: User
) -> None:
    urls = [
        reverse("school_teachers"),
        reverse("school_audit"),
        reverse("school_teacher_action", args=[other_teacher.pk, "disable"]),
        reverse("school_invite"),
    ]
    anonymous = client.get(urls[0])
    assert anonymous.status_code == 302
    client.force_login(teacher)
    for url in urls:
        response = client.post(url) if "teachers/" in url and url != urls[0] else client.get(url)
        assert response.status_code == 404, url
    assert User.objects.get(pk=other_teacher.pk).is_active
    assert "Teachers" not in _text(client.get(reverse("home")))


def test_the_list_shows_classes_and_last_sign_in_and_no_child(
    admin_client: Client, teacher: User, school_class: SchoolClass
) -> None:
    Client().post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    page = _text(admin_client.get(reverse("school_teachers")))
    row = page[page.index(f'id="teacher-{teacher.pk}"') :]
    row = row[: row.index("</tr>")]
    assert ">1<" in row  # one class
    assert "never" not in row  # signed in just now
    students = list(school_class.students.values_list("display_name", flat=True))
    assert students
    for name in [*students, school_class.name]:
        assert name not in page
    assert reverse("school_teachers") in _text(admin_client.get(reverse("home")))


def test_disabling_signs_the_teacher_out_and_re_enabling_lets_them_back(
    admin_client: Client, admin: User, teacher: User
) -> None:
    browser = Client()
    browser.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    admin_session = admin_client.session.session_key
    assert browser.get(reverse("teacher_settings")).status_code == 200

    page = _action(admin_client, teacher, "disable")
    assert f"{teacher.username} is disabled" in page
    assert not User.objects.get(pk=teacher.pk).is_active
    assert browser.get(reverse("teacher_settings")).status_code == 302
    assert list(Session.objects.values_list("session_key", flat=True)) == [admin_session]
    refused = browser.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    assert refused.status_code == 200

    page = _action(admin_client, teacher, "enable")
    assert f"{teacher.username} can sign in again." in page
    again = browser.post(reverse("login"), {"username": teacher.username, "password": PASSWORD})
    assert again.status_code == 302
    audit = _text(admin_client.get(reverse("school_audit")))
    assert audit.index("Re-enabled") < audit.index("Disabled") < audit.index("Made a school admin")


def test_an_admin_cannot_disable_themselves(admin_client: Client, admin: User) -> None:
    page = _action(admin_client, admin, "disable")
    assert "You cannot disable your own account." in page
    assert User.objects.get(pk=admin.pk).is_active
    assert not AccountAuditEntry.objects.filter(action="disabled").exists()


def test_a_reset_mails_the_teacher_and_never_shows_the_link(
    admin_client: Client, teacher: User
) -> None:
    teacher.email = "ms.ho@school.example"
    teacher.save()
    page = _action(admin_client, teacher, "reset")
    assert f"A password reset was sent to {teacher.username}." in page
    (message,) = mail.outbox
    assert message.to == ["ms.ho@school.example"]
    assert "/accounts/password/reset/" in message.body
    assert "/accounts/password/reset/" not in page
    assert AccountAuditEntry.objects.filter(action="password_reset", subject=teacher).exists()


def test_a_reset_without_an_address_is_refused(admin_client: Client, teacher: User) -> None:
    page = _action(admin_client, teacher, "reset")
    assert "has no e-mail address to send a reset to" in page
    assert mail.outbox == []


def test_inviting_mails_a_link_and_refuses_a_taken_or_bad_address(
    admin_client: Client, teacher: User
) -> None:
    teacher.email = "taken@school.example"
    teacher.save()
    page = _text(
        admin_client.post(reverse("school_invite"), {"email": "new@school.example"}, follow=True)
    )
    assert "Invitation sent to new@school.example" in page
    assert "new@school.example" in page.split("Waiting to be accepted")[1]
    assert len(mail.outbox) == 1
    for email, error in [
        ("taken@school.example", "taken@school.example has an account already."),
        ("not an address", "Enter a valid email address."),
    ]:
        response = admin_client.post(reverse("school_invite"), {"email": email})
        assert response.status_code == 400
        assert error in _text(response)
    assert Invitation.objects.count() == 1
    assert AccountAuditEntry.objects.filter(action="invited").count() == 1


def test_the_command_makes_the_first_admin(teacher: User) -> None:
    assert not school_admin_is(user=teacher)
    call_command("school_admin", teacher.username)
    assert school_admin_is(user=User.objects.get(pk=teacher.pk))
    call_command("school_admin", teacher.username)  # twice: no second entry
    assert AccountAuditEntry.objects.filter(action="admin_granted", subject=teacher).count() == 1


def test_the_command_makes_an_account_for_a_new_address(
    db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "quiet-owl-lanterns-7")
    call_command("school_admin", "Head@School.example")
    user = User.objects.get(username="head@school.example")
    assert user.check_password("quiet-owl-lanterns-7")
    assert school_admin_is(user=user)
