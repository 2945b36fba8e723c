"""A student practising alone on a tablet: sign in (badge or class code + name), pick a game
or an assignment, play against patient bots (or Palm Strike alone), see how it went."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from classroom.forms.join import JoinCodeForm
from classroom.forms.whole_numbers import whole_number_parse
from classroom.ladder_labels import rung_label
from classroom.models import Assignment, GameSession, SchoolClass
from classroom.practice_cookies import (
    practice_student_forget,
    practice_student_get,
    practice_student_set,
)
from classroom.rate_limits import join_code_guesses_exhausted, join_code_miss_count
from classroom.seat_cookies import seat_cookie_get, seat_cookie_set
from classroom.selectors import analytics as analytics_selectors
from classroom.selectors.levels import level_track, student_rung
from classroom.selectors.practice import practice_sessions, student_assignments
from classroom.selectors.sessions import (
    seat_get_by_token,
    session_get_by_code,
    session_open_for_class,
)
from classroom.services import practice as practice_services
from classroom.services.join_codes import join_code_is_well_formed, join_code_normalize
from classroom.services.seats import seat_join_badge
from games.core import game_registry

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse

    from classroom.models import Seat, Student

TOO_MANY_GUESSES = 429


def _signed_in(request: HttpRequest) -> Student | None:
    return practice_student_get(request)


def _to_sign_in() -> HttpResponse:
    return redirect("practice_sign_in")


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
def practice_home(request: HttpRequest) -> HttpResponse:
    student = _signed_in(request)
    if student is None:
        return _to_sign_in()
    return render(request, "practice/home.html", _home_context(student))


@require_http_methods(["GET", "POST"])
def practice_sign_in(request: HttpRequest) -> HttpResponse:
    """Class code first (from the board), then the child taps their name."""
    form = JoinCodeForm(request.POST or None)
    form.fields["code"].label = _("Class practice code")
    status = 200
    if request.method == "POST" and form.is_valid():
        code = form.cleaned_data["code"]
        school_class = _class_for_code(request, code)
        if school_class is not None:
            return redirect("practice_sign_in_class", code=school_class.practice_code)
        form.add_error(
            "code",
            _("Too many wrong codes. Wait a minute, then try again.")
            if join_code_guesses_exhausted(request)
            else _("We couldn't find a class with the code %(code)s.") % {"code": code or "—"},
        )
        status = TOO_MANY_GUESSES if join_code_guesses_exhausted(request) else 200
    return render(request, "practice/sign_in.html", {"form": form}, status=status)


def _class_for_code(request: HttpRequest, code: str) -> SchoolClass | None:
    if join_code_guesses_exhausted(request):
        return None
    found = (
        SchoolClass.objects.filter(practice_code=code).first()
        if join_code_is_well_formed(code)
        else None
    )
    if found is None:
        join_code_miss_count(request)
    return found


@require_http_methods(["GET", "POST"])
def practice_sign_in_class(request: HttpRequest, code: str) -> HttpResponse:
    school_class = _class_for_code(request, join_code_normalize(code))
    if school_class is None:
        return redirect("practice_sign_in")
    problem = ""
    if request.method == "POST":
        student_id = whole_number_parse(request.POST.get("student", ""))
        student = (
            school_class.students.filter(pk=student_id).first() if student_id is not None else None
        )
        if student is not None:
            response = redirect("practice_home")
            practice_student_set(response, student=student)
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
    response = redirect("practice_sign_in")
    practice_student_forget(response)
    return response


def badge_practice(request: HttpRequest, student: Student) -> HttpResponse:
    """A badge with no class game open: sign the tablet in for practice."""
    response = redirect("practice_home")
    practice_student_set(response, student=student)
    return response


@require_POST
def practice_join_class(request: HttpRequest) -> HttpResponse:
    """From the practice page into the class game that just opened (the badge's way in)."""
    student = _signed_in(request)
    if student is None:
        return _to_sign_in()
    try:
        seat = seat_join_badge(token=student.token)
    except ValidationError:
        return redirect("practice_home")
    response = redirect("play_lobby", code=seat.session.code)
    seat_cookie_set(response, seat=seat)
    return response


@require_POST
def practice_start(request: HttpRequest) -> HttpResponse:
    student = _signed_in(request)
    if student is None:
        return _to_sign_in()
    assignment_id = request.POST.get("assignment", "")
    assignment_pk = whole_number_parse(assignment_id)
    assignment = (
        Assignment.objects.filter(pk=assignment_pk).first() if assignment_pk is not None else None
    )
    if assignment_id and assignment is None:
        return _home_with_problem(request, student, _("That practice was not set for you."))
    game = assignment.game if assignment is not None else request.POST.get("game", "")
    try:
        seat = practice_services.practice_start(
            student=student,
            game=game,
            mode=request.POST.get("mode", practice_services.WITH_BOTS),
            assignment=assignment,
            language=get_language() or "en",
        )
    except ValidationError as error:
        return _home_with_problem(request, student, " ".join(error.messages))
    response = redirect("play_lobby", code=seat.session.code)
    seat_cookie_set(response, seat=seat)
    return response


def _home_context(student: Student, *, problem: str = "") -> dict[str, Any]:
    progress = student_assignments(student=student)  # one query set, split in two
    return {
        "student": student,
        "assignments": [p for p in progress if not p.complete],
        "finished_assignments": [p for p in progress if p.complete],
        "games": _games(student),
        "class_session": session_open_for_class(school_class_id=student.school_class_id),
        "problem": problem,
    }


def _home_with_problem(request: HttpRequest, student: Student, problem: str) -> HttpResponse:
    context = _home_context(student, problem=problem)
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
def practice_progress(request: HttpRequest) -> HttpResponse:
    """The child's own progress: practice and class games, with their level in each game."""
    student = _signed_in(request)
    if student is None:
        return _to_sign_in()
    games = []
    for slug, spec in game_registry().items():
        track = level_track(student=student, game=slug)
        sessions = analytics_selectors.student_sessions(student=student, game=slug)
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
    recent = practice_sessions(student=student)[:10]
    return render(
        request,
        "practice/progress.html",
        {"student": student, "games": games, "recent": recent, "Kind": GameSession.Kind},
    )
