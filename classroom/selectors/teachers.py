"""Teachers' accounts as a school admin sees them: who they are, how many classes they keep,
when they last signed in, and what was done to their accounts. Never a child's data."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import Lower

from classroom.models import AccountAuditEntry, Invitation

if TYPE_CHECKING:
    from datetime import datetime

    from django.db.models import QuerySet

# The Django group whose members are school admins (``manage.py school_admin``).
SCHOOL_ADMINS = "School admins"


def school_admin_is(*, user: object) -> bool:
    """Whether ``user`` (perhaps anonymous) is an active school admin."""
    if not isinstance(user, User) or not user.is_authenticated or not user.is_active:
        return False
    return user.groups.filter(name=SCHOOL_ADMINS).exists()


def teachers_list() -> QuerySet[User]:
    """Every teacher account, by name, with ``class_count`` (classes they own) and ``admin``."""
    admins = User.groups.through.objects.filter(user_id=OuterRef("pk"), group__name=SCHOOL_ADMINS)
    return User.objects.annotate(
        class_count=Count("classes", filter=Q(classes__deleted_at__isnull=True)),
        admin=Exists(admins),
    ).order_by(Lower("username"), "pk")


def teacher_find_by_email(*, email: str) -> User | None:
    """The account whose e-mail address (or username) is ``email``, in any case, if any."""
    return (
        User.objects.filter(Q(email__iexact=email) | Q(username__iexact=email))
        .order_by("pk")
        .first()
    )


def invitations_open(*, now: datetime) -> QuerySet[Invitation]:
    """Invitations not used yet and not expired, newest first."""
    return Invitation.objects.filter(used_at__isnull=True, expires_at__gt=now)


def account_audit_list(*, limit: int = 500) -> QuerySet[AccountAuditEntry]:
    """The audit log, newest first."""
    return AccountAuditEntry.objects.all()[:limit]
