"""What a school admin does to teachers' accounts: disable, re-enable, send a password reset;
and making the first admin (``manage.py school_admin``). Each goes in the audit log.

A disabled account cannot sign in (Django refuses inactive users), its signed-in browsers are
signed out here, and its open live pages close: the event below makes each of its sockets
look again whether its teacher may still watch (``classroom.selectors.sockets``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import Group, User
from django.contrib.sessions.models import Session
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from classroom.events import TeacherAccessChanged, event_publish
from classroom.models import AccountAuditEntry
from classroom.selectors.teachers import SCHOOL_ADMINS
from classroom.services.account_audit import account_audit_record
from classroom.services.account_mail import password_reset_mail_send

if TYPE_CHECKING:
    from datetime import datetime


def _sessions_end(*, user_id: int, now: datetime) -> int:
    """Delete every unexpired Django session signed in as the user; how many there were."""
    ended = [
        session.session_key
        for session in Session.objects.filter(expire_date__gt=now).iterator()
        if session.get_decoded().get(SESSION_KEY) == str(user_id)
    ]
    Session.objects.filter(session_key__in=ended).delete()
    return len(ended)


@transaction.atomic
def teacher_disable(*, by: User, teacher: User, now: datetime) -> None:
    """Stop the teacher signing in, sign out their browsers and close their live pages.
    Their classes, sessions and results stay as they are."""
    if teacher.pk == by.pk:
        raise ValidationError(_("You cannot disable your own account."))
    if not teacher.is_active:
        raise ValidationError(_("%(name)s is disabled already.") % {"name": teacher.get_username()})
    teacher.is_active = False
    teacher.save(update_fields=["is_active"])
    _sessions_end(user_id=teacher.pk, now=now)
    account_audit_record(
        at=now, actor=by, action=AccountAuditEntry.Action.DISABLED, subject=teacher
    )
    event_publish(event=TeacherAccessChanged(teacher_id=teacher.pk))


@transaction.atomic
def teacher_enable(*, by: User, teacher: User, now: datetime) -> None:
    """Let a disabled teacher sign in again, with the password they had."""
    if teacher.is_active:
        raise ValidationError(_("%(name)s is not disabled.") % {"name": teacher.get_username()})
    teacher.is_active = True
    teacher.save(update_fields=["is_active"])
    account_audit_record(at=now, actor=by, action=AccountAuditEntry.Action.ENABLED, subject=teacher)


def teacher_password_reset_send(*, by: User, teacher: User, site_url: str, now: datetime) -> None:
    """Mail the teacher a link that sets a new password; the admin never sees the link."""
    if not teacher.is_active:
        raise ValidationError(
            _("%(name)s is disabled: re-enable the account first.")
            % {"name": teacher.get_username()}
        )
    if not teacher.email:
        raise ValidationError(
            _("%(name)s has no e-mail address to send a reset to.")
            % {"name": teacher.get_username()}
        )
    password_reset_mail_send(user=teacher, site_url=site_url)
    account_audit_record(
        at=now, actor=by, action=AccountAuditEntry.Action.PASSWORD_RESET, subject=teacher
    )


@transaction.atomic
def school_admin_grant(*, user: User, now: datetime) -> bool:
    """Make the user a school admin; False when they were one already."""
    group, _created = Group.objects.get_or_create(name=SCHOOL_ADMINS)
    if user.groups.filter(pk=group.pk).exists():
        return False
    user.groups.add(group)
    account_audit_record(
        at=now, actor=None, action=AccountAuditEntry.Action.ADMIN_GRANTED, subject=user
    )
    return True
