from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from classroom.forms.class_shares import ClassShareForm
from classroom.forms.classes import ClassForm
from classroom.people.year_groups import YEAR_GROUP_CHOICES
from classroom.selectors.classes import ClassRight, class_access, class_shares
from classroom.services.classes import (
    class_create,
    class_delete_begin,
    class_delete_preview,
    class_update,
    student_colour_safe_set,
    student_extra_time_set,
    student_practice_warmup_set,
    student_token_rotate,
    student_year_group_set,
)
from classroom.services.classes import (
    student_remove as student_remove_service,
)
from classroom.views.access import class_or_404, class_student_or_404
from classroom.views.home_reports import home_report_form
from classroom.web.compression import uncompressed

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import SchoolClass, Student
    from classroom.views.http import TeacherRequest


@login_required
@require_http_methods(["GET", "POST"])
def class_new(request: TeacherRequest) -> HttpResponse:
    def save(data: dict[str, Any]) -> SchoolClass:
        return class_create(
            teacher=request.user, name=data["name"], student_names=data["student_names"]
        )

    return _class_form_page(request, ClassForm(request.POST or None), None, save)


@login_required
@require_http_methods(["GET", "POST"])
def class_edit(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    form = ClassForm(request.POST or None, initial={"name": school_class.name}, adding=True)

    def save(data: dict[str, Any]) -> SchoolClass:
        return class_update(
            school_class=school_class, name=data["name"], new_student_names=data["student_names"]
        )

    return _class_form_page(request, form, school_class, save)


def _class_form_page(
    request: TeacherRequest,
    form: ClassForm,
    school_class: SchoolClass | None,
    save: Callable[[dict[str, Any]], SchoolClass],
) -> HttpResponse:
    """The class form (a new class, or ``school_class``'s); a valid POST is ``save``d and
    leads to the class's page."""
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("%(name)s is saved.") % {"name": saved.name})
            return redirect("class_detail", class_id=saved.pk)
    context = {"form": form, "school_class": school_class}
    return render(request, "classroom/class_form.html", context)


@login_required
def class_detail(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id)
    access = class_access(school_class=school_class, teacher=request.user)
    if access is None:
        raise Http404  # the share was revoked a moment ago
    context = {
        "school_class": school_class,
        "students": school_class.students.all(),
        "access": access,
        "may_manage": access.may_manage,
        "year_groups": YEAR_GROUP_CHOICES,
        "home_form": home_report_form(school_class=school_class),
    }
    if access.is_owner:
        context.update(shares=class_shares(school_class=school_class), share_form=ClassShareForm())
    return render(request, "classroom/class_detail.html", context)


@login_required
@uncompressed
def class_badges(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id)
    badges = [
        (student, request.build_absolute_uri(reverse("join_badge", args=[student.token])))
        for student in school_class.students.all()
    ]
    return render(
        request, "classroom/class_badges.html", {"school_class": school_class, "badges": badges}
    )


@login_required
@require_POST
def student_remove(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    school_class, student = class_student_or_404(request, class_id, student_id, ClassRight.MANAGE)
    name = student.display_name
    student_remove_service(student=student)
    if request.htmx:
        return HttpResponse("")  # htmx swaps the row out
    messages.success(request, _("%(name)s is no longer on the class list.") % {"name": name})
    return redirect("class_detail", class_id=school_class.pk)


@login_required
@require_POST
def student_rotate(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    school_class, student = class_student_or_404(request, class_id, student_id, ClassRight.MANAGE)
    student_token_rotate(student=student)
    notice = _("New badge for %(name)s: print it again; the old one no longer works.") % {
        "name": student.display_name
    }
    if request.htmx:
        return _student_row(request, school_class, student, notice=notice)
    messages.success(request, notice)
    return redirect("class_detail", class_id=school_class.pk)


@login_required
@require_POST
def student_colour_safe(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    return _student_switch(request, class_id, student_id, "colour_safe", student_colour_safe_set)


@login_required
@require_POST
def student_extra_time(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    return _student_choice(request, class_id, student_id, "extra_time", student_extra_time_set)


@login_required
@require_POST
def student_practice_warmup(
    request: TeacherRequest, class_id: int, student_id: int
) -> HttpResponse:
    return _student_switch(request, class_id, student_id, "warmup", student_practice_warmup_set)


@login_required
@require_POST
def student_year_group(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    return _student_choice(request, class_id, student_id, "year_group", student_year_group_set)


def _student_switch(
    request: TeacherRequest,
    class_id: int,
    student_id: int,
    field: str,
    switch: Callable[..., Student],
) -> HttpResponse:
    """One of a student's on/off switches on the class page (``switch(student=, <field>=)``;
    an unticked box sends nothing, so anything but "on" is off): the row again."""
    school_class, student = class_student_or_404(request, class_id, student_id, ClassRight.MANAGE)
    switch(student=student, **{field: request.POST.get(field) == "on"})
    if request.htmx:
        return _student_row(request, school_class, student)
    return redirect("class_detail", class_id=school_class.pk)


def _student_choice(
    request: TeacherRequest,
    class_id: int,
    student_id: int,
    field: str,
    choose: Callable[..., Student],
) -> HttpResponse:
    """One of a student's choices on the class page (``choose(student=, <field>=)``, a
    service that refuses with ValidationError and saves nothing): the row again, with the
    refusal beside the choice it concerns."""
    school_class, student = class_student_or_404(request, class_id, student_id, ClassRight.MANAGE)
    try:
        choose(student=student, **{field: request.POST.get(field, "")})
    except ValidationError as refused:
        problem = " ".join(refused.messages)
        if request.htmx:
            return _student_row(request, school_class, student, refused={field: problem})
        messages.error(request, problem)
    if request.htmx:
        return _student_row(request, school_class, student)
    return redirect("class_detail", class_id=school_class.pk)


def _student_row(
    request: TeacherRequest, school_class: SchoolClass, student: Student, **more: Any
) -> HttpResponse:
    """A student's row of the class page, as htmx swaps it in after a change (``notice``: a
    word on the new badge; ``refused``: a choice's refusal by its field)."""
    context = {
        "school_class": school_class,
        "student": student,
        "may_manage": True,
        "year_groups": YEAR_GROUP_CHOICES,
        **more,
    }
    return render(request, "classroom/class_detail.html#student-row", context)


@login_required
@require_http_methods(["GET", "POST"])
def class_delete(request: TeacherRequest, class_id: int) -> HttpResponse:
    """GET: what would go, with a confirm button. POST: delete the class and everything of it.
    Only its owner: a colleague it is shared with gets 404."""
    school_class = class_or_404(request, class_id, ClassRight.OWN)
    error = None
    if request.method == "POST":
        name = school_class.name
        try:
            trials = class_delete_begin(school_class=school_class)
        except ValidationError as refused:
            error = " ".join(refused.messages)
        else:
            messages.success(
                request,
                _("Class %(name)s deleted, with its students, sessions and results.")
                % {"name": name}
                + (_(" Its results are being removed in the background.") if trials else ""),
            )
            return redirect("home")
    return render(
        request,
        "classroom/class_confirm_delete.html",
        {
            "school_class": school_class,
            "deletion": class_delete_preview(school_class=school_class),
            "error": error,
        },
        status=409 if error else 200,
    )
