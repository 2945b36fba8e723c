"""Reads for the analytics pages: counts aggregated in the database, measures put together.

The database does the counting (one GROUP BY per page); Python sees only the sorted correct
RTs, which medians and trimmed means need. Every page goes through ``measures_by`` so the
dashboard, the reports and the exports agree.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field, replace
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from django.db.models import Avg, Count, FloatField, Func, Max, Min, Q, Sum
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.analytics.live_trend import fewest_answers, live_trend, pooled_spread
from classroom.analytics.measures import (
    CorrectRts,
    Measures,
    Tally,
    measures_from,
    merged_rts,
    with_balanced_integration,
)
from classroom.analytics.needs_help import Step, departure_since
from classroom.analytics.signal import SignalCounts
from classroom.analytics.speed import ANTICIPATION_FLOOR_MS, rolling_medians
from classroom.gamesite import game_site, game_sites
from classroom.models import GameSession, SchoolClass, Seat, Student, Trial, TrialTally
from classroom.selectors.certainty import (
    Certainty,
    measures_certainty,
    session_minimums,
    window_certainty,
)
from classroom.selectors.classes import classes_visible

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from datetime import datetime

    from django.contrib.auth.models import User
    from django.db.models import QuerySet

    from classroom.gamesite.contract import GameSite, Measure

Key = tuple[Any, ...]

_COUNTS = {
    "trials": Count("pk"),
    "correct_count": Count("pk", filter=Q(correct=True)),
    "hits": Count("pk", filter=Q(target=True, responded=True)),
    "misses": Count("pk", filter=Q(target=True, responded=False)),
    "false_alarms": Count("pk", filter=Q(target=False, responded=True)),
    "correct_rejections": Count("pk", filter=Q(target=False, responded=False)),
    "congruent_targets": Count("pk", filter=Q(target=True, congruent=True)),
    "congruent_errors": Count("pk", filter=Q(target=True, congruent=True, correct=False)),
    "incongruent_targets": Count("pk", filter=Q(target=True, congruent=False)),
    "incongruent_errors": Count("pk", filter=Q(target=True, congruent=False, correct=False)),
}


def _tally(row: Mapping[str, Any]) -> Tally:
    return Tally(
        trials=row["trials"],
        correct=row["correct_count"],
        signal=SignalCounts(
            hits=row["hits"],
            misses=row["misses"],
            false_alarms=row["false_alarms"],
            correct_rejections=row["correct_rejections"],
        ),
        congruent_targets=row["congruent_targets"],
        congruent_errors=row["congruent_errors"],
        incongruent_targets=row["incongruent_targets"],
        incongruent_errors=row["incongruent_errors"],
    )


def trial_tallies(*, trials: QuerySet[Trial], by: Sequence[str]) -> dict[Key, Tally]:
    """Counts per group (``by`` are Trial field names), in one aggregate query."""
    rows = trials.order_by().values(*by).annotate(**_COUNTS)
    return {tuple(row[name] for name in by): _tally(row) for row in rows}


def scored_responses(trials: QuerySet[Trial]) -> QuerySet[Trial]:
    """Correct responses whose RT the host found plausible: the only RTs any measure uses."""
    return trials.filter(correct=True, responded=True, plausible=True, rt_ms__isnull=False)


def correct_rts_by(*, trials: QuerySet[Trial], by: Sequence[str]) -> dict[Key, CorrectRts]:
    """Sorted plausible correct RTs per group, split by congruence."""
    # Ordered by RT alone: each group's lists fill up in RT order, so grouping needs no sort.
    rows = scored_responses(trials).order_by("rt_ms").values_list(*by, "rt_ms", "congruent")
    every: dict[Key, list[int]] = defaultdict(list)
    congruent: dict[Key, list[int]] = defaultdict(list)
    incongruent: dict[Key, list[int]] = defaultdict(list)
    width = len(by)
    for row in rows:
        key, rt, is_congruent = tuple(row[:width]), row[width], row[width + 1]
        every[key].append(rt)
        if is_congruent is True:
            congruent[key].append(rt)
        elif is_congruent is False:
            incongruent[key].append(rt)
    return {
        key: CorrectRts(all=rts, congruent=congruent[key], incongruent=incongruent[key])
        for key, rts in every.items()
    }


def measures_by(*, trials: QuerySet[Trial], by: Sequence[str]) -> dict[Key, Measures]:
    """Every measure per group of trials."""
    tallies = trial_tallies(trials=trials, by=by)
    rts = correct_rts_by(trials=trials, by=by)
    return {key: measures_from(tally, rts.get(key, CorrectRts())) for key, tally in tallies.items()}


def human_trials() -> QuerySet[Trial]:
    return Trial.objects.exclude(seat__isnull=True)


# --------------------------------------------------------------------------------------------
# One session


@dataclass(frozen=True)
class SeatReport:
    seat: Seat
    overall: Measures
    by_level: dict[str, Measures]
    # A game with more than one kind of trial (e.g. catches and placements) is also
    # reported kind by kind: one accuracy over both would mean nothing.
    by_kind: dict[str, Measures]
    # A session of several games (Play again): each game's measures, by game number.
    by_game: dict[int, Measures] = field(default_factory=dict)


def session_by_game(*, session: GameSession) -> dict[int, Measures]:
    """The class's measures for each game the session played (Play again deals the next)."""
    trials = human_trials().filter(session=session)
    return {
        int(key[0]): measures
        for key, measures in sorted(measures_by(trials=trials, by=["table__game_number"]).items())
    }


def session_report(*, session: GameSession) -> list[SeatReport]:
    """Per seat (student or guest) of the session: overall measures (with BIS within the
    session) and measures per level, in name order."""
    trials = human_trials().filter(session=session)
    overall = with_balanced_integration(
        {key[0]: m for key, m in measures_by(trials=trials, by=["seat"]).items()}
    )
    per_level: dict[int, dict[str, Measures]] = defaultdict(dict)
    for (seat_id, level), measures in measures_by(trials=trials, by=["seat", "level"]).items():
        per_level[seat_id][level] = measures
    per_kind: dict[int, dict[str, Measures]] = defaultdict(dict)
    for (seat_id, kind), measures in measures_by(trials=trials, by=["seat", "kind"]).items():
        per_kind[seat_id][kind] = measures
    per_game: dict[int, dict[int, Measures]] = defaultdict(dict)
    if session.game_number > 1:
        games = measures_by(trials=trials, by=["seat", "table__game_number"])
        for (seat_id, game), measures in sorted(games.items()):
            per_game[seat_id][int(game)] = measures
    seats = Seat.objects.filter(pk__in=overall).order_by("name", "pk")
    return [
        SeatReport(
            seat=seat,
            overall=overall[seat.pk],
            by_level=per_level[seat.pk],
            by_kind=dict(sorted(per_kind[seat.pk].items())),
            by_game=per_game[seat.pk],
        )
        for seat in seats
    ]


def session_trials(*, session: GameSession, seat: Seat | None = None) -> QuerySet[Trial]:
    trials = human_trials().filter(session=session).select_related("seat")
    if seat is not None:
        trials = trials.filter(seat=seat)
    return trials.order_by("created_at", "pk")


def session_levels(*, session: GameSession) -> list[str]:
    return sorted(
        set(
            human_trials()
            .filter(session=session)
            .order_by()
            .values_list("level", flat=True)
            .distinct()
        )
    )


# --------------------------------------------------------------------------------------------
# A class over weeks


@dataclass(frozen=True)
class SessionMeasures:
    """One student's measures in one session."""

    session_id: int
    started: datetime
    level: str
    game: str
    practice: bool
    # The whole session: for a game with one kind of trial a session, its only kind.
    measures: Measures
    # Kind by kind when the game mixes kinds of trial in a session (e.g. catches and
    # placements: one accuracy over both would mean nothing). Empty for any other game, whose
    # pages show ``measures`` as they always have.
    by_kind: dict[str, Measures] = field(default_factory=dict)


# Correct RTs are fetched per kind of trial too, so a mixed game's kinds each get their own.
_BY_SESSION_KIND = ("student", "session", "kind")


def student_sessions(*, student: Student, game: str | None = None) -> list[SessionMeasures]:
    """The student's sessions in time order, each with all its measures."""
    trials = Trial.objects.filter(student=student)
    if game:
        trials = trials.filter(game=game)
    rts = correct_rts_by(trials=trials, by=_BY_SESSION_KIND)
    facts = _session_facts(_tallies(student=student, game=game))
    points = [_session_measures(fact, rts) for fact in facts.values()]
    return sorted(points, key=lambda point: (point.started, point.session_id))


# A day's play at one game and level, kind by kind (see ``student_days``).
_BY_DAY = ("student", "day", "game", "level")
_BY_DAY_KIND = (*_BY_DAY, "kind")


def student_days(*, student: Student, game: str | None = None) -> list[SessionMeasures]:
    """The student's play day by day (the local calendar day), one point per game and level
    played that day, in time order: what the progress charts draw.

    Ten sessions on one day are one point of all their trials pooled (its ``session_id`` is
    the day's first session), so a day of many short games weighs as one day on a chart over
    weeks, and its spread of dates is what a learning line is fitted over. Sessions at two
    levels on one day stay two points (like with like).
    """
    trials = Trial.objects.filter(student=student).annotate(
        day=TruncDate("created_at", tzinfo=timezone.get_current_timezone())
    )
    if game:
        trials = trials.filter(game=game)
    rts = correct_rts_by(trials=trials, by=_BY_DAY_KIND)
    # A day is named by its first session (what ``_session_fact`` reads as the session).
    by_day = _facts_by(
        trials, by=_BY_DAY_KIND, group=len(_BY_DAY), session=("first_session", Min("session"))
    )
    points = []
    for key, fact in by_day.items():
        kind_rts = {kind: rts.get((*key, kind), CorrectRts()) for kind in fact.kinds}
        points.append(_measures_of(fact, kind_rts))
    return sorted(points, key=lambda point: (point.started, point.session_id))


@dataclass(frozen=True)
class KindFacts:
    """One kind of trial of one student's session, as a single aggregate row gives it."""

    tally: Tally
    # Of plausible correct responses at or above the anticipation floor (a mean, so the
    # database can compute it for every session at once; medians need the sorted RTs).
    mean_correct_rt_ms: float | None

    @property
    def accuracy(self) -> float | None:
        return self.tally.correct / self.tally.trials if self.tally.trials else None


@dataclass(frozen=True)
class SessionFacts:
    """One student's session as the aggregate rows give it: enough for trends."""

    student_id: int
    session_id: int
    started: datetime
    level: str
    game: str
    # Played alone on a tablet (classroom.services.practice), not in a class session.
    practice: bool
    # Every kind of trial the student had in the session, in kind order.
    kinds: dict[str, KindFacts]
    # The game mixes kinds of trial in a session: pages show each kind on its own.
    split_by_kind: bool

    @property
    def by_kind(self) -> dict[str, KindFacts]:
        """The kinds to show one by one; empty when the session is shown whole."""
        return self.kinds if self.split_by_kind else {}

    @property
    def whole(self) -> KindFacts | None:
        """The session's figures when it is shown whole, and then it has a single kind of
        trial (a session of several kinds makes its game mixed, so split). None for a split
        session: a catch's and a placement's figures add up to nothing."""
        if self.split_by_kind:
            return None
        (only,) = self.kinds.values()
        return only

    @property
    def tally(self) -> Tally:
        """Every trial of the session counted together (counts do add up across kinds)."""
        first, *others = (kind.tally for kind in self.kinds.values())
        return sum(others, first)

    @property
    def mean_correct_rt_ms(self) -> float | None:
        return whole.mean_correct_rt_ms if (whole := self.whole) else None

    @property
    def accuracy(self) -> float | None:
        return whole.accuracy if (whole := self.whole) else None


# Games that record more than one kind of trial in a session (``GameSite.mixed_kinds``), e.g.
# catches (caught or missed, with an RT) beside placements (stayed on board or not, no RT).
MIXED_KIND_GAMES = frozenset(site.slug for site in game_sites() if site.mixed_kinds)

# The RTs a session's trend figure averages (``KindFacts.mean_correct_rt_ms``).
_TREND_RTS = Q(correct=True, responded=True, plausible=True, rt_ms__gte=ANTICIPATION_FLOOR_MS)


def _tallies(
    *,
    student: Student | None = None,
    school_class: SchoolClass | None = None,
    game: str | None = None,
) -> QuerySet[TrialTally]:
    """The tallies of exactly the trials ``Trial.objects.filter(student=…)`` (or
    ``student__school_class=…``), ``.filter(game=…)`` would give."""
    tallies = TrialTally.objects.all()
    if student is not None:
        tallies = tallies.filter(student=student)
    if school_class is not None:
        tallies = tallies.filter(student__school_class=school_class)
    if game:
        tallies = tallies.filter(game=game)
    return tallies


def tallies_played(*, tallies: QuerySet[TrialTally]) -> str:
    """What play changes in ``tallies``: their rows and sums (the triggers keep them), in one
    small aggregate; what a cache of figures read from the same trials is kept under."""
    found = tallies.aggregate(rows=Count("pk"), trials=Sum("trials"), rts=Sum("trend_rt_sum"))
    return ":".join(str(value) for value in found.values())


class _Mean(Func):
    """``sum / count`` (None for no count) in the arithmetic AVG itself uses, so a mean made
    from tallies has every digit of the mean of the trials: numeric division on PostgreSQL
    (its AVG of integers), a double's on SQLite."""

    arity = 2
    output_field = FloatField()

    def as_sql(
        self, compiler: Any, connection: Any, *args: Any, **extra: Any
    ) -> tuple[str, tuple[Any, ...]]:
        total, count = self.get_source_expressions()
        total_sql, total_params = compiler.compile(total)
        count_sql, count_params = compiler.compile(count)
        number = "numeric" if connection.vendor == "postgresql" else "REAL"
        sql = f"CASE WHEN {count_sql} > 0 THEN CAST({total_sql} AS {number}) / {count_sql} END"
        return sql, (*count_params, *total_params, *count_params)


class _Total(Sum):
    """SUM of an integer column, which both databases already answer as an int: without
    Django's int() converter, run 10 times a row on the class overview's 6,000 rows."""

    @property
    def convert_value(self) -> Any:
        return self._convert_value_noop  # type: ignore[attr-defined]


def _session_facts(tallies: QuerySet[TrialTally]) -> dict[Key, SessionFacts]:
    """Per (student, session), from the tallies (``TrialTally``: the database keeps them
    equal to a count of the trials) summed per kind of trial: a year of a class is 6,000 of
    them rather than 1.2 M trials. A session is played at one level (a session setting), so
    the level of any of its trials is the session's level.

    A game that mixes kinds of trial (``MIXED_KIND_GAMES``, or any game with a session of
    several kinds among these trials) is split kind by kind in every session, even one with a
    single kind: a student whose cargo never fell has placements only, and their steadiness
    must not be read as the accuracy of a whole session.
    """
    rows = (
        tallies.order_by()
        .values(*_BY_SESSION_KIND)
        .annotate(
            started=Min("started"),
            session_kind=Min("session__kind"),
            mean_rt=_Mean(Sum("trend_rt_sum"), Sum("trend_rt_count")),
            level=Min("level"),
            game=Min("game"),
            **{name: _Total(name) for name in _COUNTS},
        )
    )
    return _facts_from(rows, by=_BY_SESSION_KIND, group=2)


def _facts_by(
    trials: QuerySet[Trial],
    *,
    by: Sequence[str],
    group: int,
    session: tuple[str, Any] | None = None,
    **more: Any,
) -> dict[Key, SessionFacts]:
    """One aggregate query grouped by ``by`` (its last field the kind of trial), made into
    facts per the first ``group`` fields: a session, or a day of play (``student_days``).
    ``more`` are further aggregates the rows need (the level and game of a session);
    ``session`` names and computes the session a group is called by when the grouping does
    not have one. A mixed game is split kind by kind everywhere (see ``_session_facts``)."""
    named = dict([session]) if session is not None else {}
    return _facts_from(
        facts_rows(trials, by=by, **named, **more), by=by, group=group, session=session
    )


def _facts_from(
    rows: Iterable[Mapping[str, Any]],
    *,
    by: Sequence[str],
    group: int,
    session: tuple[str, Any] | None = None,
) -> dict[Key, SessionFacts]:
    """Aggregate rows (one per ``by``) made into facts per the first ``group`` fields."""
    grouped: dict[Key, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        if session is not None:
            row = {**row, "session": row[session[0]]}
        grouped[tuple(row[name] for name in by[:group])].append(row)
    mixed_games = MIXED_KIND_GAMES | {
        kinds[0]["game"] for kinds in grouped.values() if len(kinds) > 1
    }
    return {
        key: _session_fact(kinds, split_by_kind=kinds[0]["game"] in mixed_games)
        for key, kinds in grouped.items()
    }


def facts_rows(
    trials: QuerySet[Trial], *, by: Sequence[str], **more: Any
) -> QuerySet[Trial, dict[str, Any]]:
    """The aggregate rows ``_facts_by`` reads: every trial column they use is in the index
    ``trial_student_session_kind`` (``Trial.Meta``), so PostgreSQL never visits the table."""
    rows: QuerySet[Trial, dict[str, Any]] = (
        trials.order_by()
        .values(*by)
        .annotate(
            started=Min("created_at"),
            session_kind=Min("session__kind"),
            mean_rt=Avg("rt_ms", filter=_TREND_RTS),
            **more,
            **_COUNTS,
        )
    )
    return rows


def _session_fact(kinds: Sequence[Mapping[str, Any]], *, split_by_kind: bool) -> SessionFacts:
    """One session from its aggregate rows, one per kind of trial."""
    first = kinds[0]
    return SessionFacts(
        student_id=first["student"],
        session_id=first["session"],
        started=min(row["started"] for row in kinds),
        level=first["level"],
        game=first["game"],
        practice=first["session_kind"] == GameSession.Kind.PRACTICE,
        kinds={
            row["kind"]: KindFacts(tally=_tally(row), mean_correct_rt_ms=row["mean_rt"])
            for row in sorted(kinds, key=itemgetter("kind"))
        },
        split_by_kind=split_by_kind,
    )


def _session_measures(fact: SessionFacts, rts: Mapping[Key, CorrectRts]) -> SessionMeasures:
    """Every measure of one student's session, from its facts and its correct RTs per kind
    (keyed by ``_BY_SESSION_KIND``)."""
    kind_rts = {
        kind: rts.get((fact.student_id, fact.session_id, kind), CorrectRts()) for kind in fact.kinds
    }
    return _measures_of(fact, kind_rts)


def _measures_of(fact: SessionFacts, kind_rts: Mapping[str, CorrectRts]) -> SessionMeasures:
    """Every measure of ``fact`` (a session, or a day's sessions), given its RTs per kind."""
    return SessionMeasures(
        session_id=fact.session_id,
        started=fact.started,
        level=fact.level,
        game=fact.game,
        practice=fact.practice,
        measures=measures_from(fact.tally, merged_rts(kind_rts.values())),
        by_kind={
            kind: measures_from(kind_facts.tally, kind_rts[kind])
            for kind, kind_facts in fact.by_kind.items()
        },
    )


@dataclass(frozen=True)
class StudentOverview:
    student: Student
    # Every session, oldest first, for trends; the latest with every measure.
    sessions: list[SessionFacts]
    latest: SessionMeasures | None


def class_overview(*, school_class: SchoolClass, game: str | None = None) -> list[StudentOverview]:
    """Every student of the class: their sessions' trend figures and their latest measures.

    Two queries whatever the class's history: the per-session (and kind) tallies, and the
    sorted correct RTs of each student's latest session only.
    """
    students = list(school_class.students.order_by("display_name", "pk"))
    trials = Trial.objects.filter(student__school_class=school_class)
    if game:
        trials = trials.filter(game=game)
    by_student: dict[int, list[SessionFacts]] = defaultdict(list)
    for fact in _session_facts(_tallies(school_class=school_class, game=game)).values():
        by_student[fact.student_id].append(fact)
    for series in by_student.values():
        series.sort(key=lambda fact: (fact.started, fact.session_id))
    latest = {student_id: series[-1] for student_id, series in by_student.items()}
    rts = correct_rts_by(
        trials=trials.filter(session__in={fact.session_id for fact in latest.values()}),
        by=_BY_SESSION_KIND,
    )
    latest_measures = _with_class_balanced_integration(
        {student_id: _session_measures(fact, rts) for student_id, fact in latest.items()}
    )
    return [
        StudentOverview(
            student=student,
            sessions=by_student.get(student.pk, []),
            latest=latest_measures.get(student.pk),
        )
        for student in students
    ]


def _with_class_balanced_integration(
    latest: Mapping[int, SessionMeasures],
) -> dict[int, SessionMeasures]:
    """BIS compares each student's latest session with the rest of the class's latest ones:
    whole sessions with whole sessions, and a mixed game's kinds each with the same kind (a
    catch's speed and accuracy are nothing like a placement's)."""
    whole = with_balanced_integration(
        {student_id: point.measures for student_id, point in latest.items() if not point.by_kind}
    )
    of_kind: dict[str, dict[int, Measures]] = defaultdict(dict)
    for student_id, point in latest.items():
        for kind, measures in point.by_kind.items():
            of_kind[kind][student_id] = measures
    scored = {kind: with_balanced_integration(group) for kind, group in of_kind.items()}
    return {
        student_id: replace(
            point,
            measures=whole.get(student_id, point.measures),
            by_kind={kind: scored[kind][student_id] for kind in point.by_kind},
        )
        for student_id, point in latest.items()
    }


def class_games(*, school_class: SchoolClass) -> list[str]:
    """The games the class's students have trials of: read off their tallies (a DISTINCT
    over the class's trials reads all of them, a year of a class: 1.2 M)."""
    return sorted(
        set(
            _tallies(school_class=school_class)
            .order_by()  # the default ordering would make DISTINCT return every row
            .values_list("game", flat=True)
            .distinct()
        )
    )


def class_last_played(*, teacher: User) -> dict[int, datetime]:
    rows = (
        Trial.objects.filter(student__school_class__in=classes_visible(teacher=teacher))
        .values("student__school_class")
        .annotate(last=Max("created_at"))
    )
    return {row["student__school_class"]: row["last"] for row in rows}


# --------------------------------------------------------------------------------------------
# The live dashboard of a running session

ROLLING_RESPONSES = 10
# A student stands out when their accuracy is this far below the class median …
STRUGGLE_ACCURACY_GAP = 0.15
# … or when they slap this often without a match (with at least a few chances to).
STRUGGLE_FALSE_ALARM_RATE = 0.4
STRUGGLE_MIN_TRIALS = 8


@dataclass(frozen=True)
class DashboardTile:
    seat: Seat
    measures: Measures
    # The game's headline rate (accuracy, spotting rate, catch rate), a proportion.
    headline: float | None
    rolling_median_ms: float | None
    rt_trend: str
    low_accuracy: bool
    many_false_alarms: bool
    # How sure the tile's figures are: the headline rate and the recent median each with its
    # interval, or "needs more play" under the measure's minimum (as the session report says),
    # and the ``Dashboard.more`` rates with theirs, in the same order.
    headline_sure: Certainty | None = None
    speed_sure: Certainty | None = None
    more_sure: tuple[Certainty, ...] = ()
    # The child's play has departed from their own start (``classroom.analytics.needs_help``):
    # the one line why, for the teacher only; "" when it has not or the teacher dismissed it.
    needs_help: str = ""

    @property
    def struggling(self) -> bool:
        return self.low_accuracy or self.many_false_alarms or bool(self.needs_help)

    @property
    def headline_percent(self) -> float | None:
        return None if self.headline is None else 100 * self.headline


@dataclass(frozen=True)
class Dashboard:
    tiles: list[DashboardTile]
    class_rts: list[int]
    # The class median of the game's headline rate.
    class_accuracy: float | None
    # What the headline rate is called, for the tiles ("Accuracy", "Spotting rate"…).
    headline_label: str = ""
    # The game's measure of speed ("Median RT", "Time to play"), the tiles' recent median.
    speed_label: str = ""
    # What one response's time is called ("Reaction time", "Catch time"): the histogram.
    response_time_label: str = ""
    # The fewest correct answers a child needs before their trend arrow shows
    # (classroom/analytics/live_trend.py); None until the class's times have a spread.
    trend_fewest: int | None = None
    # Beside the headline on every tile: the game's own ``tile_measures`` (wrong plays beside a
    # spotting rate), and in a game of several kinds the rates of its other kinds ("Stayed
    # aboard"), so a tile with no catches yet still tells how the child placed.
    more: tuple[Measure, ...] = ()

    @property
    def class_accuracy_percent(self) -> float | None:
        return None if self.class_accuracy is None else 100 * self.class_accuracy


def _struggles(
    m: Measures,
    headline: float | None,
    class_median: float | None,
    *,
    signal_detection: bool,
) -> tuple[bool, bool]:
    """Low: the game's headline rate is ``STRUGGLE_ACCURACY_GAP`` below the class median.
    Many false alarms: only where there are noise trials (``GameSite.signal_detection``); a
    game whose every "no" trial is a response would read 100 %."""
    if m.trials < STRUGGLE_MIN_TRIALS:
        return False, False
    low = (
        class_median is not None
        and headline is not None
        and headline <= class_median - STRUGGLE_ACCURACY_GAP
    )
    if not signal_detection:
        return low, False
    noise = m.signal.false_alarms + m.signal.correct_rejections
    rate = m.signal.false_alarm_rate
    return low, noise >= STRUGGLE_MIN_TRIALS // 2 and rate is not None and (
        rate >= STRUGGLE_FALSE_ALARM_RATE
    )


def session_dashboard(*, session: GameSession) -> Dashboard:
    """Per seat: measures so far, rolling median of the last correct RTs and its trend, read
    from every trial of the session (a console keeps them between draws: ``LiveSkills``)."""
    trials = human_trials().filter(session=session)
    measures = {key[0]: m for key, m in measures_by(trials=trials, by=["seat"]).items()}
    in_order: dict[int, list[int]] = defaultdict(list)
    for seat_id, rt in scored_responses(trials).order_by("pk").values_list("seat", "rt_ms"):
        if seat_id is not None and rt is not None:  # both guaranteed by the filters
            in_order[seat_id].append(rt)
    rolling = {
        seat_id: rolling_medians(rts, window=ROLLING_RESPONSES) for seat_id, rts in in_order.items()
    }
    return dashboard_build(
        session=session,
        measures=measures,
        in_order=in_order,
        rolling=rolling,
        steps=trial_steps(trials),
    )


def trial_steps(trials: QuerySet[Trial]) -> dict[int, list[Step]]:
    """Each seat's trials in the order they were played, as the "needs help" detector reads
    them."""
    steps: dict[int, list[Step]] = defaultdict(list)
    rows = trials.order_by("pk").values_list("seat", "responded", "correct", "rt_ms", "plausible")
    for seat_id, responded, correct, rt, plausible in rows:
        if seat_id is not None:
            steps[seat_id].append(
                Step(responded=bool(responded), correct=correct, rt_ms=rt, plausible=plausible)
            )
    return steps


def needs_help_line(*, steps: Sequence[Step], dismissed_at: int | None) -> str:
    """The tile's line: why the child's play departs from their own start, or "" (none, or
    one that began before the teacher dismissed it at ``dismissed_at`` trials)."""
    found = departure_since(steps, after=dismissed_at or 0)
    if found is None:
        return ""
    flag, _onset = found
    return _(flag.reason) % {"n": flag.n, "of": flag.of}


def dashboard_build(
    *,
    session: GameSession,
    measures: Mapping[int, Measures],
    in_order: Mapping[int, Sequence[int]],
    rolling: Mapping[int, Sequence[float]],
    steps: Mapping[int, Sequence[Step]] | None = None,
) -> Dashboard:
    """The dashboard from each seat's measures, its scored RTs in the order they came and
    their rolling medians (``rolling_medians`` of those RTs, ``ROLLING_RESPONSES`` wide), and
    its trials in order (``trial_steps``) for the "needs help" mark."""
    site = game_site(session.game)
    rates = {seat_id: site.headline_measure.value(m) for seat_id, m in measures.items()}
    accuracies = sorted(float(rate) for rate in rates.values() if rate is not None)

    class_median = statistics.median(accuracies) if accuracies else None
    spread = pooled_spread(in_order.values())
    fewest = None if spread is None else fewest_answers(spread)
    kind_rates = site.kind_rates.values() if site.mixed_kinds else ()
    more = tuple(
        site.measure(key)
        for key in dict.fromkeys([*kind_rates, *site.tile_measures])
        if key != site.headline
    )
    needed = session_minimums(session=session, trials=sum(m.trials for m in measures.values()))
    tiles = []
    for seat in Seat.objects.filter(pk__in=list(measures)).order_by("name", "pk"):
        seat_rolling = rolling.get(seat.pk, [])
        rate = rates[seat.pk]
        low, noisy = _struggles(
            measures[seat.pk],
            None if rate is None else float(rate),
            class_median,
            signal_detection=site.signal_detection,
        )
        tiles.append(
            DashboardTile(
                seat=seat,
                measures=measures[seat.pk],
                headline=None if rate is None else float(rate),
                rolling_median_ms=seat_rolling[-1] if seat_rolling else None,
                rt_trend=live_trend(in_order.get(seat.pk, ()), spread=spread),
                low_accuracy=low,
                many_false_alarms=noisy,
                **_tile_certainty(
                    site, measures[seat.pk], in_order.get(seat.pk, ()), seat_rolling, more, needed
                ),
                needs_help=needs_help_line(
                    steps=(steps or {}).get(seat.pk, ()), dismissed_at=seat.help_dismissed_at
                ),
            )
        )
    every_rt = [rt for rts in in_order.values() for rt in rts]
    return Dashboard(
        tiles=tiles,
        class_rts=every_rt,
        class_accuracy=class_median,
        headline_label=str(site.headline_measure.label),
        speed_label=str(site.speed_measure.label),
        response_time_label=str(site.response_time),
        trend_fewest=fewest,
        more=more,
    )


def _tile_certainty(
    site: GameSite,
    measures: Measures,
    in_order: Sequence[int],
    rolling: Sequence[float],
    more: tuple[Measure, ...],
    needed: Mapping[str, int | None],
) -> dict[str, Any]:
    """A tile's figures with how sure each is. The minimums count a child's trials, as the
    session report's do, so a tile and the report say "needs more play" alike."""
    speed = site.speed_measure
    return {
        "headline_sure": measures_certainty(
            measure=site.headline_measure,
            measures=measures,
            speed=False,
            needed=needed.get(site.headline_measure.key),
        ),
        "speed_sure": window_certainty(
            measure=speed,
            window=in_order[-ROLLING_RESPONSES:],
            value=round(rolling[-1]) if rolling else None,
            played=measures.trials,
            needed=needed.get(speed.key),
        ),
        "more_sure": tuple(
            measures_certainty(measure=measure, measures=measures, speed=False) for measure in more
        ),
    }


def session_absent_students(*, session: GameSession) -> list[Student]:
    """The class members with no seat in the session: "not here yet" on the console."""
    if session.school_class_id is None:
        return []
    present = Seat.objects.filter(session=session, student__isnull=False).values("student")
    return list(
        Student.objects.filter(school_class_id=session.school_class_id)
        .exclude(pk__in=present)
        .order_by("display_name", "pk")
    )
