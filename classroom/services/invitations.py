"""Invitations to make a teacher account (SIGNUP=invite): a school admin invites one e-mail
address; the link mailed there works once, until it expires, and makes that address's account.

Only a hash of a link's token is stored (``Invitation.token_hash``).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from classroom.models import AccountAuditEntry, Invitation
from classroom.selectors.teachers import teacher_find_by_email
from classroom.services.account_audit import account_audit_record
from classroom.services.account_mail import invitation_mail_send

if TYPE_CHECKING:
    from datetime import datetime


@dataclass(frozen=True)
class InvitationSent:
    invitation: Invitation
    # The link, for the admin to hand over themselves when the mail does not arrive.
    link: str


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _email_clean(email: str) -> str:
    email = email.strip().lower()
    try:
        validate_email(email)
    except ValidationError as error:
        raise ValidationError({"email": _("Enter a valid e-mail address.")}) from error
    return email


def invitation_create(*, by: User, email: str, site_url: str, now: datetime) -> InvitationSent:
    """Invite ``email`` to make a teacher account and mail the link there. An address that has
    an account already is refused (the admin sees every account anyway)."""
    email = _email_clean(email)
    if teacher_find_by_email(email=email) is not None:
        raise ValidationError({"email": _("%(email)s has an account already.") % {"email": email}})
    token = secrets.token_urlsafe(32)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            email=email,
            token_hash=_token_hash(token),
            invited_by=by,
            created_at=now,
            expires_at=now + timedelta(days=settings.INVITATION_LIFETIME_DAYS),
        )
        account_audit_record(
            at=now,
            actor=by,
            action=AccountAuditEntry.Action.INVITED,
            subject=None,
            subject_name=email,
        )
    link = site_url + reverse("invitation_accept", args=[token])
    invitation_mail_send(to=email, link=link, invited_by=by.get_username())
    return InvitationSent(invitation=invitation, link=link)


def invitation_find(*, token: str, now: datetime) -> Invitation | None:
    """The invitation of a link, while it still works (not used, not expired)."""
    return Invitation.objects.filter(
        token_hash=_token_hash(token), used_at__isnull=True, expires_at__gt=now
    ).first()


def invitation_accept(*, token: str, password: str, now: datetime) -> User:
    """Make the invited address's account with ``password`` (already checked against the
    site's validators) and use the invitation up."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .filter(token_hash=_token_hash(token), used_at__isnull=True, expires_at__gt=now)
            .first()
        )
        if invitation is None:
            raise ValidationError(
                _(
                    "This invitation has expired or was used already. Ask your school admin "
                    "for a new one."
                )
            )
        if teacher_find_by_email(email=invitation.email) is not None:
            raise ValidationError(
                _("An account for this address exists already: log in, or reset its password.")
            )
        user = User.objects.create_user(
            username=invitation.email, email=invitation.email, password=password
        )
        invitation.used_at = now
        invitation.save(update_fields=["used_at"])
        account_audit_record(
            at=now, actor=user, action=AccountAuditEntry.Action.INVITATION_USED, subject=user
        )
    return user
