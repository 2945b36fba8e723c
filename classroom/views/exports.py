"""Downloads of a session's or a class's trials, summaries and codebook (its teachers only: the
owner and the colleagues it is shared with; 404 for anyone else, and for a kind of file that
does not exist), and the workbook, which is prepared
in the background: "Prepare" queues it, the panel polls its progress, the file comes when it
is ready and stays for later downloads."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_POST

from classroom.exports.downloads import (
    KINDS,
    PREPARED_KINDS,
    WORKBOOK,
    export_response,
    prepared_file_response,
)
from classroom.exports.sources import class_file_stem, class_source, session_source
from classroom.selectors.exports import export_latest, export_of_owner
from classroom.services.exports import (
    HOME,
    REPORTS,
    ExportRefused,
    export_file_path,
    export_is_stuck,
    export_prepare,
    export_retry,
)
from classroom.views.access import class_or_404, session_or_404

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from django.http.response import HttpResponseBase

    from classroom.exports.sources import ExportSource
    from classroom.models import Export, GameSession, SchoolClass
    from classroom.views.http import TeacherRequest

PANEL = "classroom/_export_panel.html#panel"


def _not_a_read(request: TeacherRequest) -> HttpResponseNotAllowed | None:
    """405 for anything but GET and HEAD. Checked after ownership: another teacher learns
    nothing, whatever the method."""
    if request.method not in {"GET", "HEAD"}:
        return HttpResponseNotAllowed(["GET", "HEAD"])
    return None


def _page_url(export: Export) -> str:
    if export.kind == REPORTS:
        return reports_page_url(export)
    if export.kind == HOME:
        return reverse("home_report_status", args=[export.pk])
    if export.session_id is not None:
        return reverse("session_report", args=[export.session_id]) + "#downloads"
    return reverse("class_overview", args=[export.school_class_id]) + "#downloads"


def _prepared(export: Export | None, page: str) -> HttpResponseBase:
    """The prepared file if it is ready; otherwise the page where it is prepared."""
    path = export_file_path(export) if export is not None else None
    if export is None or path is None:
        return redirect(page + "#downloads")
    return prepared_file_response(path=path, kind=export.kind, stem=_stem(export))


def _stem(export: Export) -> str:
    if export.session is not None:
        return export.session.code
    assert export.school_class is not None
    return class_file_stem(school_class=export.school_class)


@login_required
def session_export(request: TeacherRequest, session_id: int, kind: str) -> HttpResponseBase:
    session = session_or_404(request, session_id)
    return _download(request, kind, partial(session_source, session=session), session=session)


@login_required
def class_export(request: TeacherRequest, class_id: int, kind: str) -> HttpResponseBase:
    school_class = class_or_404(request, class_id)
    return _download(
        request, kind, partial(class_source, school_class=school_class), school_class=school_class
    )


def _download(
    request: TeacherRequest,
    kind: str,
    source: Callable[[], ExportSource],
    *,
    session: GameSession | None = None,
    school_class: SchoolClass | None = None,
) -> HttpResponseBase:
    """A file of the session's or class's export, written as it goes; for a kind that is
    prepared in the background, the latest prepared file, or the report page where it is
    prepared."""
    if (refusal := _not_a_read(request)) is not None:
        return refusal
    if kind not in KINDS:
        raise Http404
    if kind in PREPARED_KINDS:
        export = export_latest(
            owner=request.user, kind=kind, session=session, school_class=school_class
        )
        if session is not None:
            return _prepared(export, reverse("session_report", args=[session.pk]))
        assert school_class is not None
        return _prepared(export, reverse("class_overview", args=[school_class.pk]))
    return export_response(request=request, kind=kind, source=source())


def export_panel_context(
    *,
    request: TeacherRequest,
    session: GameSession | None = None,
    school_class: SchoolClass | None = None,
) -> dict[str, Any]:
    """What a report page needs to show its workbook panel."""
    export = export_latest(
        owner=request.user, kind=WORKBOOK, session=session, school_class=school_class
    )
    if session is not None:
        prepare_url = reverse("session_export_prepare", args=[session.pk])
    else:
        assert school_class is not None
        prepare_url = reverse("class_export_prepare", args=[school_class.pk])
    return _panel(export, prepare_url, error="")


def _panel(export: Export | None, prepare_url: str, *, error: str) -> dict[str, Any]:
    return {
        "export": export,
        "export_stuck": export is not None and export_is_stuck(export),
        "export_ready": export is not None and export_file_path(export) is not None,
        "prepare_url": prepare_url,
        "export_error": error,
    }


def _prepare_url(export: Export) -> str:
    if export.session_id is not None:
        return reverse("session_export_prepare", args=[export.session_id])
    return reverse("class_export_prepare", args=[export.school_class_id])


def _panel_response(
    request: TeacherRequest, export: Export, *, error: str = "", status: int = 200
) -> HttpResponse:
    if not request.htmx:
        if error:
            messages.error(request, error)
        return redirect(_page_url(export))
    context = _panel(export, _prepare_url(export), error=error)
    return render(request, PANEL, context, status=status)


@login_required
@require_POST
def session_export_prepare(request: TeacherRequest, session_id: int) -> HttpResponse:
    return _prepare(request, session=session_or_404(request, session_id))


@login_required
@require_POST
def class_export_prepare(request: TeacherRequest, class_id: int) -> HttpResponse:
    return _prepare(request, school_class=class_or_404(request, class_id))


def _prepare(
    request: TeacherRequest,
    *,
    session: GameSession | None = None,
    school_class: SchoolClass | None = None,
) -> HttpResponse:
    """Queue the workbook of the session or class; the panel shows its progress."""
    export = export_prepare(
        owner=request.user, kind=WORKBOOK, session=session, school_class=school_class
    )
    return _panel_response(request, export)


@login_required
def export_status(request: TeacherRequest, export_id: int) -> HttpResponse:
    """The panel as it is now (htmx polls it while the file is prepared)."""
    export = export_of_owner(owner=request.user, export_id=export_id)
    if (refusal := _not_a_read(request)) is not None:
        return refusal
    return render(request, PANEL, _panel(export, _prepare_url(export), error=""))


@login_required
def export_file(request: TeacherRequest, export_id: int) -> HttpResponseBase:
    export = export_of_owner(owner=request.user, export_id=export_id)
    if (refusal := _not_a_read(request)) is not None:
        return refusal
    path = export_file_path(export)
    if path is None or export.kind not in PREPARED_KINDS:
        raise Http404  # printed reports are shown on their page, not downloaded
    return prepared_file_response(path=path, kind=export.kind, stem=_stem(export))


@login_required
@require_POST
def export_again(request: TeacherRequest, export_id: int) -> HttpResponse:
    """Try a failed or stuck one again."""
    export = export_of_owner(owner=request.user, export_id=export_id)
    try:
        export = export_retry(export=export)
    except ExportRefused as refusal:
        if export.kind == REPORTS:
            messages.error(request, str(refusal))
            return redirect(reports_page_url(export))
        return _panel_response(request, export, error=str(refusal), status=409)
    if export.kind == REPORTS:
        return redirect(reports_page_url(export))
    return _panel_response(request, export)


def reports_page_url(export: Export) -> str:
    """The print page that shows a class's prepared reports."""
    url = reverse("class_progress_print", args=[export.school_class_id])
    return f"{url}?{urlencode({'game': export.game})}" if export.game else url
