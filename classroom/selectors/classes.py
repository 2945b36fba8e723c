"""Classes and students, and the one answer to "which classes may this teacher see".

A class is its owner's (``SchoolClass.teacher``), and the colleagues it is shared with
(``ClassShare``) see it too, as their role allows. Every teacher page, download and socket
reaches a class or a session through ``classes_visible`` (or ``sessions_visible`` in
``classroom.selectors.sessions``, built on it); nothing else filters by owner.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils.translation import gettext as _

from classroom.models import ClassShare, SchoolClass, Student

Role = ClassShare.Role
OWNER = "owner"


class ClassRight(enum.Enum):
    """What a teacher may do with a class (each right includes the ones listed before it)."""

    # Open the class page and badges, run sessions, see results and download them.
    SEE = "see"
    # Change what outlasts a lesson: the class list, badges, practice; delete sessions.
    MANAGE = "manage"
    # Delete the class, share it and revoke a share.
    OWN = "own"


# The share roles that carry each right (the owner has them all).
_SHARED_ROLES = {
    ClassRight.SEE: (Role.CO_TEACHER, Role.SUBSTITUTE),
    ClassRight.MANAGE: (Role.CO_TEACHER,),
    ClassRight.OWN: (),
}


def classes_visible(*, teacher: User, right: ClassRight = ClassRight.SEE) -> QuerySet[SchoolClass]:
    """The classes ``teacher`` holds ``right`` over: their own, and those shared with them in a
    role that carries it. A teacher who is not signed in (no pk) holds none."""
    if teacher.pk is None:
        return SchoolClass.objects.none()
    shared = ClassShare.objects.filter(teacher=teacher, role__in=_SHARED_ROLES[right])
    return SchoolClass.objects.filter(
        Q(teacher=teacher) | Q(pk__in=shared.values("school_class")), deleted_at__isnull=True
    )


@dataclass(frozen=True)
class ClassAccess:
    """How one teacher stands to one class, for the pages to offer only what works."""

    role: str  # OWNER, or a ClassShare.Role value

    @property
    def is_owner(self) -> bool:
        return self.role == OWNER

    @property
    def may_manage(self) -> bool:
        return self.role == OWNER or self.role in _SHARED_ROLES[ClassRight.MANAGE]

    @property
    def role_label(self) -> str:
        return _("Owner") if self.is_owner else str(Role(self.role).label)


def class_access(*, school_class: SchoolClass, teacher: User) -> ClassAccess | None:
    """The teacher's role in the class, or None when they may not see it."""
    if school_class.teacher_id == teacher.pk:
        return ClassAccess(role=OWNER)
    share = ClassShare.objects.filter(school_class=school_class, teacher=teacher).first()
    return ClassAccess(role=share.role) if share is not None else None


def class_list(*, teacher: User) -> QuerySet[SchoolClass]:
    """The home page's classes: with their student count, owner, and ``shared_role`` (the
    teacher's role when the class is shared with them; None for their own)."""
    role = ClassShare.objects.filter(school_class=OuterRef("pk"), teacher=teacher).values("role")
    return (
        classes_visible(teacher=teacher)
        .select_related("teacher")
        .annotate(student_count=Count("students"), shared_role=Subquery(role[:1]))
    )


# Longer than any username (150) or e-mail address (254) Django keeps.
ACCOUNT_NAME_MAX = 254


def teachers_find(*, name: str) -> list[User]:
    """The active accounts a colleague's name points at, at most two (two: it is ambiguous):
    the account with exactly this username; else those with it in other capitals; else those
    with this e-mail address."""
    name = name.strip()
    if not name or len(name) > ACCOUNT_NAME_MAX:
        return []
    accounts = User.objects.filter(is_active=True).order_by("pk")
    exact = accounts.filter(username=name).first()
    if exact is not None:
        return [exact]
    for found in (accounts.filter(username__iexact=name), accounts.filter(email__iexact=name)):
        matches = list(found[:2])
        if matches:
            return matches
    return []


def class_shares(*, school_class: SchoolClass) -> QuerySet[ClassShare]:
    """Who the class is shared with, oldest first (the owner's list on the class page)."""
    return school_class.shares.select_related("teacher")


def student_get_by_token(*, token: str) -> Student | None:
    return (
        Student.objects.select_related("school_class")
        .filter(token=token, school_class__deleted_at__isnull=True)
        .first()
    )
