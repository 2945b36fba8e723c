"""How a student gets a seat: code → name (roster tap or nickname), or a badge QR."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from classroom.forms.join import JoinCodeForm, NicknameForm
from classroom.forms.whole_numbers import whole_number_parse
from classroom.join_codes import join_code_is_well_formed, join_code_normalize
from classroom.people.device_cookies import device_cookie, device_id
from classroom.people.seat_cookies import seat_cookie_get, seat_cookie_set, seat_lobby_redirect
from classroom.selectors.classes import student_get_by_token
from classroom.selectors.nicknames import nickname_suggest
from classroom.selectors.sessions import (
    device_is_kept_out,
    seat_get_by_token,
    seats_with_presence,
    session_get_by_code,
    session_open_for_class,
)
from classroom.services import seats as seat_services
from classroom.services.join_queue import seat_join_queued
from classroom.views.practice import badge_practice
from classroom.views.seat_pages import joined_page
from classroom.web.rate_limits import (
    TOO_MANY_GUESSES,
    join_code_guesses_exhausted,
    join_code_miss_count,
)

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import GameSession, Seat


def _joined(request: HttpRequest, session: GameSession, seat: Seat) -> HttpResponse:
    # A newcomer comes back at the table its batch dealt it. A seat at no table here was
    # placed by a balance of the whole lobby (a pin, a removal), which reads the seats
    # afresh: it is read again, as the lobby page would read it.
    shown = seat
    if seat.table_id is None:
        shown = seat_get_by_token(session=session, token=seat.token) or seat
    response = joined_page(request, seat=shown)
    seat_cookie_set(response, seat=seat)
    return response


def _too_many_guesses() -> str:
    return _("Too many wrong codes. Wait a minute, then try again.")


def _not_found(code: str) -> str:
    return _("We couldn't find a game with the code %(code)s. Check the code on the board.") % {
        "code": code or "—"
    }


def code_not_found_page(code: str, *, request: HttpRequest, checked: bool) -> HttpResponse:
    """The join page again, for a code that matched nothing, or was not even checked because
    this tablet guessed too often."""
    problem = _not_found(code) if checked else _too_many_guesses()
    form = JoinCodeForm(initial={"code": code})
    status = 404 if checked else TOO_MANY_GUESSES
    return render(request, "play/join.html", {"form": form, "problem": problem}, status=status)


def _session_lookup(request: HttpRequest, code: str) -> GameSession | None:
    """The session behind a typed code, counting a miss (callers check the limit first)."""
    session = session_get_by_code(code=code) if join_code_is_well_formed(code) else None
    if session is not None and session.is_practice:
        session = None  # one child's practice game: nobody joins it by its code
    if session is None:
        join_code_miss_count(request)
    return session


def _join_problem(session: GameSession, *, new_seat: bool = False) -> str:
    """Why a student cannot join ``session`` now ("" when they can); with ``new_seat``, why a
    new student cannot take a seat (locked, or started without late join)."""
    try:
        seat_services.session_join_check(session=session, new_seat=new_seat)
    except ValidationError as error:
        return " ".join(error.messages)
    return ""


@require_http_methods(["GET", "POST"])
@device_cookie
def join(request: HttpRequest) -> HttpResponse:
    form = JoinCodeForm(request.POST or None, initial={"code": request.GET.get("code", "")})
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        exhausted = join_code_guesses_exhausted(request)
        session = None if exhausted else _session_lookup(request, code)
        if session is None:
            problem = _too_many_guesses() if exhausted else _not_found(code)
        else:
            problem = _join_problem(session)
            if not problem:
                return redirect("join_session", code=session.code)
        form.add_error("code", problem)
        status = TOO_MANY_GUESSES if exhausted else 200
        return render(request, "play/join.html", {"form": form}, status=status)
    return render(request, "play/join.html", {"form": form})


@require_http_methods(["GET", "POST"])
@device_cookie
def join_session(request: HttpRequest, code: str) -> HttpResponse:
    code = join_code_normalize(code)
    checked = not join_code_guesses_exhausted(request)
    session = _session_lookup(request, code) if checked else None
    if session is None:
        return code_not_found_page(code, request=request, checked=checked)
    if problem := _join_problem(session):
        form = JoinCodeForm(initial={"code": code})
        return render(request, "play/join.html", {"form": form, "problem": problem}, status=404)

    kept_out = device_is_kept_out(session=session, device_id=device_id(request))
    existing = seat_get_by_token(session=session, token=seat_cookie_get(request, code=code))
    if existing is not None and not existing.is_kicked and not kept_out:
        return redirect("play_lobby", code=code)

    nickname_form = NicknameForm(request.POST or None) if session.is_guest else None
    closed = _join_problem(session, new_seat=True) if session.is_guest else ""
    if kept_out:
        closed = _("Your teacher has paused your place in this game. Ask your teacher.")
    problem = ""
    if closed:
        # A guest is always a newcomer here: say so before they type a name.
        nickname_form = None
    elif nickname_form is not None and request.POST.get("suggest"):
        # "Pick a name for me": the form again, filled in; nobody has joined yet.
        suggestion = nickname_suggest(session=session, language=get_language())
        nickname_form = NicknameForm(initial={"nickname": suggestion})
    elif request.method == "POST":
        try:
            seat = _join_from_post(request, session, nickname_form)
        except ValidationError as error:
            problem = " ".join(error.messages)
        else:
            return _joined(request, session, seat)
    if nickname_form is not None and problem:
        # A form error is already on the form; a refusal from the service is not yet.
        if nickname_form.is_valid():
            nickname_form.add_error("nickname", problem)
        problem = ""
    context = {
        "session": session,
        "closed": closed,
        "nickname_form": nickname_form,
        "roster": _roster(session) if not session.is_guest and not closed else [],
        "problem": problem,
    }
    return render(request, "play/join_session.html", context, status=400 if problem else 200)


def _join_from_post(
    request: HttpRequest, session: GameSession, nickname_form: NicknameForm | None
) -> Seat:
    if nickname_form is not None:
        if not nickname_form.is_valid():
            raise ValidationError(list(nickname_form.errors["nickname"]))
        guest = seat_services.GuestJoin(
            nickname=nickname_form.cleaned_data["nickname"], device_id=device_id(request)
        )
        return seat_join_queued(session=session, request=guest)
    student_id = whole_number_parse(request.POST.get("student", ""))
    student = (
        session.school_class.students.filter(pk=student_id).first()
        if session.school_class is not None and student_id is not None
        else None
    )
    if student is None:
        raise ValidationError(_("Tap your name in the list."))
    tap = seat_services.StudentJoin(student=student, device_id=device_id(request))
    return seat_join_queued(session=session, request=tap)


def _roster(session: GameSession) -> list[dict[str, object]]:
    """Every student of the class, marked when they are already playing or removed."""
    assert session.school_class is not None
    seats = {seat.student_id: seat for seat in seats_with_presence(session=session)}
    roster = []
    for student in session.school_class.students.all():
        seat = seats.get(student.pk)
        roster.append(
            {
                "student": student,
                "playing": bool(seat and getattr(seat, "connected", False)),
                "removed": bool(seat and seat.is_kicked),
            }
        )
    return roster


@device_cookie
def join_badge(request: HttpRequest, token: str) -> HttpResponse:
    """A badge QR code: straight into the class's open session, no code or name to type;
    with no class game open, into practice."""
    student = student_get_by_token(token=token)
    if (
        student is not None
        and session_open_for_class(school_class_id=student.school_class_id) is None
    ):
        return badge_practice(request, student)
    try:
        seat = seat_services.seat_join_badge(token=token, device_id=device_id(request))
    except ValidationError as error:
        return render(
            request,
            "play/join.html",
            {"form": JoinCodeForm(), "problem": " ".join(error.messages)},
            status=404,
        )
    return seat_lobby_redirect(seat=seat)
