"""Password reset by e-mail, end to end through a real SMTP server (aiosmtpd) started here: the
mail arrives, its link sets a new password, the old one stops working, the link works once;
and the form answers the same whether or not an account has the address."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.mail_server import body, mail_server_run

if TYPE_CHECKING:
    from collections.abc import Iterator

    from django.test.client import _MonkeyPatchedWSGIResponse as TestResponse

    from tests.mail_server import Mailbox

PASSWORD = "tablets-and-tigers-42"  # the shared fixtures' teacher password
NEW = "lanterns-over-the-harbour-9"
LINK = re.compile(r"http://testserver(/accounts/password/reset/\S+/)")


def _text(response: TestResponse) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def mailbox(settings: Any) -> Iterator[Mailbox]:
    for box, port in mail_server_run():
        settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
        settings.EMAIL_HOST = "127.0.0.1"
        settings.EMAIL_PORT = port
        settings.EMAIL_USE_TLS = False
        settings.DEFAULT_FROM_EMAIL = "snapclass@school.example"
        yield box


def _main(response: TestResponse) -> str:
    """The page's main part (the head holds a fresh CSRF token each time)."""
    text = _text(response)
    return text[text.index("<main") : text.index("</main>")]


def _log_in(username: str, password: str) -> int:
    return Client().post(reverse("login"), {"username": username, "password": password}).status_code


def test_a_reset_by_mail_sets_a_new_password_once(
    client: Client, teacher: User, mailbox: Mailbox
) -> None:
    teacher.email = "teacher@school.example"
    teacher.save()
    response = client.post(reverse("password_reset"), {"email": "Teacher@School.example"})
    assert response["Location"] == reverse("password_reset_done")

    (message,) = mailbox.wait_for(1)
    assert message["To"] == "teacher@school.example"
    assert message["From"] == "snapclass@school.example"
    assert message["Subject"] == "Set a new Snapclass password"
    found = LINK.search(body(message))
    assert found, body(message)
    link = found.group(1)

    # Django's confirm view swaps the token into the session, then shows the form.
    form = client.get(link, follow=True)
    assert "Set a new password" in _text(form)
    form_url = form.redirect_chain[-1][0]
    done = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert done["Location"] == reverse("password_reset_complete")
    assert _log_in(teacher.username, PASSWORD) == 200  # refused
    assert _log_in(teacher.username, NEW) == 302

    again = Client().get(link, follow=True)
    assert "This link has expired or was used already." in _text(again)
    assert 'name="new_password1"' not in again.content.decode()


def test_the_form_answers_the_same_for_an_unknown_address(
    client: Client, teacher: User, mailbox: Mailbox
) -> None:
    teacher.email = "teacher@school.example"
    teacher.save()
    answers = [
        client.post(reverse("password_reset"), {"email": address}, follow=True)
        for address in ("nobody@school.example", "teacher@school.example")
    ]
    first, second = (_main(answer) for answer in answers)
    assert first == second
    assert "Check your e-mail" in first
    (message,) = mailbox.wait_for(1)
    assert message["To"] == "teacher@school.example"


def test_a_disabled_teacher_gets_no_reset(client: Client, teacher: User, mailbox: Mailbox) -> None:
    teacher.email = "teacher@school.example"
    teacher.is_active = False
    teacher.save()
    client.post(reverse("password_reset"), {"email": "teacher@school.example"})
    # A control mail after it: had the first one been sent, it would have arrived first.
    other = User.objects.create_user("other", "other@school.example", PASSWORD)
    client.post(reverse("password_reset"), {"email": other.email})
    (message,) = mailbox.wait_for(1)
    assert message["To"] == "other@school.example"
    assert len(mailbox.messages) == 1


def test_resets_stay_in_a_limit_per_address(
    client: Client, teacher: User, settings: Any, mailbox: Mailbox
) -> None:
    settings.SIGNUPS_PER_ADDRESS_PER_HOUR = 2
    for _ in range(2):
        client.post(reverse("password_reset"), {"email": "nobody@school.example"})
    response = client.post(reverse("password_reset"), {"email": "nobody@school.example"})
    assert response.status_code == 429
    assert "Too many tries from here" in _text(response)


def test_the_pages_speak_traditional_chinese(client: Client, db: None) -> None:
    page = _text(client.get(reverse("password_reset"), headers={"accept-language": "zh-hant"}))
    assert "重設密碼" in page
    login = _text(client.get(reverse("login"), headers={"accept-language": "zh-hant"}))
    assert "忘記密碼" in login
