"""Who a practice tablet is, and whether a class's practice code lets anyone in right now."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, NamedTuple

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.models import GameSession, PracticeSignIn

if TYPE_CHECKING:
    from datetime import datetime

    from classroom.models import SchoolClass, Seat


class SignInCheck(NamedTuple):
    """A tablet's practice sign-in, or (when it no longer holds one) why not."""

    sign_in: PracticeSignIn | None
    problem: str


def practice_code_is_open(*, school_class: SchoolClass, now: datetime | None = None) -> bool:
    until = school_class.practice_code_open_until
    return until is not None and (now or timezone.now()) < until


def practice_code_closed_message() -> str:
    return _(
        "Practice with the class code is closed right now. Scan your badge, or ask your teacher."
    )


def practice_code_rotated_message() -> str:
    return _("Your class has a new practice code. Ask your teacher for it, or scan your badge.")


def badge_replaced_message() -> str:
    return _("Your badge was replaced, so this tablet is signed out. Scan your new badge.")


def class_deleted_message() -> str:
    return _("Your class was deleted, so this tablet is signed out. Ask your teacher.")


def practice_sign_in_expires_at(*, sign_in: PracticeSignIn) -> datetime:
    return sign_in.created_at + timedelta(seconds=settings.SEAT_COOKIE_MAX_AGE)


def _sign_in_problem(sign_in: PracticeSignIn, now: datetime) -> str:
    if (
        sign_in.ended == PracticeSignIn.Ended.CLASS_DELETED
        or sign_in.student.school_class.deleted_at is not None
    ):
        return class_deleted_message()
    if sign_in.ended == PracticeSignIn.Ended.BADGE_ROTATED:
        return badge_replaced_message()
    if sign_in.ended == PracticeSignIn.Ended.CODE_ROTATED:
        return practice_code_rotated_message()
    if sign_in.ended == PracticeSignIn.Ended.CODE_CLOSED:
        return practice_code_closed_message()
    if now >= practice_sign_in_expires_at(sign_in=sign_in):
        return _("Please sign in again to practise.")
    if sign_in.via != PracticeSignIn.Via.CODE:
        return ""  # a badge sign-in lasts until the badge is replaced
    school_class = sign_in.student.school_class
    if school_class.practice_code != sign_in.practice_code:
        return practice_code_rotated_message()
    if not practice_code_is_open(school_class=school_class, now=now):
        return practice_code_closed_message()
    return ""


def practice_sign_in_check(*, token: str, now: datetime | None = None) -> SignInCheck:
    """The sign-in a practice cookie's token names, if it still lets the tablet in."""
    sign_in = (
        PracticeSignIn.objects.select_related("student__school_class").filter(token=token).first()
        if token
        else None
    )
    if sign_in is None:
        return SignInCheck(None, "")
    problem = _sign_in_problem(sign_in, now or timezone.now())
    return SignInCheck(None if problem else sign_in, problem)


def practice_seat_problem(*, seat: Seat, now: datetime | None = None) -> str:
    """Why a practice seat started from a class-code sign-in may not play any more (the code
    closed, expired or changed), or "" when it may. Other seats are not this check's concern."""
    if (
        seat.practice_sign_in_id is None
        or not GameSession.objects.filter(
            pk=seat.session_id, kind=GameSession.Kind.PRACTICE
        ).exists()
    ):
        return ""
    sign_in = PracticeSignIn.objects.select_related("student__school_class").get(
        pk=seat.practice_sign_in_id
    )
    return _sign_in_problem(sign_in, now or timezone.now())
