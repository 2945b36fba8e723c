"""The teacher's practice page for a class: its practice code, what is set, who has done it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from classroom.forms.assignments import AssignmentForm
from classroom.models import Assignment, SchoolClass
from classroom.selectors.practice import class_assignments
from classroom.services.assignments import assignment_create, assignment_delete

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.views.http import TeacherRequest


def _own_class(request: TeacherRequest, class_id: int) -> SchoolClass:
    return get_object_or_404(SchoolClass, pk=class_id, teacher=request.user)


@login_required
@require_http_methods(["GET", "POST"])
def class_practice(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = _own_class(request, class_id)
    form = AssignmentForm(request.POST or None, school_class=school_class)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            assignment_create(
                teacher=request.user,
                school_class=school_class,
                student=data["student"],
                game=data["game"],
                rung_min=data["rung_min"],
                rung_max=data["rung_max"],
                goal_kind=data["goal_kind"],
                goal=data["goal"],
                due_on=data["due_on"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Practice set."))
            return redirect("class_practice", class_id=school_class.pk)
    context = {
        "school_class": school_class,
        "form": form,
        "completions": class_assignments(school_class=school_class),
    }
    return render(
        request, "classroom/class_practice.html", context, status=400 if form.errors else 200
    )


@login_required
def assignment_levels(request: TeacherRequest, class_id: int) -> HttpResponse:
    """The level fields for the game picked in the form (an htmx swap)."""
    school_class = _own_class(request, class_id)
    form = AssignmentForm(initial={"game": request.GET.get("game", "")}, school_class=school_class)
    return render(request, "classroom/_assignment_levels.html", {"form": form})


@login_required
@require_POST
def assignment_remove(request: TeacherRequest, class_id: int, assignment_id: int) -> HttpResponse:
    school_class = _own_class(request, class_id)
    assignment = get_object_or_404(Assignment, pk=assignment_id, school_class=school_class)
    assignment_delete(assignment=assignment)
    messages.success(request, _("Practice removed. What the students did stays in their progress."))
    return redirect("class_practice", class_id=school_class.pk)
