"""Signing tablets in for practice, and the teacher's hold on the class's practice code.

A badge is the strong way in: the child holds the card. A class practice code is read off
the board by everyone, so a sign-in by code + name carries only a practice credential of its
own (never the badge token), joins a class game by the roster-tap rule, sees only the games
it played, and works only while the teacher keeps the code open (for an hour, or until the
end of the school day). Rotating or closing the code, or giving a child a new badge, signs
out the tablets that came in that way, practice games and live seats included.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.events import LobbyChanged, SeatRevoked, event_publish
from classroom.join_codes import join_code_generate
from classroom.models import GameSession, PracticeSignIn, SchoolClass, Seat
from classroom.selectors.practice_access import (
    practice_code_closed_message,
    practice_code_is_open,
)
from classroom.services.practice import practice_finish
from classroom.services.tokens import token_new

if TYPE_CHECKING:
    from datetime import time

    from django.db.models import QuerySet

    from classroom.models import Student

FOR_AN_HOUR = "hour"
UNTIL_END_OF_DAY = "day"
OPEN_FOR = (FOR_AN_HOUR, UNTIL_END_OF_DAY)

# Why a seat's game socket is closed (classroom.consumers maps them to the child's words).
BADGE_REPLACED = "badge_replaced"
PRACTICE_CLOSED = "practice_closed"
CLASS_DELETED = "class_deleted"


def _seats_sign_out(seats: QuerySet[Seat], *, reason: str) -> list[Seat]:
    """Retire these seats' tokens (their tablets are told why) and end their practice games.

    The seats stay, with everything played from them; their student signs in again."""
    done = []
    for seat in seats.exclude(session__status=GameSession.Status.ENDED).select_related("session"):
        seat.token = token_new()
        seat.via_badge = False
        seat.save(update_fields=["token", "via_badge"])
        event_publish(event=SeatRevoked(seat_id=seat.pk, reason=reason))
        if seat.session.is_practice:
            practice_finish(seat=seat)
        else:
            event_publish(event=LobbyChanged(session_id=seat.session_id))
        done.append(seat)
    return done


def _live_sign_ins(sign_ins: QuerySet[PracticeSignIn], now: datetime) -> QuerySet[PracticeSignIn]:
    expired_before = now - timedelta(seconds=settings.SEAT_COOKIE_MAX_AGE)
    return sign_ins.filter(ended="", created_at__gte=expired_before)


def _code_tablets_sign_out(
    school_class: SchoolClass,
    *,
    ended: str,
    now: datetime,
    via: tuple[str, ...] = (PracticeSignIn.Via.CODE,),
    reason: str = PRACTICE_CLOSED,
) -> int:
    """End the class's live sign-ins made ``via`` these ways (by code, unless told) (their
    tablets are told why on their next page) and stop the practice games they started.
    Returns how many tablets."""
    sign_ins = _live_sign_ins(
        PracticeSignIn.objects.filter(student__school_class=school_class, via__in=via), now
    )
    ids = list(sign_ins.values_list("pk", flat=True))
    practice_seats = Seat.objects.filter(
        practice_sign_in__in=ids, session__kind=GameSession.Kind.PRACTICE
    )
    _seats_sign_out(practice_seats, reason=reason)
    PracticeSignIn.objects.filter(pk__in=ids).update(ended=ended)
    return len(ids)


def _locked(school_class: SchoolClass) -> SchoolClass:
    return SchoolClass.objects.select_for_update().get(pk=school_class.pk)


@transaction.atomic
def practice_code_open(
    *,
    school_class: SchoolClass,
    open_for: str = FOR_AN_HOUR,
    school_day_ends: time | None = None,
    now: datetime | None = None,
) -> SchoolClass:
    """Let children sign in with the class code for an hour, or until the school day ends
    (``school_day_ends``, remembered for the class; the teacher's local time). Opening an
    open code sets its new end; the code itself stays."""
    now = now or timezone.now()
    school_class = _locked(school_class)
    if not practice_code_is_open(school_class=school_class, now=now):
        # A new window: tablets signed in during the last one stay signed out.
        _code_tablets_sign_out(school_class, ended=PracticeSignIn.Ended.CODE_CLOSED, now=now)
    if open_for == FOR_AN_HOUR:
        until = now + timedelta(hours=1)
    elif open_for == UNTIL_END_OF_DAY:
        ends = school_day_ends or school_class.school_day_ends
        until = timezone.make_aware(datetime.combine(timezone.localdate(now), ends))
        if until <= now:
            raise ValidationError(
                _("The school day ended at %(time)s. Open practice for an hour instead.")
                % {"time": ends.strftime("%H:%M")}
            )
        school_class.school_day_ends = ends
    else:
        raise ValidationError(_("Choose for an hour or until the end of the school day."))
    school_class.practice_code_open_until = until
    school_class.save(update_fields=["practice_code_open_until", "school_day_ends"])
    return school_class


@transaction.atomic
def practice_code_close(*, school_class: SchoolClass, now: datetime | None = None) -> int:
    """Turn sign-in by code off; returns how many tablets it signed out. Badges still work."""
    school_class = _locked(school_class)
    school_class.practice_code_open_until = None
    school_class.save(update_fields=["practice_code_open_until"])
    return _code_tablets_sign_out(
        school_class, ended=PracticeSignIn.Ended.CODE_CLOSED, now=now or timezone.now()
    )


@transaction.atomic
def practice_code_rotate(
    *, school_class: SchoolClass, now: datetime | None = None
) -> tuple[SchoolClass, int]:
    """A new practice code (open or closed as before); tablets signed in with the old one are
    signed out. Returns the class and how many tablets it signed out."""
    school_class = _locked(school_class)
    old = school_class.practice_code
    for _attempt in range(10):
        code = join_code_generate()
        if code == old:
            continue
        try:
            with transaction.atomic():
                school_class.practice_code = code
                school_class.save(update_fields=["practice_code"])
        except IntegrityError:
            continue  # another class has it: draw again
        signed_out = _code_tablets_sign_out(
            school_class, ended=PracticeSignIn.Ended.CODE_ROTATED, now=now or timezone.now()
        )
        return school_class, signed_out
    raise ValidationError(_("Could not make a new code. Please try again."))


def _expired_forget(student: Student, now: datetime) -> None:
    # A sign-in outlives its cookie by nothing: old rows of this child go as new ones come.
    PracticeSignIn.objects.filter(
        student=student, created_at__lt=now - timedelta(seconds=settings.SEAT_COOKIE_MAX_AGE)
    ).delete()


@transaction.atomic
def practice_sign_in_by_code(
    *, school_class: SchoolClass, student: Student, now: datetime | None = None
) -> PracticeSignIn:
    """A child typed the class's practice code and tapped their name."""
    now = now or timezone.now()
    school_class = _locked(school_class)
    if not practice_code_is_open(school_class=school_class, now=now):
        raise ValidationError(practice_code_closed_message(), code="closed")
    if student.school_class_id != school_class.pk:
        raise ValidationError(_("Tap your name in the list."))
    _expired_forget(student, now)
    return PracticeSignIn.objects.create(
        student=student,
        token=token_new(),
        via=PracticeSignIn.Via.CODE,
        practice_code=school_class.practice_code,
    )


def practice_sign_in_by_badge(*, student: Student, now: datetime | None = None) -> PracticeSignIn:
    """A child scanned their badge with no class game open."""
    _expired_forget(student, now or timezone.now())
    return PracticeSignIn.objects.create(
        student=student, token=token_new(), via=PracticeSignIn.Via.BADGE
    )


def practice_sign_out(*, sign_in: PracticeSignIn) -> None:
    """ "Not me?": the tablet's sign-in ends (its games and results stay)."""
    sign_in.delete()


@transaction.atomic
def badge_sign_ins_end(*, student: Student, now: datetime | None = None) -> int:
    """The student's badge was rotated: every tablet that came in with it, by a scan or a
    practice sign-in, is signed out (practice games end, live seats are closed with the
    reason). Returns how many tablets that was."""
    sign_ins = _live_sign_ins(
        PracticeSignIn.objects.filter(student=student, via=PracticeSignIn.Via.BADGE),
        now or timezone.now(),
    )
    ids = set(sign_ins.values_list("pk", flat=True))
    seats = _seats_sign_out(
        Seat.objects.filter(student=student, via_badge=True), reason=BADGE_REPLACED
    )
    PracticeSignIn.objects.filter(pk__in=ids).update(ended=PracticeSignIn.Ended.BADGE_ROTATED)
    # A practice game's seat is on the tablet of its sign-in: count that tablet once.
    return len(ids) + sum(1 for seat in seats if seat.practice_sign_in_id not in ids)


@transaction.atomic
def class_sign_ins_end(*, school_class: SchoolClass, now: datetime | None = None) -> int:
    """The class was deleted: its practice code closes, and every tablet of its students, by
    code, badge or a scan into a class game, is signed out at once (practice games end, live
    seats are closed with the reason). Returns how many sign-ins that was."""
    now = now or timezone.now()
    school_class = _locked(school_class)
    school_class.practice_code_open_until = None
    school_class.save(update_fields=["practice_code_open_until"])
    ended = _code_tablets_sign_out(
        school_class,
        ended=PracticeSignIn.Ended.CLASS_DELETED,
        now=now,
        via=tuple(PracticeSignIn.Via.values),
        reason=CLASS_DELETED,
    )
    _seats_sign_out(
        Seat.objects.filter(student__school_class=school_class, via_badge=True),
        reason=CLASS_DELETED,
    )
    return ended
