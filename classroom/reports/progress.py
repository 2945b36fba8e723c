"""A student's progress over weeks, as the progress page and the printed reports show it:
lines per game and kind, their summaries and charts, the level track and the sessions table.

Used in a request (``classroom.views.analytics``) and by the task worker, which prepares a
whole class's printed reports (``classroom.services.exports``): at a year's data they take
seconds, too long for a request.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from classroom.analytics import charts
from classroom.analytics.progress import (
    MIN_WEEKS,
    LineFit,
    SessionPoint,
    distinct_weeks,
    learning_curve,
    progress_summary,
    summary_text,
)
from classroom.gamesite import game_site, game_sites
from classroom.gamesite.labels import kind_label, level_label, measure_heads
from classroom.gamesite.ladder_labels import rung_label
from classroom.selectors import analytics as selectors
from classroom.selectors.accommodations import (
    student_colour_safe_sessions,
    student_extra_time_sessions,
)
from classroom.selectors.certainty import measures_certainty
from classroom.selectors.class_change import (
    RATE,
    SPEED,
    ClassChange,
    class_change,
    rate_measure,
    rate_trials,
)
from classroom.selectors.decision_styles import student_decision_styles
from classroom.selectors.levels import level_track
from classroom.selectors.student_play import student_play
from classroom.selectors.verdicts import class_verdicts
from classroom.selectors.warmups import student_decision_times
from games.registry import game_get, game_registry

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from classroom.analytics.measures import Measures
    from classroom.models import SchoolClass, Student
    from classroom.selectors.certainty import Certainty
    from classroom.selectors.verdicts import SkillVerdict

    # A measure read off the sessions of one progress line.
    LineValue = Callable[[Measures], float | None]

WEEK_S = 7 * 24 * 3600


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
        lines.append(ProgressLine(kind=None, title=game_title(game), measures=whole, game=game))
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


def accuracy(m: Measures) -> float | None:
    return m.accuracy_percent


def _dprime(m: Measures) -> float | None:
    return m.dprime


def _same(value: LineValue) -> Callable[[ProgressLine], LineValue]:
    """One measure for every line of a chart."""
    return lambda _line: value


def _line_rate(line: ProgressLine) -> LineValue:
    """A line's own rate: a whole-session line's game's headline rate (accuracy, spotting
    rate), a kind's line its share right (a catch's is the catch rate)."""
    return headline_percent(line.game) if line.game is not None else accuracy


def _plotted(
    lines: Sequence[ProgressLine], value: Callable[[ProgressLine], LineValue]
) -> list[ProgressLine]:
    """The lines a chart of this measure draws: the whole-session line always, a kind only
    when it has the measure at all (placements have no RT, no sensitivity)."""
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
    # A lone whole-session line is named after the chart: its legend would only repeat the title.
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
    headline = headline_percent(latest.game) if latest and line.kind is None else accuracy
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


def headline_percent(game: str) -> Callable[[Measures], float | None]:
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


def _figures_sure(
    point: selectors.SessionMeasures, change: ClassChange
) -> dict[str, dict[str, Certainty]]:
    """How sure a session's speed and rate are (a whole session under ``""``, each kind of a
    mixed game under its name), against the class's minimum at its game and level."""
    site = game_site(point.game)
    lines: dict[str | None, Measures] = {None: point.measures}
    if point.by_kind:
        lines = {kind: measures for kind, measures in point.by_kind.items()}
    return {
        kind or "": {
            SPEED: measures_certainty(
                measure=site.speed_measure,
                measures=measures,
                speed=True,
                needed=change.needed(point.game, point.level, kind, SPEED),
            ),
            RATE: measures_certainty(
                measure=rate_measure(point.game, kind),
                measures=measures,
                speed=False,
                needed=change.needed(point.game, point.level, kind, RATE),
                of=rate_trials,
            ),
        }
        for kind, measures in lines.items()
    }


def _changes(student: Student, change: ClassChange) -> list[dict[str, Any]]:
    """The student's reliable changes, a line per whole game or kind of trial: the speed's
    and the rate's verdicts and the day of the first session they are measured from."""
    lines: dict[str | None, dict[str, Any]] = {}
    for found in change.of_student(student.pk):
        line = lines.setdefault(
            found.kind,
            {
                "title": kind_label(found.kind) if found.kind else "",
                "since": timezone.localtime(found.since).date(),
                "rt_change": None,
                "rate_change": None,
            },
        )
        line["rt_change" if found.measure == SPEED else "rate_change"] = found.change.verdict
    return list(lines.values())


def progress_report(
    student: Student, game: str | None, change: ClassChange | None = None
) -> dict[str, Any]:
    """Everything a student's progress page (and printed report) shows, for one game or all;
    ``change`` is the class's (``class_change``), read here when not given."""
    if change is None:
        change = class_change(school_class=student.school_class, game=game)
    play = student_play(student=student, game=game)
    points = play.sessions
    lines = _progress_lines(points)
    # The charts draw a point per day (and game and level): ten sessions on one day are one
    # day of play, not ten steps along the weeks.
    days = play.days
    return {
        "student": student,
        "level_tracks": _level_tracks(student, game),
        "points": points,
        "colour_safe_sessions": student_colour_safe_sessions(student=student),
        "extra_time_sessions": student_extra_time_sessions(student=student),
        "labels": [_session_label(point) for point in points],
        "summaries": _summaries(points, lines),
        "changes": _changes(student, change),
        "sure": {point.session_id: _figures_sure(point, change) for point in points},
        "left_out": {session for who, session in change.left_out if who == student.pk},
        "min_weeks": MIN_WEEKS,
        # The numbers table: each game's own headline rate and speed, its heads named after
        # them (one game's own names), d' only where it means something.
        "headlines": {site.slug: site.headline_measure for site in game_sites()},
        "speeds": {site.slug: site.speed_measure for site in game_sites()},
        "heads": measure_heads(point.game for point in points),
        "signal_games": {site.slug for site in game_sites() if site.signal_detection},
        "charts": _progress_charts(days, _progress_lines(days)) if days else [],
    }


def game_title(slug: str) -> str:
    return _(spec.name) if (spec := game_get(slug)) else slug


def game_titles(games: Iterable[str]) -> dict[str, str]:
    return {slug: game_title(slug) for slug in games}


def _printed_extras(
    student: Student, game: str | None, verdicts: list[SkillVerdict]
) -> dict[str, Any]:
    """What a printed page adds to the progress page's figures, as the progress page shows it
    in cards of its own: the child's verdicts, their latest careful-or-hasty reading, and their
    latest decision time."""
    styles = student_decision_styles(student=student, game=game)
    decisions = student_decision_times(student=student, game=game)
    return {
        "verdicts": verdicts,
        "style": next((row for row in styles if row.reading.style), None),
        "decision": next((row for row in decisions if row.decision.decision_ms is not None), None),
    }


def class_reports_context(
    *,
    school_class: SchoolClass,
    game: str | None,
    students: Iterable[Student],
    on_report: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The printed reports of ``students`` (one page each), for one game or all;
    ``on_report(done)`` hears after each student's (a prepared file's progress)."""
    reports = []
    change = class_change(school_class=school_class, game=game)
    verdicts = class_verdicts(school_class=school_class, game=game)
    for done, student in enumerate(students, start=1):
        reports.append(
            {
                **progress_report(student, game, change),
                **_printed_extras(student, game, verdicts.get(student.pk, [])),
            }
        )
        if on_report is not None:
            on_report(done)
    games = selectors.class_games(school_class=school_class)
    return {
        "school_class": school_class,
        "game": game,
        "game_names": game_titles(games),
        "reports": reports,
        "headlines": {site.slug: site.headline_measure for site in game_sites()},
        "speeds": {site.slug: site.speed_measure for site in game_sites()},
        "signal_games": {site.slug for site in game_sites() if site.signal_detection},
        "printed_on": timezone.localdate(),
    }
