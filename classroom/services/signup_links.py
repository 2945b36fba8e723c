"""Sign-up by the school's e-mail domains (SIGNUP=domain): an address at one of SIGNUP_DOMAINS
asks, and a link mailed there makes the account, so an account exists only once its address
is proven. The page answers the same whether or not the address has an account: only the
mail says which (``account_exists_mail_send``)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from classroom.selectors.teachers import teacher_find_by_email
from classroom.services.account_mail import account_exists_mail_send, signup_link_mail_send

_SALT = "snapclass.signup-link"


def signup_email_clean(*, email: str) -> str:
    """The address, lower-cased, if it is one at the school's domains; else a readable refusal."""
    email = email.strip().lower()
    try:
        validate_email(email)
    except ValidationError as error:
        raise ValidationError({"email": _("Enter a valid e-mail address.")}) from error
    domain = email.rpartition("@")[2]
    if domain not in settings.SIGNUP_DOMAINS:
        raise ValidationError(
            {
                "email": _("Only addresses at %(domains)s can sign up here.")
                % {"domains": ", ".join(settings.SIGNUP_DOMAINS)}
            }
        )
    return email


def signup_link_send(*, email: str, site_url: str) -> None:
    """Mail ``email`` (already cleaned) its link to finish signing up, or, if it has an account,
    where to log in or reset the password."""
    if teacher_find_by_email(email=email) is not None:
        account_exists_mail_send(to=email, site_url=site_url)
        return
    token = signing.dumps(email, salt=_SALT)
    signup_link_mail_send(to=email, link=site_url + reverse("signup_confirm", args=[token]))


def signup_link_read(*, token: str) -> str | None:
    """The address a link was mailed to, while it works (a day, and only until its account
    exists); None otherwise."""
    try:
        email = str(signing.loads(token, salt=_SALT, max_age=settings.SIGNUP_LINK_LIFETIME_S))
    except signing.BadSignature:
        return None
    if teacher_find_by_email(email=email) is not None:
        return None
    return email


def signup_link_complete(*, token: str, password: str) -> User:
    """Make the account of the link's address with ``password`` (already validated)."""
    used = ValidationError(
        _("This link has expired or was used already. Sign up again to get a new one.")
    )
    email = signup_link_read(token=token)
    if email is None:
        raise used
    try:
        with transaction.atomic():
            return User.objects.create_user(username=email, email=email, password=password)
    except IntegrityError as clash:  # the same link followed twice at once
        raise used from clash
