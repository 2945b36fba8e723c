"""Students taking, keeping and losing seats in a session."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.events import LiveSkillsChanged, LobbyChanged, SeatRevoked, event_publish
from classroom.models import GameSession, Seat, SeatDevice, Student, Table
from classroom.people.names import display_name_clean, name_key
from classroom.people.nickname_filter import nickname_is_blocked
from classroom.selectors.classes import student_get_by_token
from classroom.selectors.practice_access import practice_seat_problem
from classroom.selectors.preferences import teacher_blocked_words
from classroom.selectors.sessions import (
    device_is_kept_out,
    seat_is_connected,
    session_is_expired,
    session_open_for_class,
)
from classroom.selectors.unique_rows import unique_row
from classroom.services.live_tables import table_roster_fix
from classroom.services.tables import (
    table_add,
    table_for_late_joiner,
    tables_balance,
    tables_drop_empty,
    tables_seat_newcomers,
)
from classroom.services.tokens import token_new
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

NICKNAME_MAX = 20


@dataclass(frozen=True)
class GuestJoin:
    """A guest typing a nickname."""

    nickname: str
    device_id: str = ""


@dataclass(frozen=True)
class StudentJoin:
    """A class student tapping their name (or scanning their badge)."""

    student: Student
    from_badge: bool = False
    device_id: str = ""


JoinRequest = GuestJoin | StudentJoin


def _device_check(*, session: GameSession, device_id: str) -> None:
    """A tablet the teacher removed stays out: no new nickname, no classmate's name."""
    if device_is_kept_out(session=session, device_id=device_id):
        raise ValidationError(
            _("Your teacher has paused your place in this game. Ask your teacher."),
            code="kept_out",
        )


def _device_remember(*, seat: Seat, device_id: str, new_seat: bool = False) -> None:
    if device_id and new_seat:
        SeatDevice.objects.create(seat=seat, device_id=device_id)  # a new seat has none yet
    elif device_id:
        SeatDevice.objects.get_or_create(seat=seat, device_id=device_id)


def session_join_check(*, session: GameSession, new_seat: bool) -> None:
    """Raise the reason a student cannot join this session now, if there is one."""
    if session.status == GameSession.Status.ENDED:
        raise ValidationError(_("This session has ended. Ask your teacher for the new code."))
    if session_is_expired(session=session):
        raise ValidationError(_("This code has expired. Ask your teacher for the new code."))
    if new_seat and session.lobby_locked:
        raise ValidationError(_("The lobby is locked. Ask your teacher to let you in."))
    if new_seat and not session.late_join and session.status != GameSession.Status.LOBBY:
        # Seated students still come back (new_seat is False for them): only newcomers wait.
        raise ValidationError(
            _(
                "This game has already started, so new players can't join it. "
                "Your teacher will tell you when the next one begins."
            ),
            code="late",
        )


def _seats_place(*, session: GameSession, seats: Sequence[Seat]) -> set[int] | None:
    """Seat newcomers; returns the lobby tables whose players changed (None: not the lobby)."""
    if session.status == GameSession.Status.LOBBY:
        return tables_seat_newcomers(session=session, seats=seats)
    # Games are under way and their seats are fixed: a latecomer gets a table of their own
    # (with a bot), or in a whole-class game watches the one table.
    for seat in seats:
        table = table_for_late_joiner(session=session)
        seat.table = table
        seat.save(update_fields=["table"])
        if not table.roster:
            table_roster_fix(session=session, table=table)
    return None


def seat_join_student(
    *, session: GameSession, student: Student, from_badge: bool = False, device_id: str = ""
) -> Seat:
    """Seat a class student (roster tap or badge). Returns the seat with a fresh token.

    A student who already has a seat gets it back on this tablet; the old token stops working.
    From the roster that is refused while another tablet is connected to the seat, since
    anyone can tap any name; a badge is the student's own secret, so it may take the seat over.
    """
    request = StudentJoin(student=student, from_badge=from_badge, device_id=device_id)
    return _one(seats_join(session=session, requests=[request]))


def _one(outcomes: list[Seat | ValidationError]) -> Seat:
    (outcome,) = outcomes
    if isinstance(outcome, ValidationError):
        raise outcome
    return outcome


@dataclass
class _Batch:
    """What the joins of one batch share: the locked session and what they have taken."""

    session: GameSession
    blocked_words: frozenset[str] | None = None


def _student_take(batch: _Batch, request: StudentJoin) -> tuple[Seat, bool]:
    """The student's seat (the one they had, on a fresh token, or a new one at no table yet)
    and whether it is new."""
    session, student = batch.session, request.student
    _device_check(session=session, device_id=request.device_id)
    if session.school_class_id is None or student.school_class_id != session.school_class_id:
        raise ValidationError(_("That name is not on this session's class list."))
    seat = session.seats.filter(student=student).first()
    session_join_check(session=session, new_seat=seat is None)
    if seat is not None:
        if seat.is_kicked:
            raise ValidationError(_("Your teacher removed you from this session."))
        if not request.from_badge and seat_is_connected(seat=seat):
            raise ValidationError(
                _("%(name)s is already playing on another tablet. Ask your teacher for help.")
                % {"name": seat.name}
            )
        seat.token = token_new()
        seat.via_badge = request.from_badge
        seat.save(update_fields=["token", "via_badge"])
        event_publish(event=SeatRevoked(seat_id=seat.pk))
        return seat, False
    seat = Seat.objects.create(
        session=session,
        student=student,
        name=student.display_name,
        name_key=name_key(student.display_name),
        token=token_new(),
        via_badge=request.from_badge,
        # What the teacher set for this student in this game last time still holds.
        options=dict(student.game_options.get(session.game, {})),
    )
    return seat, True


def _guest_take(batch: _Batch, request: GuestJoin) -> tuple[Seat, bool]:
    """The guest's seat: a new one, or the one this tablet already took under this name."""
    session = batch.session
    _device_check(session=session, device_id=request.device_id)
    if session.school_class_id is not None:
        raise ValidationError(_("Tap your name in the class list."))
    if batch.blocked_words is None:
        batch.blocked_words = frozenset(teacher_blocked_words(teacher_id=session.teacher_id))
    name = _guest_name_allowed(session, request.nickname, blocked_words=batch.blocked_words)
    holder = unique_row(session.seats.filter(name_key=name_key(name)))
    if holder is not None and _held_by_tablet(holder, device_id=request.device_id):
        # This tablet was seated under this name already, and is asking again: a second tap
        # on Join while a busy server answered the first, or an answer lost on the Wi-Fi.
        # The child gets that seat (its token too), not "someone is already called…" with
        # their own seat left empty at a table.
        session_join_check(session=session, new_seat=False)
        return holder, False
    session_join_check(session=session, new_seat=True)
    if holder is not None:
        raise _name_taken(name)
    try:
        # Within the request's own savepoint (``seats_join``), rolled back with the refusal.
        seat = Seat.objects.create(
            session=session, name=name, name_key=name_key(name), token=token_new()
        )
    except IntegrityError as error:
        raise _name_taken(name) from error
    return seat, True


@transaction.atomic
def seats_join(
    *, session: GameSession, requests: Sequence[JoinRequest]
) -> list[Seat | ValidationError]:
    """Seat students who join a session at once (a class tapping Join together), in one
    transaction: for each request its seat, or why it was refused (a refusal changes nothing
    and does not stop the others). Newcomers are placed together, with at most one balance of
    the lobby, and the session's pages hear of it once.
    """
    batch = _Batch(session=GameSession.objects.select_for_update().get(pk=session.pk))
    outcomes: list[Seat | ValidationError] = []
    newcomers: list[Seat] = []
    returning: set[int] = set()  # tables of seats taken back on a new token
    for request in requests:
        try:
            with transaction.atomic():  # a refusal rolls back only its own request
                if isinstance(request, GuestJoin):
                    seat, new = _guest_take(batch, request)
                else:
                    seat, new = _student_take(batch, request)
                _device_remember(seat=seat, device_id=request.device_id, new_seat=new)
        except ValidationError as error:
            outcomes.append(error)
            continue
        outcomes.append(seat)
        if new:
            newcomers.append(seat)
        else:
            returning.add(seat.table_id if seat.table_id is not None else 0)
    if newcomers or returning:
        tables = _seats_place(session=batch.session, seats=newcomers)
        # Only the tablets at those tables redraw (0: a seat at no table, so every one does).
        changed = None if tables is None or 0 in returning else tables | returning
        event_publish(event=LobbyChanged(session_id=batch.session.pk, tables=_ids(changed)))
    return outcomes


def seat_join_badge(*, token: str, device_id: str = "") -> Seat:
    student = student_get_by_token(token=token)
    if student is None:
        raise ValidationError(
            _("This badge does not work any more. Ask your teacher for a new one.")
        )
    session = session_open_for_class(school_class_id=student.school_class_id)
    if session is None:
        raise ValidationError(
            _("There is no game open for %(class)s right now.")
            % {"class": student.school_class.name}
        )
    return seat_join_student(session=session, student=student, from_badge=True, device_id=device_id)


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        _("Someone here is already called %(name)s. Try another name.") % {"name": name}
    )


def _guest_name_allowed(
    session: GameSession, nickname: str, *, blocked_words: frozenset[str] | None = None
) -> str:
    """A guest's nickname as it will be stored, or why no session of this teacher takes it."""
    name = display_name_clean(nickname, max_length=NICKNAME_MAX)
    if blocked_words is None:
        blocked_words = frozenset(teacher_blocked_words(teacher_id=session.teacher_id))
    if nickname_is_blocked(name, extra_words=blocked_words):
        raise ValidationError(_("Please choose a different name."), code="blocked")
    return name


def _held_by_tablet(seat: Seat, *, device_id: str) -> bool:
    """Whether the tablet ``device_id`` took ``seat`` (and was not removed from it)."""
    if not device_id or seat.is_kicked:
        return False
    return seat.devices.filter(device_id=device_id, kicked_at__isnull=True).exists()


def _guest_name(session: GameSession, nickname: str, *, seat: Seat) -> str:
    """A new nickname for the guest ``seat``, or why this session cannot use it."""
    name = _guest_name_allowed(session, nickname)
    if session.seats.filter(name_key=name_key(name)).exclude(pk=seat.pk).exists():
        raise _name_taken(name)
    return name


def seat_join_guest(*, session: GameSession, nickname: str, device_id: str = "") -> Seat:
    return _one(
        seats_join(session=session, requests=[GuestJoin(nickname=nickname, device_id=device_id)])
    )


@transaction.atomic
def seat_rename(*, seat: Seat, name: str) -> Seat:
    """The teacher gives a guest another nickname (a rude one slipped through, say).

    The table's roster follows, so the console and the projector show the new name at once;
    the tablets at that table show it from their next reload.
    """
    session = GameSession.objects.select_for_update().get(pk=seat.session_id)
    if seat.student_id is not None:
        raise ValidationError(_("Class students keep the name on the class list."))
    if session.status == GameSession.Status.ENDED:
        raise ValidationError(_("The session has ended."))
    new_name = _guest_name(session, name, seat=seat)
    seat.name = new_name
    seat.name_key = name_key(new_name)
    try:
        with transaction.atomic():
            seat.save(update_fields=["name", "name_key"])
    except IntegrityError as error:
        raise _name_taken(new_name) from error
    if seat.table_id is not None:
        table = Table.objects.select_for_update().get(pk=seat.table_id)
        roster = [
            {**entry, "name": new_name} if entry.get("seat_id") == seat.pk else entry
            for entry in table.roster
        ]
        if roster != table.roster:
            table.roster = roster
            table.save(update_fields=["roster"])
    event_publish(event=LobbyChanged(session_id=session.pk))
    return seat


@transaction.atomic
def seat_move(*, seat: Seat, table_number: int | None) -> Seat:
    """Move a student to table ``table_number``, or to a new table when it is None."""
    session = GameSession.objects.get(pk=seat.session_id)  # fresh: the caller's may be stale
    if seat.is_kicked or session.status == GameSession.Status.ENDED:
        raise ValidationError(_("That student cannot be moved now."))
    if session.status != GameSession.Status.LOBBY:
        raise ValidationError(_("The tables are playing. Move students before you press Start."))
    if table_number is None:
        table = table_add(session=session)
    else:
        existing = session.tables.filter(number=table_number).first()
        if existing is None:
            raise ValidationError(_("There is no table %(number)d.") % {"number": table_number})
        table = existing
    seat.table = table
    seat.pinned = True
    seat.save(update_fields=["table", "pinned"])
    tables_drop_empty(session=session)
    event_publish(event=LobbyChanged(session_id=session.pk))
    return seat


@transaction.atomic
def seat_kick(*, seat: Seat) -> Seat:
    """Remove a student: their tablet is told at once and their token stops working.

    The tablets that held the seat stay out of the session until the teacher lets the seat
    back in (``seat_readmit``), so a new nickname or a classmate's name does not get round it.
    """
    if seat.is_kicked:
        return seat
    seat.kicked_at = timezone.now()
    seat.table = None
    seat.pinned = False
    seat.save(update_fields=["kicked_at", "table", "pinned"])
    SeatDevice.objects.filter(seat=seat).update(kicked_at=seat.kicked_at)
    event_publish(event=SeatRevoked(seat_id=seat.pk))
    session = GameSession.objects.get(pk=seat.session_id)
    if session.status == GameSession.Status.LOBBY:
        tables_balance(session=session)
    event_publish(event=LobbyChanged(session_id=seat.session_id))
    return seat


@transaction.atomic
def seat_readmit(*, seat: Seat) -> Seat:
    """Let a removed student, and the tablets that held their seat, back in.

    The old token stays dead: they join again to sit down.
    """
    if not seat.is_kicked:
        return seat
    if seat.student_id is None:
        # A guest has no roster entry to tap; forgetting the seat frees the nickname instead
        # (and its tablets with it).
        session_id = seat.session_id
        seat.delete()
        event_publish(event=LobbyChanged(session_id=session_id))
        return seat
    seat.kicked_at = None
    seat.token = token_new()
    seat.save(update_fields=["kicked_at", "token"])
    SeatDevice.objects.filter(seat=seat).update(kicked_at=None)
    tables = _seats_place(session=GameSession.objects.get(pk=seat.session_id), seats=[seat])
    event_publish(event=LobbyChanged(session_id=seat.session_id, tables=_ids(tables)))
    return seat


def seat_resume(*, session: GameSession, token: str, device_id: str = "") -> Seat:
    """The seat a tablet's stored token holds, or why it no longer holds one."""
    _device_check(session=session, device_id=device_id)
    seat = session.seats.filter(token=token).first() if token else None
    if seat is None:
        raise ValidationError(_("This tablet is not in the session any more. Please join again."))
    if seat.is_kicked:
        raise ValidationError(_("Your teacher removed you from this session."))
    session_join_check(session=session, new_seat=False)
    problem = practice_seat_problem(seat=seat)
    if problem:
        raise ValidationError(problem)  # its class code closed, expired or changed
    _device_remember(seat=seat, device_id=device_id)
    return seat


@transaction.atomic
def seat_option_set(*, seat: Seat, name: str, value: Any) -> Seat:
    """Give one student a game option (e.g. a smaller refill pile) before play starts.

    A class student keeps it for their next sessions of the same game. ``None`` goes back to
    the session's setting.
    """
    session = GameSession.objects.select_for_update().get(pk=seat.session_id)
    spec = game_get(session.game)
    option = spec.seat_option(name) if spec is not None else None
    if option is None:
        raise ValidationError(_("This game has no such setting for one student."))
    if value is not None and not option.accepts(value):
        raise ValidationError(_("Choose one of the listed values."))
    if session.status != GameSession.Status.LOBBY:
        raise ValidationError(_("Set this before the session starts; tables are already dealt."))
    options = {key: chosen for key, chosen in seat.options.items() if key != name}
    if value is not None:
        options[name] = value
    seat.options = options
    seat.save(update_fields=["options"])
    if seat.student_id is not None:
        student = Student.objects.select_for_update().get(pk=seat.student_id)
        remembered = dict(student.game_options)
        remembered[session.game] = options
        student.game_options = remembered
        student.save(update_fields=["game_options"])
    event_publish(event=LobbyChanged(session_id=session.pk))
    return seat


def _ids(tables: Iterable[int] | None) -> tuple[int, ...] | None:
    return None if tables is None else tuple(sorted(tables))


def seat_help_dismiss(*, seat: Seat) -> Seat:
    """The teacher has seen the seat's "needs help" mark: it stays away until a departure
    that begins after the trials the seat has now (``classroom.analytics.needs_help``).
    The session's consoles draw their live skills again without it."""
    seat.help_dismissed_at = seat.trials.count()
    seat.save(update_fields=["help_dismissed_at"])
    event_publish(event=LiveSkillsChanged(session_id=seat.session_id))
    return seat
