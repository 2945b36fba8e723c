"""Analytics pages: session report, student progress, class overview, printable reports.

Only a teacher who may see the class or session gets past ``classroom.views.access`` (404
for anyone else). Numbers come from
``classroom.selectors.analytics``; charts from ``classroom.analytics.charts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from classroom.analytics import charts
from classroom.analytics.decision_time import SIMPLE_RT_MIN_KEPT
from classroom.analytics.verdicts import MIN_NORM_CHILDREN
from classroom.forms.whole_numbers import whole_number_parse
from classroom.gamesite import game_site
from classroom.gamesite.labels import kind_label, level_label, measure_heads
from classroom.models import RunFlag, Seat
from classroom.pages.fragments import game_name
from classroom.reports.progress import (
    accuracy,
    class_reports_context,
    game_title,
    game_titles,
    headline_percent,
    progress_report,
)
from classroom.selectors import analytics as selectors
from classroom.selectors.accommodations import (
    session_colour_safe_seats,
    session_extra_time_seats,
)
from classroom.selectors.certainty import measures_certainty, seat_certainty, session_certainty
from classroom.selectors.class_change import (
    RATE,
    SPEED,
    ChildChange,
    ClassChange,
    class_change,
    rate_measure,
    rate_trials,
)
from classroom.selectors.classes import ClassRight
from classroom.selectors.decision_styles import (
    MIN_CHILDREN,
    session_decision_styles,
    student_decision_styles,
)
from classroom.selectors.devices import session_devices
from classroom.selectors.exports import export_latest
from classroom.selectors.following import session_following
from classroom.selectors.run_validity import session_run_validity
from classroom.selectors.sessions import session_deletable_by, sessions_visible
from classroom.selectors.verdicts import class_verdicts, student_verdicts
from classroom.selectors.warmups import (
    DecisionTime,
    choice_median_ms,
    decision_time,
    seat_warmup,
    student_decision_times,
)
from classroom.services.exports import (
    REPORTS,
    export_file_path,
    export_html,
    export_is_stuck,
    export_prepare,
)
from classroom.services.run_flags import run_keep as run_keep_service
from classroom.views.access import class_or_404, class_student_or_404, session_or_404
from classroom.views.exports import export_panel_context, reports_page_url
from classroom.views.home_reports import home_report_form
from games.engine.extra_time import UNTIMED

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from classroom.analytics.measures import Measures
    from classroom.models import Export, GameSession, SchoolClass
    from classroom.selectors.certainty import Certainty
    from classroom.views.http import TeacherRequest


def _game_filter(request: TeacherRequest, games: Sequence[str]) -> str | None:
    # An unknown game in the URL shows every game rather than an empty page.
    chosen = (request.POST if request.method == "POST" else request.GET).get("game", "")
    return chosen if chosen in games else None


def _game_choices(games: Sequence[str]) -> list[tuple[str, str]]:
    return list(game_titles(games).items())


# --------------------------------------------------------------------------------------------
# One session


def _level_charts(by_level: dict[str, Measures], game: str) -> list[charts.Chart]:
    """A bar per level of the game's speed and of its rate (a game of several kinds: each
    kind's rate), titled with the game's own measures; a measure no level has is left out
    (no empty "No data" chart)."""
    levels = sorted(by_level)
    labels = [level_label(level) for level in levels]
    site = game_site(game)
    rates = list(dict.fromkeys(site.kind_rates.values())) if site.mixed_kinds else []
    made = []
    for measure in [site.speed_measure, *(site.measure(key) for key in rates or [site.headline])]:
        values = [measure.cell(by_level[level]) for level in levels]
        if all(value is None for value in values):
            continue
        made.append(
            charts.bar_chart(
                title=_("%(measure)s by level") % {"measure": measure.label},
                labels=labels,
                values=values,
                unit=measure.unit,
            )
        )
    return made


@login_required
def session_report(request: TeacherRequest, session_id: int) -> HttpResponse:
    session = session_or_404(request, session_id)
    rows = selectors.session_report(session=session)
    by_level = {
        key[0]: m
        for key, m in selectors.measures_by(
            trials=selectors.human_trials().filter(session=session), by=["level"]
        ).items()
    }
    sure = session_certainty(session=session)
    context: dict[str, Any] = {
        "session": session,
        "game_name": game_name(session),
        "rows": rows,
        "reliabilities": [
            {
                "where": "",
                "label": c.measure.label,
                "reliability": c.reliability,
                "needed": c.enough.needed,
            }
            for c in next(iter(sure.values()), [])
        ],
        "colour_safe_seats": session_colour_safe_seats(session=session),
        **_extra_time_context(session),
        "sure_by_seat": {
            seat_id: {c.measure.key: c for c in figures} for seat_id, figures in sure.items()
        },
        "by_level": sorted(by_level.items()),
        "charts": _level_charts(by_level, session.game) if by_level else [],
        # Several games in the session: each game's numbers beside the whole session's.
        "by_game": (
            sorted(selectors.session_by_game(session=session).items())
            if session.game_number > 1
            else []
        ),
        **_site_context(session.game),
        "may_delete": session_deletable_by(session=session, teacher=request.user),
        "devices": session_devices(session=session),
        "following": _following_rows(session, rows),
        **export_panel_context(request=request, session=session),
    }
    return render(request, "classroom/session_report.html", context)


def _extra_time_context(session: GameSession) -> dict[str, Any]:
    """The seats that played with extra time, and those whose speed is not scored."""
    seats = session_extra_time_seats(session=session)
    return {
        "extra_time_seats": seats,
        "unscored_seats": {seat: True for seat, mark in seats.items() if mark == UNTIMED},
    }


def _following_rows(
    session: GameSession, rows: Sequence[selectors.SeatReport]
) -> list[dict[str, Any]]:
    """Each child's following others (``GameSite.following_kind``), with "needs more play"
    when thin."""
    by_seat = session_following(session=session)
    found = []
    for row in rows:
        follows = by_seat.get(row.seat.pk)
        if follows is None:
            continue
        short = follows.enough.message()
        found.append(
            {
                "seat": row.seat,
                "figures": follows,
                "short": None if short is None else _(short[0]) % short[1],
            }
        )
    return found


def _site_context(game: str) -> dict[str, Any]:
    """The game's own measures and trial-table partials, for ``_analytics.html``."""
    site = game_site(game)
    return {
        "site_measures": site.measures,
        "speed_label": site.speed_measure.label,
        "trials_head": f"{site.trials_template}#head",
        "trials_row": f"{site.trials_template}#row",
    }


@login_required
def session_report_seat(request: TeacherRequest, session_id: int, seat_id: int) -> HttpResponse:
    session = session_or_404(request, session_id)
    seat = get_object_or_404(Seat, pk=seat_id, session=session)
    trials = selectors.session_trials(session=session, seat=seat)
    measures = selectors.measures_by(trials=trials, by=["seat"]).get((seat.pk,))
    context = {
        "session": session,
        "seat": seat,
        "game_name": game_name(session),
        "measures": measures,
        "trials": trials,
        "colour_safe": seat.pk in session_colour_safe_seats(session=session),
        "extra_time": (extra_time := session_extra_time_seats(session=session).get(seat.pk)),
        "extra_time_unscored": extra_time == UNTIMED,
        "certainty": seat_certainty(session=session, seat=seat) if measures else [],
        **_run_flag_context(request, session, seat),
        "decision": _seat_decision(session, seat, measures),
        "min_kept": SIMPLE_RT_MIN_KEPT,
        "style_reading": session_decision_styles(session=session).get(seat.pk),
        "min_children": MIN_CHILDREN,
        **_site_context(session.game),
    }
    return render(request, "classroom/session_report_seat.html", context)


def _run_flag_context(request: TeacherRequest, session: GameSession, seat: Seat) -> dict[str, Any]:
    """The run's validity, its recorded flag (once the session has ended) and whether this
    teacher may keep it (a teacher who may manage the class)."""
    return {
        "session": session,
        "seat": seat,
        "validity": session_run_validity(session=session).get(seat.pk),
        "run_flag": RunFlag.objects.filter(seat=seat).first(),
        "may_keep": sessions_visible(teacher=request.user, right=ClassRight.MANAGE)
        .filter(pk=session.pk)
        .exists(),
    }


@login_required
@require_POST
def run_keep(request: TeacherRequest, session_id: int, seat_id: int) -> HttpResponse:
    """Keep a flagged run in trends and norms (``kept=1``), or leave it out again
    (``kept=0``); htmx swaps the run's part of the page, a plain form goes back to it."""
    session = session_or_404(request, session_id, ClassRight.MANAGE)
    seat = get_object_or_404(Seat, pk=seat_id, session=session)
    if not RunFlag.objects.filter(seat=seat).exists():
        # A valid run (or one of a session still being played) has nothing to keep.
        return HttpResponse(_("This run was not flagged, so it already counts."), status=409)
    kept = request.POST.get("kept", "")
    if kept not in {"0", "1"}:
        return HttpResponseBadRequest(_("Choose to keep the run or to leave it out."))
    try:
        run_keep_service(seat=seat, kept=kept == "1")
    except ValidationError as error:  # its flag went meanwhile (judged again)
        return HttpResponse(" ".join(error.messages), status=409)
    if request.htmx:
        return render(
            request, "classroom/_run_flag.html", _run_flag_context(request, session, seat)
        )
    return redirect("session_report_seat", session.pk, seat.pk)


def _seat_decision(
    session: GameSession, seat: Seat, measures: Measures | None
) -> DecisionTime | None:
    """The seat's warm-up beside its median RT, if it did one (``None``: no warm-up)."""
    warmup = seat_warmup(seat=seat)
    if warmup is None:
        return None
    return decision_time(
        warmup=warmup, choice_ms=choice_median_ms(game=session.game, measures=measures)
    )


# --------------------------------------------------------------------------------------------
# A student over weeks


@login_required
def student_progress(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    school_class, student = class_student_or_404(request, class_id, student_id)
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    context = {
        "school_class": school_class,
        "games": _game_choices(games),
        "game_names": dict(_game_choices(games)),
        "game": game,
        **progress_report(student, game),
        "decisions": student_decision_times(student=student, game=game),
        "min_kept": SIMPLE_RT_MIN_KEPT,
        "styles": student_decision_styles(student=student, game=game),
        "min_children": MIN_CHILDREN,
        "verdicts": student_verdicts(student=student, game=game),
        "min_norm": MIN_NORM_CHILDREN,
        "home_form": home_report_form(school_class=school_class),
    }
    return render(request, "classroom/student_progress.html", context)


PRINT_TEMPLATE = "classroom/class_progress_print.html"


def _reports_ready(
    request: TeacherRequest, school_class: SchoolClass, game: str | None
) -> Export | None:
    """The teacher's last prepared reports of the class (and game), if they can be shown."""
    export = export_latest(
        owner=request.user, kind=REPORTS, school_class=school_class, game=game or ""
    )
    return export if export is not None and export_file_path(export) is not None else None


@login_required
def class_progress_print(request: TeacherRequest, class_id: int) -> HttpResponse:
    """One printed page per student. One student's (``?student=``) is built in the request;
    a whole class's takes seconds at a year's data, so it is prepared in the background
    (``class_reports_prepare``) and shown here once ready, polled by htmx until then."""
    school_class = class_or_404(request, class_id)
    game = _game_filter(request, selectors.class_games(school_class=school_class))
    student_id = whole_number_parse(request.GET.get("student", ""))
    if student_id is not None:
        students = school_class.students.filter(pk=student_id)
        context = class_reports_context(school_class=school_class, game=game, students=students)
        return render(request, PRINT_TEMPLATE, {**context, "one_student": True})
    export = export_latest(
        owner=request.user, kind=REPORTS, school_class=school_class, game=game or ""
    )
    context = {
        "school_class": school_class,
        "game": game,
        "export": export,
        "export_stuck": export is not None and export_is_stuck(export),
        "reports_html": mark_safe(html) if export and (html := export_html(export)) else None,  # noqa: S308 (the site's own render)
        "prepare_url": reverse("class_reports_prepare", args=[school_class.pk]),
    }
    template = f"{PRINT_TEMPLATE}#prepared" if request.htmx else PRINT_TEMPLATE
    return render(request, template, context)


@login_required
@require_POST
def class_reports_prepare(request: TeacherRequest, class_id: int) -> HttpResponse:
    """Prepare the class's printed reports (of the game in ``game``, else every game) and go
    to the print page, which shows their progress and then the reports."""
    school_class = class_or_404(request, class_id)
    game = _game_filter(request, selectors.class_games(school_class=school_class)) or ""
    export = export_prepare(owner=request.user, kind=REPORTS, school_class=school_class, game=game)
    return redirect(reports_page_url(export))


# --------------------------------------------------------------------------------------------
# The class at a glance


def _sort_figure(row: dict[str, Any], name: str) -> float | None:
    """A row's own figure, or for a student shown kind by kind, the first kind's that has one
    (e.g. the catches' RT and accuracy)."""
    figures = [row[name], *(kind[name] for kind in row["kinds"])]
    return next((figure for figure in figures if figure is not None), None)


def _lowest_first(figure: float | None) -> tuple[bool, float]:
    return figure is None, figure or 0


def _highest_first(figure: float | None) -> tuple[bool, float]:
    return figure is None, -(figure or 0)


SORTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "name": lambda row: row["student"].display_name.casefold(),
    "rt": lambda row: _lowest_first(_sort_figure(row, "median_rt")),
    "accuracy": lambda row: _highest_first(_sort_figure(row, "accuracy")),
    "dprime": lambda row: _highest_first(_sort_figure(row, "dprime")),
    "bis": lambda row: _highest_first(_sort_figure(row, "bis")),
    "sessions": lambda row: -row["sessions"],
}


def _figures(
    measures: Measures | None,
    game: str | None = None,
    *,
    kind: str | None = None,
    level: str | None = None,
    change: ClassChange | None = None,
) -> dict[str, Any]:
    """The overview's columns of one latest session (or one kind of trial of it): the game's
    own headline rate (a kind's row: its share right) and d' only for signal detection, the
    speed and rate each with how sure it is (``rt_sure``, ``rate_sure``).
    IES and BIS divide by the proportion right: for a whole session of a game without
    signal detection (whose trials include chances a rival took) they mean nothing."""
    site = game_site(game) if game else None
    rate = headline_percent(game) if game and kind is None else accuracy
    combined = measures is not None and (kind is not None or site is None or site.signal_detection)
    median = measures.rt.median if measures else None
    sure: dict[str, Certainty | None] = {"rt_sure": None, "rate_sure": None}
    if measures is not None and site is not None and game and level is not None:
        needed = change.needed if change is not None else (lambda *_key: None)
        sure = {
            "rt_sure": measures_certainty(
                measure=site.speed_measure,
                measures=measures,
                speed=True,
                needed=needed(game, level, kind, SPEED),
            ),
            "rate_sure": measures_certainty(
                measure=rate_measure(game, kind),
                measures=measures,
                speed=False,
                needed=needed(game, level, kind, RATE),
                of=rate_trials,
            ),
        }
    return {
        # Rounded as every measure is (``Measure.cell``): the report's 506 ms is 506 here too.
        "median_rt": None if median is None else round(median),
        "accuracy": rate(measures) if measures else None,
        "dprime": measures.dprime if measures and site and site.signal_detection else None,
        "ies": measures.inverse_efficiency_ms if measures and combined else None,
        "bis": measures.balanced_integration if measures and combined else None,
        **sure,
    }


def _verdicts(changes: Sequence[ChildChange], kind: str | None) -> dict[str, str | None]:
    """The reliable-change verdicts of one line (a session shown whole, or one kind)."""
    found = {c.measure: c.change.verdict for c in changes if c.kind == kind}
    return {"rt_change": found.get(SPEED), "rate_change": found.get(RATE)}


def _overview_row(entry: selectors.StudentOverview, change: ClassChange) -> dict[str, Any]:
    latest = entry.latest
    by_kind = latest.by_kind if latest else {}
    game = latest.game if latest else None
    level = latest.level if latest else None
    changes = change.of_student(entry.student.pk)
    return {
        "student": entry.student,
        "latest": latest,
        "sessions": len(entry.sessions),
        "level": level,
        "flagged": latest is not None and (entry.student.pk, latest.session_id) in change.left_out,
        # A mixed game's latest session has no whole figures: its kinds' rows give them.
        **_figures(
            latest.measures if latest and not by_kind else None, game, level=level, change=change
        ),
        **_verdicts(changes, None),
        "kinds": [
            {
                "kind": kind,
                "sessions": sum(1 for fact in entry.sessions if kind in fact.by_kind),
                **_figures(m, game, kind=kind, level=level, change=change),
                **_verdicts(changes, kind),
            }
            for kind, m in by_kind.items()
        ],
    }


def _any_figure(rows: Sequence[dict[str, Any]], name: str) -> bool:
    """Does any row (or any kind's row under it) have this figure?"""
    return any(figures[name] is not None for row in rows for figures in [row, *row["kinds"]])


def _class_reliabilities(change: ClassChange) -> list[dict[str, Any]]:
    """Each measure's reliability in the class, per game, level and kind, with the trials
    it needs for .70: what the overview's "needs more play" is measured against."""
    rows = []
    for (game, level, kind, name), norm in sorted(
        change.norms.items(), key=lambda item: tuple(str(part) for part in item[0])
    ):
        measure = game_site(game).speed_measure if name == SPEED else rate_measure(game, kind)
        where = [game_title(game), level_label(level), *([kind_label(kind)] if kind else [])]
        rows.append(
            {
                "where": " · ".join(where),
                "label": measure.label,
                "reliability": norm.reliability,
                "needed": norm.needed,
            }
        )
    return rows


def _verdict_rows(school_class: SchoolClass, game: str | None) -> list[dict[str, Any]]:
    """Each student of the class with their verdicts (none yet: left out), in name order."""
    found = class_verdicts(school_class=school_class, game=game)
    return [
        {"student": student, "verdicts": found[student.pk]}
        for student in school_class.students.order_by("display_name", "pk")
        if found.get(student.pk)
    ]


@login_required
def class_overview(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id)
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    sort = request.GET.get("sort", "name")
    if sort not in SORTS:
        sort = "name"
    change = class_change(school_class=school_class, game=game)
    rows = [
        _overview_row(entry, change)
        for entry in selectors.class_overview(school_class=school_class, game=game)
    ]
    rows.sort(key=SORTS[sort])
    context = {
        "school_class": school_class,
        "games": _game_choices(games),
        "game": game,
        "sort": sort,
        "rows": rows,
        # The columns: the shown games' own names; d' only for a game with noise trials, IES
        # and BIS only where a row has them.
        "heads": measure_heads([game] if game else games),
        "efficiency": _any_figure(rows, "ies") or _any_figure(rows, "bis"),
        **export_panel_context(request=request, school_class=school_class),
        "reports_ready": _reports_ready(request, school_class, game),
        "reliabilities": _class_reliabilities(change),
        "verdict_rows": _verdict_rows(school_class, game),
        "min_norm": MIN_NORM_CHILDREN,
    }
    template = "classroom/class_overview.html"
    if request.htmx and not request.htmx.boosted:
        template += "#overview-table"
    return render(request, template, context)
