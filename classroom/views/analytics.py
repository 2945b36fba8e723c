"""Analytics pages: session report, student progress, class overview, printable reports.

Only a teacher who may see the class or session gets past ``classroom.views.access`` (404
for anyone else). Numbers come from
``classroom.selectors.analytics``; charts from ``classroom.analytics.charts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from classroom.analytics import charts
from classroom.analytics.progress import (
    MIN_WEEKS,
    LineFit,
    SessionPoint,
    distinct_weeks,
    honest_trend,
    learning_curve,
    progress_summary,
    summary_text,
)
from classroom.forms.whole_numbers import whole_number_parse
from classroom.gamesite import game_site, game_sites
from classroom.gamesite.labels import kind_label, level_label, measure_heads
from classroom.gamesite.ladder_labels import rung_label
from classroom.live.fragments import game_name
from classroom.models import Seat, Student
from classroom.selectors import analytics as selectors
from classroom.selectors.accommodations import (
    session_colour_safe_seats,
    student_colour_safe_sessions,
)
from classroom.selectors.levels import level_track
from classroom.selectors.sessions import session_deletable_by
from classroom.views.access import class_or_404, session_or_404
from classroom.views.exports import export_panel_context
from games.registry import game_get, game_registry

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from django.http import HttpResponse

    from classroom.analytics.measures import Measures
    from classroom.views.http import TeacherRequest

    # A measure read off the sessions of one progress line.
    LineValue = Callable[[Measures], float | None]

WEEK_S = 7 * 24 * 3600
# Per-session trends in the class overview: what counts as a real change.
RT_TREND_TOLERANCE_MS = 25.0
ACCURACY_TREND_TOLERANCE = 0.03


def _game_filter(request: TeacherRequest, games: Sequence[str]) -> str | None:
    # An unknown game in the URL shows every game rather than an empty page.
    chosen = request.GET.get("game", "")
    return chosen if chosen in games else None


def _game_title(slug: str) -> str:
    return _(spec.name) if (spec := game_get(slug)) else slug


def _game_choices(games: Sequence[str]) -> list[tuple[str, str]]:
    return [(slug, _game_title(slug)) for slug in games]


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
    context: dict[str, Any] = {
        "session": session,
        "game_name": game_name(session),
        "rows": rows,
        "colour_safe_seats": session_colour_safe_seats(session=session),
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
        **export_panel_context(request=request, session=session),
    }
    return render(request, "classroom/session_report.html", context)


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
        **_site_context(session.game),
    }
    return render(request, "classroom/session_report_seat.html", context)


# --------------------------------------------------------------------------------------------
# A student over weeks


@dataclass(frozen=True)
class ProgressLine:
    """One line of a student's progress: a value per session of the page (None where it has
    none). The sessions of games with one kind of trial make the whole-session line, all the
    page ever showed for them; a game that mixes kinds (``GameSite.mixed_kinds``) gets a line
    per kind instead, since a catch's accuracy and a placement's steadiness are different
    measures."""

    kind: str | None
    title: str
    measures: list[Measures | None]
    # The game of a whole-session line (one line per game; None for a kind's line).
    game: str | None = None

    @property
    def sessions(self) -> int:
        return sum(1 for m in self.measures if m is not None)


@dataclass(frozen=True)
class LineSummary:
    """What the summary card says of one progress line."""

    # Empty when the page has only the whole-session line: nothing to tell apart.
    title: str
    sentence: str
    sessions: int
    rt_per_week: float | None
    accuracy_per_week: float | None
    # The sessions like the latest (its game and level) span fewer than MIN_WEEKS weeks.
    not_enough_weeks: bool = False
    # What ``accuracy_per_week`` is a rate of: the game's headline ("spotting rate"), or a
    # kind's share right ("accuracy").
    rate_word: str = ""


def _session_label(point: selectors.SessionMeasures) -> str:
    day = formats.date_format(timezone.localtime(point.started), "SHORT_DATE_FORMAT")
    return f"{day} · {level_label(point.level)}"


def _weeks_since_first(points: Sequence[selectors.SessionMeasures]) -> list[float]:
    first = points[0].started
    return [(point.started - first).total_seconds() / WEEK_S for point in points]


def _progress_lines(points: Sequence[selectors.SessionMeasures]) -> list[ProgressLine]:
    """The whole-session line (if any session is shown whole), then one line per kind."""
    lines = []
    # A whole-session line per game: one game's rate is never read beside another's.
    games = dict.fromkeys(point.game for point in points if not point.by_kind)
    for game in games:
        whole: list[Measures | None] = [
            None if point.by_kind or point.game != game else point.measures for point in points
        ]
        lines.append(ProgressLine(kind=None, title=_game_title(game), measures=whole, game=game))
    for kind in sorted({kind for point in points for kind in point.by_kind}):
        of_kind = [point.by_kind.get(kind) for point in points]
        lines.append(ProgressLine(kind=kind, title=kind_label(kind), measures=of_kind))
    return lines


def _fit(
    weeks: Sequence[float],
    measures: Sequence[Measures | None],
    value: Callable[[Measures], float | None],
) -> LineFit | None:
    """This student's least-squares line of a measure over weeks (never a class average)."""
    pairs = [
        (x, y)
        for x, m in zip(weeks, measures, strict=True)
        if m is not None and (y := value(m)) is not None
    ]
    return learning_curve(pairs)


def _median_rt(m: Measures) -> float | None:
    return m.rt.median


def _accuracy(m: Measures) -> float | None:
    return m.accuracy_percent


def _dprime(m: Measures) -> float | None:
    return m.dprime


def _same(value: LineValue) -> Callable[[ProgressLine], LineValue]:
    """One measure for every line of a chart."""
    return lambda _line: value


def _line_rate(line: ProgressLine) -> LineValue:
    """A line's own rate: a whole-session line's game's headline rate (accuracy, spotting
    rate), a kind's line its share right (a catch's is the catch rate)."""
    return _headline_percent(line.game) if line.game is not None else _accuracy


def _plotted(
    lines: Sequence[ProgressLine], value: Callable[[ProgressLine], LineValue]
) -> list[ProgressLine]:
    """The lines a chart of this measure draws: the whole-session line always (as it always
    has), a kind only when it has the measure at all (placements have no RT, no sensitivity)."""
    return [
        line
        for line in lines
        if line.kind is None
        or any(m is not None and value(line)(m) is not None for m in line.measures)
    ]


def _series(
    lines: Sequence[ProgressLine],
    value: Callable[[ProgressLine], LineValue],
    title: str,
) -> list[charts.Series]:
    # A lone whole-session line is named after the chart, as it always was.
    alone = len(lines) == 1 and lines[0].kind is None
    return [
        charts.Series(
            title=title if alone else line.title,
            values=[None if m is None else value(line)(m) for m in line.measures],
        )
        for line in lines
    ]


def _measure_chart(
    *,
    title: str,
    value: Callable[[ProgressLine], LineValue],
    lines: Sequence[ProgressLine],
    labels: Sequence[str],
    unit: str,
    decimals: int = 0,
    fitted: Sequence[float] | None = None,
) -> charts.Chart | None:
    plotted = _plotted(lines, value)
    if not plotted:
        return None
    return charts.line_chart(
        title=title,
        labels=labels,
        series=_series(plotted, value, title),
        unit=unit,
        decimals=decimals,
        fitted=fitted,
        fitted_title=_("Learning line (fitted to this student)"),
    )


def _progress_charts(
    points: Sequence[selectors.SessionMeasures], lines: Sequence[ProgressLine]
) -> list[charts.Chart]:
    labels = [_session_label(point) for point in points]
    weeks = _weeks_since_first(points)
    # Each line its own rate (a game's headline rate, a mixed game's kinds each their own
    # proportion right), the titles one game's own names (``measure_heads``), and d' only for
    # a game with signal and noise trials.
    games = [point.game for point in points]
    heads = measure_heads(games)
    one_game = len(set(games)) == 1
    rt_lines = _plotted(lines, _same(_median_rt))
    # One dashed learning line at most: beside several RT lines it could belong to any of
    # them (the summary gives each line's slope). Drawn only over like with like (one game at
    # one level) spread over at least MIN_WEEKS calendar weeks, as the summary's rate.
    alike = len({(point.game, point.level) for point in points}) == 1
    spread = distinct_weeks([timezone.localtime(point.started).date() for point in points])
    rt_fit = (
        _fit(weeks, rt_lines[0].measures, _median_rt)
        if len(rt_lines) == 1 and alike and spread >= MIN_WEEKS
        else None
    )
    made = [
        _measure_chart(
            title=heads.speed if one_game else _("Median correct reaction time"),
            value=_same(_median_rt),
            lines=lines,
            labels=labels,
            unit="ms",
            fitted=[rt_fit.predict(x) for x in weeks] if rt_fit is not None else None,
        ),
        _measure_chart(
            title=heads.rate if one_game else _("Accuracy or rate"),
            value=_line_rate,
            lines=lines,
            labels=labels,
            unit="%",
        ),
        _measure_chart(
            title=_("Sensitivity (d′)"),  # noqa: RUF001 — the prime is the symbol
            value=_same(_dprime),
            # Only the lines of games with signal and noise trials.
            lines=[
                line
                for line in lines
                if line.game is not None and game_site(line.game).signal_detection
            ],
            labels=labels,
            unit="",
            decimals=2,
        )
        if heads.dprime
        else None,
    ]
    return [chart for chart in made if chart is not None]


def _sentence(
    points: Sequence[selectors.SessionMeasures],
    measures: Sequence[Measures | None],
    game: str | None = None,
) -> str:
    """The summary of one line: a game's whole sessions speak of its headline rate ("spotting
    rate up", "accuracy up"); a kind's line of accuracy, its share right."""
    rate = game_site(game).headline_measure if game is not None else None
    session_points = [
        SessionPoint(
            day=timezone.localtime(point.started).date(),
            median_rt_ms=m.rt.median,
            accuracy=m.accuracy if rate is None else _proportion(rate.value(m)),
            level=point.level,
        )
        for point, m in zip(points, measures, strict=True)
        if m is not None
    ]
    name = None if rate is None else str(rate.label).lower()
    parts = progress_summary(session_points, timezone.localdate(), rate=name)
    return summary_text(parts, gettext=_)


def _proportion(value: float | int | None) -> float | None:
    return None if value is None else float(value)


def _line_summary(
    points: Sequence[selectors.SessionMeasures], line: ProgressLine, *, titled: bool
) -> LineSummary:
    """Per-week rates (learning lines) only like with like and over enough weeks: fitted on
    the sessions of the latest session's game and level that have this line, and only when
    they fall in at least ``MIN_WEEKS`` different calendar weeks (ten sessions on one day
    give no rate per week). The accuracy rate is of the game's headline measure."""
    weeks = _weeks_since_first(points)
    shown = [(p, m) for p, m in zip(points, line.measures, strict=True) if m is not None]
    latest = shown[-1][0] if shown else None
    like = [
        (week if latest and (p.game, p.level) == (latest.game, latest.level) else None)
        for week, p in zip(weeks, points, strict=True)
    ]
    kept = [m if x is not None else None for x, m in zip(like, line.measures, strict=True)]
    days = [
        timezone.localtime(p.started).date()
        for x, p in zip(like, points, strict=True)
        if x is not None
    ]
    enough = distinct_weeks(days) >= MIN_WEEKS
    xs = [x if x is not None else 0.0 for x in like]
    rt_fit = _fit(xs, kept, _median_rt) if enough else None
    # A kind's own line (catches, placements) is already one measure: its proportion right.
    headline = _headline_percent(latest.game) if latest and line.kind is None else _accuracy
    accuracy_fit = _fit(xs, kept, headline) if enough else None
    return LineSummary(
        title=line.title if titled else "",
        sentence=_sentence(points, line.measures, line.game),
        sessions=line.sessions,
        rt_per_week=rt_fit.slope if rt_fit else None,
        accuracy_per_week=accuracy_fit.slope if accuracy_fit else None,
        not_enough_weeks=bool(shown) and not enough,
        rate_word=(
            str(game_site(latest.game).headline_measure.label).lower()
            if latest and line.kind is None
            else _("accuracy")
        ),
    )


def _headline_percent(game: str) -> Callable[[Measures], float | None]:
    """The game's headline rate (accuracy, spotting rate, catch rate) in percent."""
    measure = game_site(game).headline_measure

    def value(m: Measures) -> float | None:
        found = measure.value(m)
        return None if found is None else 100 * float(found)

    return value


def _summaries(
    points: Sequence[selectors.SessionMeasures], lines: Sequence[ProgressLine]
) -> list[LineSummary]:
    if not lines:
        return [
            LineSummary(
                title="",
                sentence=_("No games played yet."),
                sessions=0,
                rt_per_week=None,
                accuracy_per_week=None,
            )
        ]
    titled = len(lines) > 1 or lines[0].kind is not None
    return [_line_summary(points, line, titled=titled) for line in lines]


def _level_tracks(student: Student, game: str | None) -> list[dict[str, Any]]:
    """Per game with adaptive play: the level reached session by session, as a chart and as
    rows (for screen readers and print)."""
    tracks = []
    for slug, spec in game_registry().items():
        if game and slug != game:
            continue
        track = level_track(student=student, game=slug)
        if not track:
            continue
        labels = [
            formats.date_format(timezone.localtime(point.played_at), "SHORT_DATE_FORMAT")
            + (" ·P" if point.practice else "")
            if point.played_at
            else "—"
            for point in track
        ]
        chart = charts.line_chart(
            title=_("%(game)s: level reached (of %(top)d)")
            % {"game": _(spec.name), "top": len(spec.ladder)},
            labels=labels,
            series=[charts.Series(_("Level reached"), [point.last_rung + 1 for point in track])],
            unit="",
        )
        rows = [
            {
                "point": point,
                "from": rung_label(game=slug, rung=point.first_rung),
                "to": rung_label(game=slug, rung=point.last_rung),
            }
            for point in track
        ]
        current = rung_label(game=slug, rung=track[-1].last_rung)
        tracks.append({"name": _(spec.name), "chart": chart, "rows": rows, "current": current})
    return tracks


def _progress_context(student: Student, game: str | None) -> dict[str, Any]:
    points = selectors.student_sessions(student=student, game=game)
    lines = _progress_lines(points)
    # The charts draw a point per day (and game and level): ten sessions on one day are one
    # day of play, not ten steps along the weeks.
    days = selectors.student_days(student=student, game=game)
    return {
        "student": student,
        "level_tracks": _level_tracks(student, game),
        "points": points,
        "colour_safe_sessions": student_colour_safe_sessions(student=student),
        "labels": [_session_label(point) for point in points],
        "summaries": _summaries(points, lines),
        "min_weeks": MIN_WEEKS,
        # The numbers table: each game's own headline rate and speed, its heads named after
        # them (one game's own names), d' only where it means something.
        "headlines": {site.slug: site.headline_measure for site in game_sites()},
        "speeds": {site.slug: site.speed_measure for site in game_sites()},
        "heads": measure_heads(point.game for point in points),
        "signal_games": {site.slug for site in game_sites() if site.signal_detection},
        "charts": _progress_charts(days, _progress_lines(days)) if days else [],
    }


@login_required
def student_progress(request: TeacherRequest, class_id: int, student_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id)
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
    school_class = class_or_404(request, class_id)
    students = school_class.students.order_by("display_name", "pk")
    student_id = whole_number_parse(request.GET.get("student", ""))
    if student_id is not None:
        students = students.filter(pk=student_id)
    games = selectors.class_games(school_class=school_class)
    game = _game_filter(request, games)
    context = {
        "school_class": school_class,
        "game": game,
        "game_names": dict(_game_choices(games)),
        "reports": [_progress_context(student, game) for student in students],
        "headlines": {site.slug: site.headline_measure for site in game_sites()},
        "speeds": {site.slug: site.speed_measure for site in game_sites()},
        "signal_games": {site.slug for site in game_sites() if site.signal_detection},
        "printed_on": timezone.localdate(),
    }
    return render(request, "classroom/class_progress_print.html", context)


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
    measures: Measures | None, game: str | None = None, *, kind: bool = False
) -> dict[str, float | None]:
    """The overview's columns of one latest session (or one kind of trial of it): the game's
    own headline rate (a kind's row: its share right) and d' only for signal detection.
    IES and BIS divide by the proportion right: for a whole session of a game without
    signal detection (whose trials include chances a rival took) they mean nothing."""
    site = game_site(game) if game else None
    rate = _headline_percent(game) if game and not kind else _accuracy
    combined = measures is not None and (kind or site is None or site.signal_detection)
    median = measures.rt.median if measures else None
    return {
        # Rounded as every measure is (``Measure.cell``): the report's 506 ms is 506 here too.
        "median_rt": None if median is None else round(median),
        "accuracy": rate(measures) if measures else None,
        "dprime": measures.dprime if measures and site and site.signal_detection else None,
        "ies": measures.inverse_efficiency_ms if measures and combined else None,
        "bis": measures.balanced_integration if measures and combined else None,
    }


def _trends(series: Sequence[selectors.KindFacts]) -> dict[str, Any]:
    # Trends over sessions use each session's mean correct RT, which the database computes;
    # ``honest_trend`` calls a change only when it is beyond its own uncertainty.
    rts = [facts.mean_correct_rt_ms for facts in series if facts.mean_correct_rt_ms]
    accuracies = [facts.accuracy for facts in series if facts.accuracy is not None]
    return {
        "has_rts": bool(rts),
        "rt_trend": honest_trend(rts, lower_is_better=True, tolerance=RT_TREND_TOLERANCE_MS),
        "accuracy_trend": honest_trend(
            accuracies, lower_is_better=False, tolerance=ACCURACY_TREND_TOLERANCE
        ),
    }


def _like_latest(
    sessions: Sequence[selectors.SessionFacts], latest: selectors.SessionMeasures | None
) -> list[selectors.SessionFacts]:
    """Like with like: only the sessions of the latest one's game and level."""
    if latest is None:
        return []
    return [fact for fact in sessions if (fact.game, fact.level) == (latest.game, latest.level)]


def _kind_row(
    kind: str, measures: Measures, sessions: Sequence[selectors.SessionFacts]
) -> dict[str, Any]:
    """One kind of trial of a mixed game, under its student: trends over that kind only."""
    of_kind = [fact.by_kind[kind] for fact in sessions if kind in fact.by_kind]
    game = sessions[0].game if sessions else None
    return {
        "kind": kind,
        "sessions": len(of_kind),
        **_figures(measures, game, kind=True),
        **_trends(of_kind),
    }


def _overview_row(entry: selectors.StudentOverview) -> dict[str, Any]:
    latest = entry.latest
    by_kind = latest.by_kind if latest else {}
    return {
        "student": entry.student,
        "latest": latest,
        "sessions": len(entry.sessions),
        "level": latest.level if latest else None,
        # A mixed game's latest session has no whole figures: its kinds' rows give them.
        **_figures(
            latest.measures if latest and not by_kind else None, latest.game if latest else None
        ),
        **_trends(
            [whole for fact in _like_latest(entry.sessions, latest) if (whole := fact.whole)]
        ),
        "kinds": [
            _kind_row(kind, m, _like_latest(entry.sessions, latest)) for kind, m in by_kind.items()
        ],
    }


def _any_figure(rows: Sequence[dict[str, Any]], name: str) -> bool:
    """Does any row (or any kind's row under it) have this figure?"""
    return any(figures[name] is not None for row in rows for figures in [row, *row["kinds"]])


@login_required
def class_overview(request: TeacherRequest, class_id: int) -> HttpResponse:
    school_class = class_or_404(request, class_id)
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
        # The columns: the shown games' own names; d' only for a game with noise trials, IES
        # and BIS only where a row has them.
        "heads": measure_heads([game] if game else games),
        "efficiency": _any_figure(rows, "ies") or _any_figure(rows, "bis"),
        **export_panel_context(request=request, school_class=school_class),
    }
    template = "classroom/class_overview.html"
    if request.htmx and not request.htmx.boosted:
        template += "#overview-table"
    return render(request, template, context)
