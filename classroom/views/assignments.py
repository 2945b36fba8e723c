"""The teacher's practice page for a class: its practice code, what is set, who has done it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from classroom.forms.assignments import AssignmentForm, PracticeCodeOpenForm
from classroom.models import Assignment
from classroom.selectors.classes import ClassRight
from classroom.selectors.practice import class_assignments
from classroom.selectors.practice_access import practice_code_is_open
from classroom.services import practice_access
from classroom.services.assignments import assignment_create, assignment_delete
from classroom.views.access import class_or_404
from classroom.web.compression import uncompressed

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.models import SchoolClass
    from classroom.views.http import TeacherRequest


@login_required
@uncompressed
@require_http_methods(["GET", "POST"])
def class_practice(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    form = AssignmentForm(request.POST or None, school_class=school_class)
    if request.method == "POST" and form.is_valid():
        try:
            # The form's fields are the service's: game, student, rungs, goal and due date.
            assignment_create(teacher=request.user, school_class=school_class, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Practice set."))
            return redirect("class_practice", class_id=school_class.pk)
    return _practice_page(request, school_class, form=form)


def _practice_page(
    request: TeacherRequest,
    school_class: SchoolClass,
    *,
    form: AssignmentForm | None = None,
    code_form: PracticeCodeOpenForm | None = None,
) -> HttpResponse:
    if form is None:
        form = AssignmentForm(school_class=school_class)
    if code_form is None:
        code_form = PracticeCodeOpenForm(initial={"school_day_ends": school_class.school_day_ends})
    context = {
        "school_class": school_class,
        "form": form,
        "code_form": code_form,
        "code_open": practice_code_is_open(school_class=school_class),
        "completions": class_assignments(school_class=school_class),
    }
    status = 400 if form.errors or code_form.errors else 200
    return render(request, "classroom/class_practice.html", context, status=status)


PRACTICE_CODE_ACTIONS = ("open", "rotate", "close")


@login_required
@require_POST
def practice_code_action(request: TeacherRequest, class_id: int, action: str) -> HttpResponse:
    """Open sign-in by the class code for a while, give the class a new code, or turn it off.
    Badges work whatever the code does."""
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    if action not in PRACTICE_CODE_ACTIONS:
        raise Http404
    if action == "open":
        code_form = PracticeCodeOpenForm(request.POST)
        if not code_form.is_valid():
            return _practice_page(request, school_class, code_form=code_form)
        try:
            school_class = practice_access.practice_code_open(
                school_class=school_class,
                open_for=code_form.cleaned_data["open_for"],
                school_day_ends=code_form.cleaned_data["school_day_ends"],
            )
        except ValidationError as error:
            code_form.add_error(None, error)
            return _practice_page(request, school_class, code_form=code_form)
        messages.success(request, _("Children can sign in with the practice code now."))
    elif action == "rotate":
        school_class, count = practice_access.practice_code_rotate(school_class=school_class)
        messages.success(request, _signed_out(_("The class has a new practice code."), count))
    else:
        count = practice_access.practice_code_close(school_class=school_class)
        notice = _("Sign-in with the practice code is off. Badges still work.")
        messages.success(request, _signed_out(notice, count))
    return redirect("class_practice", class_id=school_class.pk)


def _signed_out(notice: str, count: int) -> str:
    if not count:
        return notice
    return " ".join(
        (
            notice,
            ngettext(
                "%(count)d tablet was signed out.", "%(count)d tablets were signed out.", count
            )
            % {"count": count},
        )
    )


@login_required
def assignment_levels(request: TeacherRequest, class_id: int) -> HttpResponse:
    """The level fields for the game picked in the form (an htmx swap)."""
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    form = AssignmentForm(initial={"game": request.GET.get("game", "")}, school_class=school_class)
    return render(request, "classroom/_assignment_levels.html", {"form": form})


@login_required
@require_POST
def assignment_remove(request: TeacherRequest, class_id: int, assignment_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    assignment = get_object_or_404(Assignment, pk=assignment_id, school_class=school_class)
    assignment_delete(assignment=assignment)
    messages.success(request, _("Practice removed. What the students did stays in their progress."))
    return redirect("class_practice", class_id=school_class.pk)
