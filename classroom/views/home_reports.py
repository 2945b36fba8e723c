"""Reports for home: a teacher asks for a child's page or the class's set (a period and a
language), the task worker builds it (``classroom.services.exports``), a page shows its
progress and then opens it: a whole HTML page that the browser prints or saves as PDF.

Only the teacher who asked sees it, and only while they may still see the class
(``export_of_owner``); any other teacher, and any class or child not theirs, gets 404.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_POST

from classroom.forms.home_reports import HomeReportForm
from classroom.reports.home import period_label
from classroom.selectors.exports import export_of_owner
from classroom.selectors.home_reports import class_language
from classroom.services.exports import (
    HOME,
    ExportRefused,
    export_file_path,
    export_is_stuck,
    export_prepare,
)
from classroom.views.access import class_or_404, class_student_or_404

if TYPE_CHECKING:
    from typing import Any

    from classroom.models import Export, SchoolClass, Student
    from classroom.views.http import TeacherRequest

STATUS_TEMPLATE = "classroom/home_report_status.html"


def home_report_form(*, school_class: SchoolClass) -> HomeReportForm:
    """The form that asks for reports for home, in the class's language if it has one the
    site speaks, else the page's."""
    language = class_language(school_class=school_class) or translation.get_language() or "en"
    return HomeReportForm(initial={"language": language})


@login_required
@require_POST
def class_home_reports_prepare(request: TeacherRequest, class_id: int) -> HttpResponse:
    """The class's set: every child's page in one file."""
    school_class = class_or_404(request, class_id)
    return _prepare(request, school_class, None)


@login_required
@require_POST
def student_home_report_prepare(
    request: TeacherRequest, class_id: int, student_id: int
) -> HttpResponse:
    school_class, student = class_student_or_404(request, class_id, student_id)
    return _prepare(request, school_class, student)


def _prepare(
    request: TeacherRequest, school_class: SchoolClass, student: Student | None
) -> HttpResponse:
    form = HomeReportForm(request.POST)
    back = (
        reverse("student_progress", args=[school_class.pk, student.pk])
        if student is not None
        else reverse("class_overview", args=[school_class.pk])
    )
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for e in form.errors.values()))
        return redirect(back)
    try:
        with translation.override(form.cleaned_data["language"]):
            export = export_prepare(
                owner=request.user,
                kind=HOME,
                school_class=school_class,
                student=student,
                period=form.cleaned_data["period"],
            )
    except ExportRefused as refusal:
        messages.error(request, str(refusal))
        return redirect(back)
    return redirect("home_report_status", export_id=export.pk)


def _home_export(request: TeacherRequest, export_id: int) -> Export:
    export = export_of_owner(owner=request.user, export_id=export_id)
    if export.kind != HOME:
        raise Http404
    return export


def _status_context(export: Export) -> dict[str, Any]:
    return {
        "export": export,
        "school_class": export.school_class,
        "student": export.student,
        "period": period_label(export.period),
        "language_name": dict(settings.LANGUAGES).get(export.language, export.language),
        "export_stuck": export_is_stuck(export),
        "ready": export_file_path(export) is not None,
    }


def _not_a_read(request: TeacherRequest) -> HttpResponse | None:
    """405 for anything but GET and HEAD, checked after ownership: another teacher learns
    nothing, whatever the method."""
    if request.method not in {"GET", "HEAD"}:
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return None


@login_required
def home_report_status(request: TeacherRequest, export_id: int) -> HttpResponse:
    """The report's progress (htmx asks again every second), then a link to open it."""
    export = _home_export(request, export_id)
    if (refusal := _not_a_read(request)) is not None:
        return refusal
    template = f"{STATUS_TEMPLATE}#status" if request.htmx else STATUS_TEMPLATE
    return render(request, template, _status_context(export))


@login_required
def home_report_file(request: TeacherRequest, export_id: int) -> HttpResponse:
    """The finished report as a page of its own, for the browser to print or save as PDF."""
    export = _home_export(request, export_id)
    if (refusal := _not_a_read(request)) is not None:
        return refusal
    path = export_file_path(export)
    if path is None:
        raise Http404
    response = HttpResponse(path.read_bytes(), content_type="text/html; charset=utf-8")
    # A child's name: no shared cache may keep a copy.
    response["Cache-Control"] = "private, no-store"
    return response
