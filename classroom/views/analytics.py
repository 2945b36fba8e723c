"""Analytics pages: session report, student progress, class overview, printable reports.

Only the owning teacher gets past ``_own_*`` (404 for anyone else). Numbers come from
``classroom.selectors.analytics``; charts from ``classroom.analytics.charts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from classroom.analytics import charts
from classroom.analytics.progress import (
    LineFit,
    SessionPoint,
    learning_curve,
    progress_summary,
    summary_text,
    trend,
)
from classroom.game_labels import level_label
from classroom.live_fragments import game_name
from classroom.models import GameSession, SchoolClass, Seat, Student
from classroom.selectors import analytics as selectors
from games.core import game_get

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from django.http import HttpResponse

    from classroom.analytics.measures import Measures
    from classroom.views.http import TeacherRequest

WEEK_S = 7 * 24 * 3600
# Per-session trends in the class overview: what counts as a real change.
RT_TREND_TOLERANCE_MS = 25.0
ACCURACY_TREND_TOLERANCE = 0.03


def _own_class(request: TeacherRequest, class_id: int) -> SchoolClass:
    return get_object_or_404(SchoolClass, pk=class_id, teacher=request.user)


def _own_session(request: TeacherRequest, session_id: int) -> GameSession:
    return get_object_or_404(
        GameSession.objects.select_related("school_class"), pk=session_id, teacher=request.user
    )


def _game_filter(request: TeacherRequest, games: Sequence[str]) -> str | None:
    # An unknown game in the URL shows every game rather than an empty page.
    chosen = request.GET.get("game", "")
    return chosen if chosen in games else None


def _game_choices(games: Sequence[str]) -> list[tuple[str, str]]:
    return [(slug, _(spec.name) if (spec := game_get(slug)) else slug) for slug in games]


# --------------------------------------------------------------------------------------------
# One session


def _level_charts(by_level: dict[str, Measures]) -> list[charts.Chart]:
    levels = sorted(by_level)
    labels = [level_label(level) for level in levels]
    return [
        charts.bar_chart(
            title=_("Median correct reaction time by level"),
            labels=labels,
            values=[by_level[level].rt.median for level in levels],
            unit="ms",
        ),
        charts.bar_chart(
            title=_("Accuracy by level"),
            labels=labels,
            values=[by_level[level].accuracy_percent for level in levels],
            unit="%",
        ),
    ]


@login_required
def session_report(request: TeacherRequest, session_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    rows = selectors.session_report(session=session)
    by_level = {
        key[0]: m
        for key, m in selectors.measures_by(
            trials=selectors.human_trials().filter(session=session), by=["level"]
        ).items()
    }
    context: dict[str, Any] = {
        "session": session,
        "game_name": game_name(session),
        "rows": rows,
        "by_level": sorted(by_level.items()),
        "charts": _level_charts(by_level) if by_level else [],
    }
    return render(request, "classroom/session_report.html", context)


@login_required
def session_report_seat(request: TeacherRequest, session_id: int, seat_id: int) -> HttpResponse:
    session = _own_session(request, session_id)
    seat = get_object_or_404(Seat, pk=seat_id, session=session)
    trials = selectors.session_trials(session=session, seat=seat)
    measures = selectors.measures_by(trials=trials, by=["seat"]).get((seat.pk,))
    context = {
        "session": session,
        "seat": seat,
        "game_name": game_name(session),
        "measures": measures,
        "trials": trials,
    }
    return render(request, "classroom/session_report_seat.html", context)


# --------------------------------------------------------------------------------------------
# A student over weeks


def _session_label(point: selectors.SessionMeasures) -> str:
    day = formats.date_format(timezone.localtime(point.started), "SHORT_DATE_FORMAT")
    return f"{day} · {level_label(point.level)}"


def _weeks_since_first(points: Sequence[selectors.SessionMeasures]) -> list[float]:
    first = points[0].started
    return [(point.started - first).total_seconds() / WEEK_S for point in points]


def _fit(
    points: Sequence[selectors.SessionMeasures], value: Callable[[Measures], float | None]
) -> LineFit | None:
    """This student's least-squares line of a measure over weeks (never a class average)."""
    pairs = [
        (x, y)
        for x, point in zip(_weeks_since_first(points), points, strict=True)
        if (y := value(point.measures)) is not None
    ]
    return learning_curve(pairs)


def _learning(points: Sequence[selectors.SessionMeasures]) -> dict[str, Any]:
    rt_fit = _fit(points, lambda m: m.rt.median)
    accuracy_fit = _fit(points, lambda m: m.accuracy_percent)
    return {
        "rt_fit": rt_fit,
        "rt_per_week": rt_fit.slope if rt_fit else None,
        "accuracy_per_week": accuracy_fit.slope if accuracy_fit else None,
    }


def _progress_charts(
    points: Sequence[selectors.SessionMeasures], rt_fit: LineFit | None
) -> list[charts.Chart]:
    labels = [_session_label(point) for point in points]
    fitted = [rt_fit.predict(x) for x in _weeks_since_first(points)] if rt_fit is not None else None
    return [
        charts.line_chart(
            title=_("Median correct reaction time"),
            labels=labels,
            values=[point.measures.rt.median for point in points],
            unit="ms",
            fitted=fitted,
            fitted_title=_("Learning line (fitted to this student)"),
        ),
        charts.line_chart(
            title=_("Accuracy"),
            labels=labels,
            values=[point.measures.accuracy_percent for point in points],
            unit="%",
        ),
        charts.line_chart(
            title=_("Sensitivity (d′)"),  # noqa: RUF001 — the prime is the symbol
            labels=labels,
            values=[point.measures.dprime for point in points],
            unit="",
            decimals=2,
        ),
    ]


def _summary(points: Sequence[selectors.SessionMeasures]) -> str:
    session_points = [
        SessionPoint(
            day=timezone.localtime(point.started).date(),
            median_rt_ms=point.measures.rt.median,
            accuracy=point.measures.accuracy,
            level=point.level,
        )
        for point in points
    ]
    if not session_points:
        return _("No games played yet.")
    parts = progress_summary(session_points, timezone.localdate())
    return summary_text(parts, gettext=_)


def _progress_context(student: Student, game: str | None) -> dict[str, Any]:
    points = selectors.student_sessions(student=student, game=game)
    learning = _learning(points) if points else {}
    return {
        "student": student,
        "points": points,
        "labels": [_session_label(point) for point in points],
        "summary": _summary(points),
        "charts": _progress_charts(points, learning.get("rt_fit")) if points else [],
        **learning,
    }


@login_required
def student_progress(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    school_class = _own_class(request, class_id)
    student = get_object_or_404(Student, pk=student_id, school_class=school_class)
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    context = {
        "school_class": school_class,
        "games": _game_choices(games),
        "game_names": dict(_game_choices(games)),
        "game": game,
        **_progress_context(student, game),
    }
    return render(request, "classroom/student_progress.html", context)


@login_required
def class_progress_print(request: TeacherRequest, class_id: int) -> HttpResponse:
    """One printed page per student (or just one student with ``?student=``)."""
    school_class = _own_class(request, class_id)
    students = school_class.students.order_by("display_name", "pk")
    if request.GET.get("student", "").isdigit():
        students = students.filter(pk=int(request.GET["student"]))
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    context = {
        "school_class": school_class,
        "game": game,
        "game_names": dict(_game_choices(games)),
        "reports": [_progress_context(student, game) for student in students],
        "printed_on": timezone.localdate(),
    }
    return render(request, "classroom/class_progress_print.html", context)


# --------------------------------------------------------------------------------------------
# The class at a glance


SORTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "name": lambda row: row["student"].display_name.casefold(),
    "rt": lambda row: (row["median_rt"] is None, row["median_rt"] or 0),
    "accuracy": lambda row: (row["accuracy"] is None, -(row["accuracy"] or 0)),
    "dprime": lambda row: (row["dprime"] is None, -(row["dprime"] or 0)),
    "bis": lambda row: (row["bis"] is None, -(row["bis"] or 0)),
    "sessions": lambda row: -row["sessions"],
}


def _overview_row(entry: selectors.StudentOverview) -> dict[str, Any]:
    latest = entry.latest
    # Trends over sessions use each session's mean correct RT, which the database computes.
    rts = [fact.mean_correct_rt_ms for fact in entry.sessions if fact.mean_correct_rt_ms]
    accuracies = [fact.accuracy for fact in entry.sessions if fact.accuracy is not None]
    return {
        "student": entry.student,
        "latest": latest,
        "sessions": len(entry.sessions),
        "median_rt": latest.measures.rt.median if latest else None,
        "accuracy": latest.measures.accuracy_percent if latest else None,
        "dprime": latest.measures.dprime if latest else None,
        "ies": latest.measures.inverse_efficiency_ms if latest else None,
        "bis": latest.measures.balanced_integration if latest else None,
        "level": latest.level if latest else None,
        "rt_trend": trend(rts, lower_is_better=True, tolerance=RT_TREND_TOLERANCE_MS),
        "accuracy_trend": trend(
            accuracies, lower_is_better=False, tolerance=ACCURACY_TREND_TOLERANCE
        ),
    }


@login_required
def class_overview(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = _own_class(request, class_id)
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    sort = request.GET.get("sort", "name")
    if sort not in SORTS:
        sort = "name"
    rows = [
        _overview_row(entry)
        for entry in selectors.class_overview(school_class=school_class, game=game)
    ]
    rows.sort(key=SORTS[sort])
    context = {
        "school_class": school_class,
        "games": _game_choices(games),
        "game": game,
        "sort": sort,
        "rows": rows,
    }
    template = "classroom/class_overview.html"
    if request.htmx and not request.htmx.boosted:
        template += "#overview-table"
    return render(request, template, context)
