"""Downloads of a session's or a class's trials and summaries (its teachers only: the owner
and the colleagues it is shared with; 404 for anyone else, and for a kind of file that does
not exist)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponseNotAllowed

from classroom.exports.downloads import KINDS, class_file_stem, export_response
from classroom.exports.summary_rows import class_summary_rows, session_summary_rows
from classroom.exports.trial_rows import class_export_trials, session_export_trials
from classroom.selectors.analytics import class_games
from classroom.views.access import class_or_404, session_or_404

if TYPE_CHECKING:
    from django.http.response import HttpResponseBase

    from classroom.views.http import TeacherRequest


def _refusal(request: TeacherRequest, kind: str) -> HttpResponseBase | None:
    """Checked after ownership: another teacher learns nothing, whatever the method."""
    if request.method not in {"GET", "HEAD"}:
        return HttpResponseNotAllowed(["GET", "HEAD"])
    if kind not in KINDS:
        raise Http404
    return None


@login_required
def session_export(request: TeacherRequest, session_id: int, kind: str) -> HttpResponseBase:
    session = session_or_404(request, session_id)
    if (refusal := _refusal(request, kind)) is not None:
        return refusal
    return export_response(
        request=request,
        kind=kind,
        stem=session.code,
        trials=session_export_trials(session=session),
        summary=lambda: session_summary_rows(session=session),
        games=[session.game],
    )


@login_required
def class_export(request: TeacherRequest, class_id: int, kind: str) -> HttpResponseBase:
    school_class = class_or_404(request, class_id)
    if (refusal := _refusal(request, kind)) is not None:
        return refusal
    return export_response(
        request=request,
        kind=kind,
        stem=class_file_stem(school_class=school_class),
        trials=class_export_trials(school_class=school_class),
        summary=lambda: class_summary_rows(school_class=school_class),
        games=class_games(school_class=school_class),
    )
