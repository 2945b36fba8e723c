"""Adding students from a class list file: upload, a preview marked line by line, confirm."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from classroom.forms.classes import RosterFileForm
from classroom.selectors.classes import ClassRight
from classroom.services.rosters import (
    ROSTER_FILE_MAX_BYTES,
    RosterLine,
    RosterPreview,
    roster_import,
    roster_read,
)
from classroom.views.access import class_or_404

if TYPE_CHECKING:
    from django.http import HttpResponse

    from classroom.views.http import TeacherRequest

_PAGE = "classroom/class_roster.html"


def _render(request: TeacherRequest, context: dict[str, Any]) -> HttpResponse:
    # htmx swaps only the preview; without it (no JavaScript) the whole page comes back.
    # Problems answer 200: htmx swaps no 4xx answer, and the teacher must see them.
    template = f"{_PAGE}#roster-preview" if request.htmx else _PAGE
    context.setdefault("form", RosterFileForm())
    return render(request, template, context)


@login_required
def class_roster(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    return render(request, _PAGE, {"school_class": school_class, "form": RosterFileForm()})


@login_required
@require_POST
def class_roster_preview(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    form = RosterFileForm(request.POST, request.FILES)
    context: dict[str, Any] = {"school_class": school_class, "form": form}
    if not form.is_valid():
        return _render(request, context)
    upload = form.cleaned_data["file"]
    # Read one byte past the limit, so a huge upload is refused without reading it all.
    data = upload.read(ROSTER_FILE_MAX_BYTES + 1)
    try:
        preview = roster_read(school_class=school_class, data=data)
    except ValidationError as error:
        form.add_error("file", error)
        return _render(request, context)
    context["preview"] = preview
    return _render(request, context)


def _posted_lines(request: TeacherRequest) -> tuple[list[RosterLine], set[int]]:
    try:
        numbers = [int(value) for value in request.POST.getlist("line")]
        dropped = {int(value) for value in request.POST.getlist("drop")}
    except ValueError as error:
        raise ValidationError(_("The preview was incomplete: upload the file again.")) from error
    lines = [
        RosterLine(
            line=number,
            text=request.POST.get(f"text-{number}", "")[:400],
            name=request.POST.get(f"name-{number}", "")[:200],
            year_group=request.POST.get(f"year-{number}", "")[:12],
        )
        for number in numbers
    ]
    if not lines:
        raise ValidationError(_("The preview was incomplete: upload the file again."))
    return lines, dropped


@login_required
@require_POST
def class_roster_confirm(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id, ClassRight.MANAGE)
    context: dict[str, Any] = {"school_class": school_class}
    try:
        lines, dropped = _posted_lines(request)
    except ValidationError as error:
        context["confirm_error"] = " ".join(error.messages)
        return _render(request, context)
    try:
        added = roster_import(school_class=school_class, lines=lines, dropped=dropped)
    except ValidationError as error:
        checked = (error.params or {}).get("lines") if error.code == "problems" else None
        kept = list(checked) if checked else []
        by_line = {line.line: line for line in kept}
        context["preview"] = RosterPreview(
            lines=tuple(by_line.get(line.line, line) for line in lines)
        )
        context["dropped"] = dropped
        context["confirm_error"] = " ".join(error.messages)
        return _render(request, context)
    messages.success(
        request,
        ngettext(
            "%(count)d student added from the file.",
            "%(count)d students added from the file.",
            len(added),
        )
        % {"count": len(added)},
    )
    if request.htmx:
        return HttpResponseClientRedirect(reverse("class_detail", args=[school_class.pk]))
    return redirect("class_detail", class_id=school_class.pk)
