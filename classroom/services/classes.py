"""Classes and their students."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.events import ClassDeleted, LobbyChanged, SeatGivenToBot, SeatRevoked, event_publish
from classroom.models import GameSession, SchoolClass, Seat, Student, Table, Trial
from classroom.people.names import display_name_clean, name_key
from classroom.people.year_groups import YEAR_GROUPS
from classroom.services.exports import class_exports_discard
from classroom.services.live_tables import BOT_LEVEL, BOT_NAMES
from classroom.services.practice_access import badge_sign_ins_end, class_sign_ins_end
from classroom.services.retention import rows_delete_batched, session_rows_delete
from classroom.services.tables import tables_balance
from classroom.services.tokens import token_new

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.contrib.auth.models import User

STUDENT_NAME_MAX = 30
CLASS_NAME_MAX = 80
STUDENTS_PER_CLASS_MAX = 60


def student_names_parse(text: str) -> list[str]:
    """One name per line; blank lines are ignored; any bad or repeated name is an error."""
    names: list[str] = []
    seen: set[str] = set()
    errors: list[str] = []
    for line_number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            name = display_name_clean(line, max_length=STUDENT_NAME_MAX)
        except ValidationError as error:
            errors.append(
                _("Line %(line)d: %(problem)s")
                % {"line": line_number, "problem": " ".join(error.messages)}
            )
            continue
        if name_key(name) in seen:
            errors.append(
                _("Line %(line)d: %(name)s is listed twice.") % {"line": line_number, "name": name}
            )
            continue
        seen.add(name_key(name))
        names.append(name)
    if errors:
        raise ValidationError(errors)
    return names


def _class_name_clean(*, teacher: User, name: str, exclude_pk: int | None = None) -> str:
    name = display_name_clean(name, max_length=CLASS_NAME_MAX)
    clash = SchoolClass.objects.filter(teacher=teacher, name__iexact=name)
    if exclude_pk is not None:
        clash = clash.exclude(pk=exclude_pk)
    if clash.exists():
        raise ValidationError(_("You already have a class called %(name)s.") % {"name": name})
    return name


def students_add(*, school_class: SchoolClass, names: Sequence[str]) -> list[Student]:
    existing = {
        name_key(name) for name in school_class.students.values_list("display_name", flat=True)
    }
    if len(existing) + len(names) > STUDENTS_PER_CLASS_MAX:
        raise ValidationError(
            _("A class can have at most %(max)d students.") % {"max": STUDENTS_PER_CLASS_MAX}
        )
    clashes = []
    for name in names:  # against the class and against each other
        if name_key(name) in existing:
            clashes.append(name)
        existing.add(name_key(name))
    if clashes:
        raise ValidationError(
            _("Already in this class: %(names)s.") % {"names": ", ".join(clashes)}
        )
    return Student.objects.bulk_create(
        Student(school_class=school_class, display_name=name, token=token_new()) for name in names
    )


@transaction.atomic
def class_create(*, teacher: User, name: str, student_names: Sequence[str]) -> SchoolClass:
    school_class = SchoolClass.objects.create(
        teacher=teacher,
        name=_class_name_clean(teacher=teacher, name=name),
        school_day_ends=settings.SCHOOL_DAY_ENDS,
    )
    students_add(school_class=school_class, names=student_names)
    return school_class


@transaction.atomic
def class_update(
    *, school_class: SchoolClass, name: str, new_student_names: Sequence[str]
) -> SchoolClass:
    school_class.name = _class_name_clean(
        teacher=school_class.teacher, name=name, exclude_pk=school_class.pk
    )
    school_class.save(update_fields=["name"])
    students_add(school_class=school_class, names=new_student_names)
    return school_class


@transaction.atomic
def student_remove(*, student: Student) -> None:
    """Take a student off the class list; their name leaves with them from every page and
    download, and nothing else of the class is lost.

    Each of their seats goes: a table's roster keeps the place (unnamed, so the table still
    replays), and their trials stay with the table, linked to no one. A table playing now
    plays on: a bot takes the seat (``games`` ``takeover``), and their tablet is told and
    closed. In a lobby the tables are balanced again.
    """
    for seat in Seat.objects.select_for_update().filter(student=student).order_by("pk"):
        _seat_forget(seat)
    Trial.objects.filter(student=student).update(student=None)
    school_class = student.school_class
    student.delete()
    # Prepared files name them (workbooks, printed reports): once the removal holds, they go.
    transaction.on_commit(lambda: class_exports_discard(school_class=school_class))


def _seat_forget(seat: Seat) -> None:
    session = GameSession.objects.select_for_update().get(pk=seat.session_id)
    playing = session.status in _LIVE
    for table in Table.objects.select_for_update().filter(session=session):
        roster = list(table.roster)
        index = next((i for i, entry in enumerate(roster) if entry.get("seat_id") == seat.pk), None)
        if index is None:
            continue
        # Options and ladder places stay: the table's config (and so its replay) needs them.
        entry = {key: value for key, value in roster[index].items() if key not in _NAMED}
        if playing:
            entry |= {"name": _free_bot_name(roster), "took_over": BOT_LEVEL}
            event_publish(
                event=SeatGivenToBot(table_id=table.pk, seat_index=index, level=BOT_LEVEL)
            )
        else:
            entry |= {"name": "", "removed": True}
        roster[index] = entry
        table.roster = roster
        table.save(update_fields=["roster"])
    # The consumer finds no seat and closes with "removed".
    event_publish(event=SeatRevoked(seat_id=seat.pk))
    seat.delete()  # its connections go; its trials lose the seat (SET_NULL)
    if session.status == GameSession.Status.LOBBY:
        tables_balance(session=session)
    event_publish(event=LobbyChanged(session_id=session.pk))


# Roster keys that tie a place to a child.
_NAMED = ("seat_id", "name")


def _free_bot_name(roster: Sequence[dict[str, object]]) -> str:
    taken = {entry.get("name") for entry in roster}
    return next((name for name in BOT_NAMES if name not in taken), BOT_NAMES[0])


@transaction.atomic
def student_token_rotate(*, student: Student) -> Student:
    """Retire the student's badge: the old QR code stops working at once, and every tablet
    that came in with it (practice sign-ins, seats taken by a scan) is signed out."""
    student.token = token_new()
    student.token_rotated_at = timezone.now()
    student.save(update_fields=["token", "token_rotated_at"])
    badge_sign_ins_end(student=student)
    return student


def student_colour_safe_set(*, student: Student, colour_safe: bool) -> Student:
    """Give the student the colour-vision-safe palette in every game (or take it back).

    A tablet picks it up when its game page next loads; the flag on the trials of games
    where a colour is the stimulus follows when a table's host starts (``table_record``).
    """
    student.colour_safe = colour_safe
    student.save(update_fields=["colour_safe"])
    return student


def student_extra_time_set(*, student: Student, extra_time: str) -> Student:
    """Give the student extra time at every table (``Student.ExtraTime``; "" for none).

    It takes effect at the next table dealt with them (the roster keeps it,
    ``table_roster_fix``): a table already playing keeps the windows it was dealt with.
    Raises ValidationError for a value that is not one of the choices.
    """
    if extra_time not in Student.ExtraTime.values:
        raise ValidationError(_("Choose one of the listed values."))
    student.extra_time = extra_time
    student.save(update_fields=["extra_time"])
    return student


def student_practice_warmup_set(*, student: Student, warmup: bool) -> Student:
    """Start the student's practice games with the 20-tap warm-up (or not), from their next
    one; the child chooses on their practice page, the teacher on the class page."""
    student.practice_warmup = warmup
    student.save(update_fields=["practice_warmup"])
    return student


def student_year_group_set(*, student: Student, year_group: str) -> Student:
    """Set the student's year group ("" for none): the school's norms compare them with the
    children of the same year group (``classroom.selectors.verdicts``). ValidationError, and
    nothing saved, for a value that is not a year group."""
    if year_group not in ("", *YEAR_GROUPS):
        raise ValidationError(_("Choose a year group from the list."))
    student.year_group = year_group
    student.save(update_fields=["year_group"])
    return student


# --------------------------------------------------------------------------------------------
# Deleting a class


@dataclass(frozen=True)
class ClassDeletion:
    """What deleting the class would remove, for the confirmation page."""

    students: int
    sessions: int
    trials: int
    # Sessions still being played: their tables run in memory and write trials, so the class
    # cannot go until they are ended.
    live_sessions: list[GameSession]


_LIVE = (GameSession.Status.RUNNING, GameSession.Status.PAUSED)


def _class_trials(school_class: SchoolClass) -> Q:
    # Trials of the class's sessions, and of its students wherever they were recorded.
    return Q(session__school_class=school_class) | Q(student__school_class=school_class)


def class_delete_preview(*, school_class: SchoolClass) -> ClassDeletion:
    sessions = GameSession.objects.filter(school_class=school_class)
    return ClassDeletion(
        students=school_class.students.count(),
        sessions=sessions.count(),
        trials=Trial.objects.filter(_class_trials(school_class)).distinct().count(),
        live_sessions=list(
            sessions.filter(kind=GameSession.Kind.CLASS, status__in=_LIVE).order_by(
                "created_at", "pk"
            )
        ),
    )


@transaction.atomic
def class_delete_begin(*, school_class: SchoolClass) -> bool:
    """Delete the class as its owner sees it, at once, and leave the slow part to the task
    worker (``classes_purge``): a year of a class is a million trials, too many to delete in a
    request or in one transaction that holds the live tables' writes back.

    At once, in one short transaction: the class is marked deleted (no page, socket, badge or
    practice code finds it from then on: ``classes_visible``), renamed out of the way of a new
    class of the same name, its lobbies are closed, its practice code is closed and every
    tablet of its students (by code, badge or scan) is signed out. Refused
    (``ValidationError``) while one of its class sessions is running or paused. Returns
    whether trials are left to the worker."""
    locked = SchoolClass.objects.select_for_update().get(pk=school_class.pk)
    sessions = GameSession.objects.filter(school_class=locked)
    # Locked so a session cannot start between the check and the mark.
    # A child's practice game does not hold the class: the sign-out below ends it.
    live = [
        session.code
        for session in sessions.filter(kind=GameSession.Kind.CLASS).select_for_update()
        if session.status in _LIVE
    ]
    if live:
        raise ValidationError(
            ngettext(
                "End session %(codes)s before deleting this class.",
                "End sessions %(codes)s before deleting this class.",
                len(live),
            )
            % {"codes": ", ".join(live)}
        )
    locked.deleted_at = timezone.now()
    locked.name = f"[deleted {locked.pk}] {locked.name}"[:80]
    locked.save(update_fields=["deleted_at", "name"])
    # Its lobbies take no one from now on (the purge deletes them with the rest).
    sessions.filter(status=GameSession.Status.LOBBY).update(
        status=GameSession.Status.ENDED, ended_at=locked.deleted_at
    )
    class_sign_ins_end(school_class=locked)
    trials = Trial.objects.filter(_class_trials(locked)).exists()
    event_publish(event=ClassDeleted(class_id=locked.pk))
    return trials


def classes_purge() -> int:
    """Remove what is left of every class its owner deleted (``class_delete_begin``): its
    sessions one by one and the trials in batches (``session_rows_delete``), then its students'
    trials recorded elsewhere, then the class. Each step is a short transaction, so the live
    tables write between them; a purge cut off is taken up by the next (the worker asks for
    one when it starts). Returns how many classes went."""
    purged = 0
    for school_class in SchoolClass.objects.filter(deleted_at__isnull=False).order_by("pk"):
        # Sessions before the class: a session only loses its class (SET_NULL) when the class
        # goes, and would live on as a guest session holding the children's seat names.
        for session_id in GameSession.objects.filter(school_class=school_class).values_list(
            "pk", flat=True
        ):
            session_rows_delete(session_id=session_id)
        rows_delete_batched(Trial.objects.filter(student__school_class=school_class))
        with transaction.atomic():
            school_class.delete()  # students, shares and exports cascade
        purged += 1
    return purged
