"""Sign-up under each policy (settings.SIGNUP): open makes an account at once; invite only
through an invitation's link; domain only for the school's addresses, by a link mailed there.
The answers never tell whether an address has an account."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from classroom.models import AccountAuditEntry, Invitation
from classroom.services.invitations import invitation_create

if TYPE_CHECKING:
    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

PASSWORD = "quiet-owl-lanterns-7"
TEACHER_PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password
LINK = re.compile(r"http://testserver(/\S+)")


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


def _link(message: mail.EmailMessage) -> str:
    found = LINK.findall(message.body)
    assert found, message.body
    return str(found[0])


def _invited(teacher: User, email: str) -> str:
    """The path of the invitation's link, as mailed."""
    invitation_create(by=teacher, email=email, site_url="http://testserver", now=timezone.now())
    return _link(mail.outbox[-1])


def _signed_in_as(client: Client) -> str | None:
    user_id = client.session.get("_auth_user_id")
    return User.objects.get(pk=user_id).username if user_id else None


# Invitation only ------------------------------------------------------------------------------


@pytest.fixture
def invite_only(settings: Any) -> None:
    settings.SIGNUP = "invite"


def test_invite_only_says_so_and_makes_nobody(client: Client, db: None, invite_only: None) -> None:
    page = _text(client.get(reverse("signup")))
    assert "Sign-up on this site is by invitation only" in page
    assert 'name="password1"' not in page
    zh = _text(client.get(reverse("signup"), headers={"accept-language": "zh-hant"}))
    assert "本站只接受邀請註冊" in zh
    data = {"username": "ms-ho", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post(reverse("signup"), data).status_code == 403
    assert not User.objects.exists()


def test_an_invitation_link_makes_the_account_once(
    client: Client, teacher: User, invite_only: None
) -> None:
    sent = invitation_create(
        by=teacher, email="Ms.Lin@School.example", site_url="http://testserver", now=timezone.now()
    )
    (message,) = mail.outbox
    assert message.to == ["ms.lin@school.example"]
    assert teacher.username in message.body
    path = _link(message)
    assert sent.link.endswith(path)
    page = _text(client.get(path))
    assert "ms.lin@school.example" in page
    response = client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    assert _signed_in_as(client) == "ms.lin@school.example"
    # Later, the address typed as it came to mind signs in too.
    typed = {"username": "Ms.Lin@School.example", "password": PASSWORD}
    assert Client().post(reverse("login"), typed).status_code == 302
    invitation = Invitation.objects.get()
    assert invitation.used_at is not None
    actions = list(AccountAuditEntry.objects.values_list("action", flat=True))
    assert actions == ["invitation_used", "invited"]

    # Used: the same link makes nothing more, even for someone else.
    other = Client()
    again = other.get(path)
    assert again.status_code == 404
    assert "expired or was used already" in _text(again)
    other.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert User.objects.filter(email="ms.lin@school.example").count() == 1


def test_an_expired_or_made_up_invitation_makes_nothing(
    client: Client, teacher: User, invite_only: None
) -> None:
    path = _invited(teacher, "late@school.example")
    Invitation.objects.update(expires_at=timezone.now() - timedelta(seconds=1))
    for url in (path, reverse("invitation_accept", args=["made-up-token"])):
        assert client.get(url).status_code == 404
        client.post(url, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert not User.objects.filter(email="late@school.example").exists()


def test_a_weak_password_on_an_invitation_changes_nothing(
    client: Client, teacher: User, invite_only: None
) -> None:
    path = _invited(teacher, "weak@school.example")
    response = client.post(path, {"new_password1": "12345678", "new_password2": "12345678"})
    assert response.status_code == 200
    assert "too common" in _text(response)
    assert Invitation.objects.get().used_at is None
    assert not User.objects.filter(email="weak@school.example").exists()


# The school's domains -------------------------------------------------------------------------


@pytest.fixture
def by_domain(settings: Any) -> None:
    settings.SIGNUP = "domain"
    settings.SIGNUP_DOMAINS = ("school.example",)


def test_domain_sign_up_says_which_addresses(client: Client, db: None, by_domain: None) -> None:
    page = _text(client.get(reverse("signup")))
    assert "Sign-up is open to e-mail addresses at school.example" in page
    response = client.post(reverse("signup"), {"email": "me@elsewhere.example"})
    assert response.status_code == 200
    assert "Only addresses at school.example can sign up here." in _text(response)
    assert mail.outbox == []


def test_a_mailed_link_makes_the_account_once(client: Client, db: None, by_domain: None) -> None:
    response = client.post(reverse("signup"), {"email": "New.Teacher@school.example"})
    assert response["Location"] == reverse("signup_sent")
    assert not User.objects.exists()  # nothing signs in before the address is proven
    (message,) = mail.outbox
    assert message.to == ["new.teacher@school.example"]
    path = _link(message)
    response = client.post(path, {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert response.status_code == 302
    assert _signed_in_as(client) == "new.teacher@school.example"
    assert Client().get(path).status_code == 404


def test_a_tampered_link_makes_nothing(client: Client, db: None, by_domain: None) -> None:
    client.post(reverse("signup"), {"email": "new@school.example"})
    path = _link(mail.outbox[0])
    assert client.get(path[:-2] + "xx/").status_code == 404


def test_domain_sign_up_answers_the_same_for_a_taken_address(
    client: Client, make_teacher: Any, by_domain: None
) -> None:
    taken = make_teacher("ms-ho")
    taken.email = "ms.ho@school.example"
    taken.save()
    answers = [
        client.post(reverse("signup"), {"email": email})
        for email in ("ms.ho@school.example", "nobody@school.example")
    ]
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0]["Location"] == answers[1]["Location"]
    page = _text(client.get(answers[0]["Location"]))
    assert "Check your e-mail" in page
    exists, new = mail.outbox
    assert "has an account already" in exists.body
    assert reverse("password_reset") in exists.body
    assert "choose your password" in new.body
    assert User.objects.count() == 1


def test_domain_sign_ups_stay_in_the_limit_per_address(
    client: Client, db: None, by_domain: None, settings: Any
) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2
    for number in range(2):
        client.post(reverse("signup"), {"email": f"t{number}@school.example"})
    response = client.post(reverse("signup"), {"email": "t9@school.example"})
    assert response.status_code == 429
    assert len(mail.outbox) == 2


# Log-in ---------------------------------------------------------------------------------------


def test_log_in_answers_the_same_for_a_disabled_or_missing_account(
    client: Client, teacher: User
) -> None:
    teacher.is_active = False
    teacher.save()
    answers = [
        _text(client.post(reverse("login"), {"username": name, "password": TEACHER_PASSWORD}))
        for name in (teacher.username, "nobody-here")
    ]
    for answer in answers:
        assert "Please enter a correct username and password" in answer
