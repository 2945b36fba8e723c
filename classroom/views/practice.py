"""A student practising alone on a tablet: sign in (badge or class code + name), pick a game
or an assignment, play against patient bots (or alone where the game allows it), see how it went."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom.forms.join import JoinCodeForm
from classroom.forms.whole_numbers import whole_number_parse
from classroom.gamesite.ladder_labels import rung_label
from classroom.join_codes import join_code_is_well_formed, join_code_normalize
from classroom.models import Assignment, GameSession, PracticeSignIn, SchoolClass
from classroom.people.device_cookies import device_cookie, device_id
from classroom.people.practice_cookies import (
    practice_sign_in_forget,
    practice_sign_in_get,
    practice_sign_in_set,
)
from classroom.people.seat_cookies import seat_cookie_get, seat_lobby_redirect
from classroom.selectors import analytics as analytics_selectors
from classroom.selectors.levels import level_track, student_rung
from classroom.selectors.practice import practice_sessions, student_assignments
from classroom.selectors.practice_access import (
    practice_code_closed_message,
    practice_code_is_open,
)
from classroom.selectors.sessions import (
    seat_get_by_token,
    session_get_by_code,
    session_open_for_class,
)
from classroom.services import practice as practice_services
from classroom.services import practice_access
from classroom.services.classes import student_practice_warmup_set
from classroom.services.seats import seat_join_student
from classroom.web import rate_limits
from games.registry import game_registry

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpRequest, HttpResponse

    from classroom.models import Seat, Student


def _signed_in(request: HttpRequest) -> PracticeSignIn | HttpResponse:
    """The tablet's practice sign-in, or the way back to signing in (with the reason, kindly,
    when its class code closed or changed, or it is too old)."""
    sign_in, problem = practice_sign_in_get(request)
    if sign_in is not None:
        return sign_in
    if not problem:
        return redirect("practice_sign_in")
    response = _sign_in_page(request, _code_form(), problem=problem, status=403)
    practice_sign_in_forget(response)
    return response


def _practice_signed_in(
    view: Callable[[HttpRequest, PracticeSignIn], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """The view for a tablet signed in to practise, handed the sign-in; the way back to
    signing in for any other tablet."""

    @functools.wraps(view)
    def signed_in_view(request: HttpRequest) -> HttpResponse:
        sign_in = _signed_in(request)
        if not isinstance(sign_in, PracticeSignIn):
            return sign_in
        return view(request, sign_in)

    return signed_in_view


def _code_form(data: Any = None, **kwargs: Any) -> JoinCodeForm:
    form = JoinCodeForm(data, **kwargs)
    # Before anything reads the form: its bound fields keep the label they were made with.
    form.fields["code"].label = _("Class practice code")
    return form


def _sign_in_page(
    request: HttpRequest, form: JoinCodeForm, *, problem: str = "", status: int = 200
) -> HttpResponse:
    context = {"form": form, "problem": problem}
    return render(request, "practice/sign_in.html", context, status=status)


def _games(student: Student) -> list[dict[str, Any]]:
    games = []
    for slug, spec in game_registry().items():
        rung = student_rung(student=student, game=slug)
        games.append(
            {
                "slug": slug,
                "name": _(spec.name),
                "tagline": _(spec.tagline),
                "modes": practice_services.practice_modes(game=slug),
                "level": rung_label(game=slug, rung=rung),
            }
        )
    return games


@require_GET
@_practice_signed_in
def practice_home(request: HttpRequest, sign_in: PracticeSignIn) -> HttpResponse:
    return render(request, "practice/home.html", _home_context(sign_in))


@require_http_methods(["GET", "POST"])
def practice_sign_in(request: HttpRequest) -> HttpResponse:
    """Class code first (from the board), then the child taps their name."""
    form = _code_form(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        school_class = _class_for_code(request, code)
        if school_class is not None and practice_code_is_open(school_class=school_class):
            return redirect("practice_sign_in_class", code=school_class.practice_code)
        if school_class is not None:
            form.add_error("code", practice_code_closed_message())
            status = 403
        else:
            exhausted = rate_limits.join_code_guesses_exhausted(request)
            form.add_error(
                "code",
                _("Too many wrong codes. Wait a minute, then try again.")
                if exhausted
                else _("We couldn't find a class with the code %(code)s.") % {"code": code or "—"},
            )
            status = rate_limits.TOO_MANY_GUESSES if exhausted else 200
    return _sign_in_page(request, form, status=status)


def _class_for_code(request: HttpRequest, code: str) -> SchoolClass | None:
    if rate_limits.join_code_guesses_exhausted(request):
        return None
    found = (
        SchoolClass.objects.filter(practice_code=code, deleted_at__isnull=True).first()
        if join_code_is_well_formed(code)
        else None
    )
    if found is None:
        rate_limits.join_code_miss_count(request)
    return found


@require_http_methods(["GET", "POST"])
def practice_sign_in_class(request: HttpRequest, code: str) -> HttpResponse:
    school_class = _class_for_code(request, join_code_normalize(code))
    if school_class is None:
        return redirect("practice_sign_in")
    if not practice_code_is_open(school_class=school_class):
        # Closed: not even the names are shown.
        form = _code_form(initial={"code": school_class.practice_code})
        return _sign_in_page(request, form, problem=practice_code_closed_message(), status=403)
    problem = ""
    if request.method == "POST":
        student_id = whole_number_parse(request.POST.get("student", ""))
        student = (
            school_class.students.filter(pk=student_id).first() if student_id is not None else None
        )
        if student is not None:
            try:
                sign_in = practice_access.practice_sign_in_by_code(
                    school_class=school_class, student=student
                )
            except ValidationError as error:
                return _sign_in_page(request, form, problem=" ".join(error.messages), status=403)
            response = redirect("practice_home")
            practice_sign_in_set(response, sign_in=sign_in)
            return response
        problem = _("Tap your name in the list.")
    context = {
        "school_class": school_class,
        "students": school_class.students.all(),
        "problem": problem,
    }
    return render(request, "practice/sign_in_class.html", context, status=400 if problem else 200)


@require_POST
def practice_sign_out(request: HttpRequest) -> HttpResponse:
    sign_in, _problem = practice_sign_in_get(request)
    if sign_in is not None:
        practice_access.practice_sign_out(sign_in=sign_in)
    response = redirect("practice_sign_in")
    practice_sign_in_forget(response)
    return response


def badge_practice(request: HttpRequest, student: Student) -> HttpResponse:
    """A badge with no class game open: sign the tablet in for practice."""
    response = redirect("practice_home")
    sign_in = practice_access.practice_sign_in_by_badge(student=student)
    practice_sign_in_set(response, sign_in=sign_in)
    return response


@require_POST
@device_cookie
@_practice_signed_in
def practice_join_class(request: HttpRequest, sign_in: PracticeSignIn) -> HttpResponse:
    """From the practice page into the class game that just opened: signed in by badge, by
    the badge's rule (it may take the child's seat over); by class code, by the roster
    tap's (a seat another tablet is connected to is refused)."""
    student = sign_in.student
    session = session_open_for_class(school_class_id=student.school_class_id)
    if session is None:
        return redirect("practice_home")
    return _lobby_or_problem(
        request,
        sign_in,
        functools.partial(
            seat_join_student,
            session=session,
            student=student,
            from_badge=sign_in.via == PracticeSignIn.Via.BADGE,
            device_id=device_id(request),
        ),
    )


@require_POST
@_practice_signed_in
def practice_start(request: HttpRequest, sign_in: PracticeSignIn) -> HttpResponse:
    student = sign_in.student
    assignment_id = request.POST.get("assignment", "")
    assignment_pk = whole_number_parse(assignment_id)
    assignment = (
        Assignment.objects.filter(pk=assignment_pk).first() if assignment_pk is not None else None
    )
    if assignment_id and assignment is None:
        return _home_with_problem(request, sign_in, _("That practice was not set for you."))
    game = assignment.game if assignment is not None else request.POST.get("game", "")
    return _lobby_or_problem(
        request,
        sign_in,
        functools.partial(
            practice_services.practice_start,
            student=student,
            game=game,
            mode=request.POST.get("mode", practice_services.WITH_BOTS),
            assignment=assignment,
            language=get_language() or "en",
            sign_in=sign_in,
        ),
    )


@require_POST
@_practice_signed_in
def practice_warmup_choose(request: HttpRequest, sign_in: PracticeSignIn) -> HttpResponse:
    """The child's own choice: warm up before each practice game, or not."""
    student_practice_warmup_set(student=sign_in.student, warmup=request.POST.get("warmup") == "on")
    return redirect("practice_home")


def _home_context(sign_in: PracticeSignIn, *, problem: str = "") -> dict[str, Any]:
    student = sign_in.student
    progress = student_assignments(student=student)  # one query set, split in two
    return {
        "student": student,
        "by_badge": sign_in.via == PracticeSignIn.Via.BADGE,
        "assignments": [p for p in progress if not p.complete],
        "finished_assignments": [p for p in progress if p.complete],
        "games": _games(student),
        "class_session": session_open_for_class(school_class_id=student.school_class_id),
        "problem": problem,
    }


def _lobby_or_problem(
    request: HttpRequest, sign_in: PracticeSignIn, take_seat: Callable[[], Seat]
) -> HttpResponse:
    """Into the lobby of the seat ``take_seat`` gives, or the practice page again with why
    the service refused it (nothing was saved)."""
    try:
        seat = take_seat()
    except ValidationError as error:
        return _home_with_problem(request, sign_in, " ".join(error.messages))
    return seat_lobby_redirect(seat=seat)


def _home_with_problem(request: HttpRequest, sign_in: PracticeSignIn, problem: str) -> HttpResponse:
    context = _home_context(sign_in, problem=problem)
    return render(request, "practice/home.html", context, status=400)


def _practice_seat(request: HttpRequest, code: str) -> Seat | None:
    """This tablet's seat in the practice game ``code`` (None if it has none)."""
    session = session_get_by_code(code=join_code_normalize(code))
    if session is None or not session.is_practice:
        return None
    return seat_get_by_token(session=session, token=seat_cookie_get(request, code=session.code))


@require_POST
def practice_finish(request: HttpRequest, code: str) -> HttpResponse:
    seat = _practice_seat(request, code)
    if seat is None:
        return redirect("practice_home")
    practice_services.practice_finish(seat=seat)
    return redirect("practice_result", code=seat.session.code)


@require_GET
def practice_result(request: HttpRequest, code: str) -> HttpResponse:
    seat = _practice_seat(request, code)
    if seat is None:
        return redirect("practice_home")
    session = seat.session
    reports = [
        r for r in analytics_selectors.session_report(session=session) if r.seat.pk == seat.pk
    ]
    overall = reports[0].overall if reports else None
    track = (
        [
            p
            for p in level_track(student=seat.student, game=session.game)
            if p.session_id == session.pk
        ]
        if seat.student
        else []
    )
    context = {
        "session": session,
        "seat": seat,
        "measures": overall,
        "level_from": rung_label(game=session.game, rung=track[0].first_rung) if track else "",
        "level_to": rung_label(game=session.game, rung=track[0].last_rung) if track else "",
        "moved": (track[0].last_rung - track[0].first_rung) if track else 0,
        "again_url": reverse("practice_home"),
    }
    return render(request, "practice/result.html", context)


@require_GET
@_practice_signed_in
def practice_progress(request: HttpRequest, sign_in: PracticeSignIn) -> HttpResponse:
    """The child's own progress: practice and class games, with their level in each game.

    Signed in by badge, all of it. Signed in by class code (anyone could have tapped the
    name), only the games played on this sign-in, without the history."""
    student = sign_in.student
    by_badge = sign_in.via == PracticeSignIn.Via.BADGE
    mine = set(sign_in.seats.values_list("session_id", flat=True))
    games = []
    for slug, spec in game_registry().items():
        track = level_track(student=student, game=slug) if by_badge else []
        sessions = analytics_selectors.student_sessions(student=student, game=slug)
        if not by_badge:
            sessions = [point for point in sessions if point.session_id in mine]
        if not track and not sessions:
            continue
        games.append(
            {
                "name": _(spec.name),
                "level": rung_label(game=slug, rung=student_rung(student=student, game=slug)),
                "track": track,
                "rungs": len(spec.ladder),
                "sessions": sessions[-8:],
            }
        )
    recent = practice_sessions(student=student)
    if not by_badge:
        recent = recent.filter(pk__in=mine)
    context = {
        "student": student,
        "by_badge": by_badge,
        "games": games,
        "recent": recent[:10],
        "Kind": GameSession.Kind,
    }
    return render(request, "practice/progress.html", context)
