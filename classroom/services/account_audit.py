"""The audit log of teachers' accounts: every school admin's action, written with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.models import AccountAuditEntry

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import User


def account_audit_record(
    *, at: datetime, actor: User | None, action: str, subject: User | None, subject_name: str = ""
) -> AccountAuditEntry:
    """One entry; ``subject_name`` for a subject with no account yet (an invited address)."""
    return AccountAuditEntry.objects.create(
        at=at,
        actor=actor,
        actor_name=actor.get_username() if actor is not None else "manage.py",
        action=action,
        subject=subject,
        subject_name=subject.get_username() if subject is not None else subject_name,
    )
