"""The mails about a teacher's account: an invitation, a sign-up link, "you have an account
already", a password reset. Each is plain text in the language of the request that sent it,
through the EMAIL_BACKEND of the settings (SMTP, or the console by default)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

if TYPE_CHECKING:
    from collections.abc import Mapping

    from django.contrib.auth.models import User


def _send(*, to: str, template: str, context: Mapping[str, object]) -> None:
    subject = render_to_string(f"registration/mail/{template}_subject.txt", dict(context))
    body = render_to_string(f"registration/mail/{template}.txt", dict(context))
    # A subject is one line, whatever the template's trailing newline.
    send_mail(" ".join(subject.split()), body, settings.DEFAULT_FROM_EMAIL, [to])


def invitation_mail_send(*, to: str, link: str, invited_by: str) -> None:
    _send(to=to, template="invitation", context={"link": link, "invited_by": invited_by})


def signup_link_mail_send(*, to: str, link: str) -> None:
    _send(to=to, template="signup_link", context={"link": link})


def account_exists_mail_send(*, to: str, site_url: str) -> None:
    """The answer to a sign-up for an address that has an account: the sign-up page says the
    same either way, and only the mailbox's owner learns which."""
    context = {
        "login": site_url + reverse("login"),
        "reset": site_url + reverse("password_reset"),
    }
    _send(to=to, template="account_exists", context=context)


def password_reset_link(*, user: User, site_url: str) -> str:
    """The one-time link that sets a new password (Django's token: it stops working once the
    password changes, or after PASSWORD_RESET_TIMEOUT)."""
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return site_url + reverse("password_reset_confirm", args=[uid, token])


def password_reset_mail_send(*, user: User, site_url: str) -> None:
    """The same mail as Django's own reset form sends, started by a school admin."""
    context = {
        "link": password_reset_link(user=user, site_url=site_url),
        "username": user.get_username(),
    }
    _send(to=user.email, template="password_reset", context=context)
