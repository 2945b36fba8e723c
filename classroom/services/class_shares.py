"""Sharing a class with a colleague's account, and taking it back.

Only the class's owner shares and revokes. A colleague is found by username or e-mail; what
their role lets them do is decided in ``classroom.selectors.classes``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from classroom.events import TeacherAccessChanged, event_publish
from classroom.models import ClassShare
from classroom.selectors.classes import ClassRight, classes_visible, teachers_find

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from classroom.models import SchoolClass


def _owner_required(school_class: SchoolClass, by: User) -> None:
    owned = classes_visible(teacher=by, right=ClassRight.OWN)
    if not owned.filter(pk=school_class.pk).exists():
        raise ValidationError(_("Only the teacher who owns this class can share it."))


def _colleague(name: str) -> User:
    name = name.strip()
    if not name:
        raise ValidationError(_("Enter your colleague's username or e-mail address."))
    matches = teachers_find(name=name)
    if len(matches) != 1:
        # No account, an inactive one, or several: one answer, so the form tells nobody
        # which names are taken.
        raise ValidationError(
            _(
                "No colleague's account can be shared with as “%(name)s”. Check their exact "
                "username with them."
            )
            % {"name": name}
        )
    return matches[0]


def class_share_grant(
    *, school_class: SchoolClass, by: User, colleague: str, role: str
) -> ClassShare:
    """Share the class with the colleague's account (``colleague``: their username or e-mail)
    in ``role``. Only the owner may; not with themselves, and not twice (revoke, then share
    again, to change the role)."""
    _owner_required(school_class, by)
    if role not in ClassShare.Role.values:
        raise ValidationError({"role": _("Choose co-teacher or substitute.")})
    teacher = _colleague(colleague)
    if teacher.pk == by.pk:
        raise ValidationError(_("This is your own class: you have it already."))
    existing = ClassShare.objects.filter(school_class=school_class, teacher=teacher).first()
    if existing is not None:
        raise ValidationError(
            _(
                "%(class)s is already shared with %(name)s (%(role)s). Revoke it first to "
                "change the role."
            )
            % {
                "class": school_class.name,
                "name": teacher.get_username(),
                "role": existing.get_role_display(),
            }
        )
    try:
        with transaction.atomic():
            return ClassShare.objects.create(
                school_class=school_class, teacher=teacher, role=role, granted_by=by
            )
    except IntegrityError as clash:  # shared by a second click meanwhile
        raise ValidationError(
            _("%(class)s is already shared with %(name)s.")
            % {"class": school_class.name, "name": teacher.get_username()}
        ) from clash


@transaction.atomic
def class_share_revoke(*, share: ClassShare, by: User) -> None:
    """Take the class back from the colleague: at once they see nothing of it, not even the
    sessions they ran for it, and their open console, projector and table pages close."""
    _owner_required(share.school_class, by)
    teacher_id = share.teacher_id
    share.delete()
    event_publish(event=TeacherAccessChanged(teacher_id=teacher_id))
