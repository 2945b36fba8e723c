"""A report for home: one printed page per child and period for their family, in plain words.

What the child played (games, levels, sessions, minutes) and how they are growing against
their OWN earlier play only: the reliable change of each measure from their first session to
their latest at the level they play now (``classroom.selectors.class_change``), judged only
when their latest session has the trials the measure needs (``classroom.analytics.
enough_data``). The class's figures are the yardstick of that judgement and never appear:
no other child, no average, no rank. Thin data say "we need more play".

Built by the task worker (``classroom.services.exports``), a child's page or a class's set.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Final

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from classroom.analytics.enough_data import EnoughData
from classroom.analytics.reliable_change import DECLINED, IMPROVED
from classroom.gamesite import game_site
from classroom.gamesite.labels import level_label
from classroom.people.extra_time import extra_time_badge
from classroom.reports.progress import game_title
from classroom.selectors import analytics as selectors
from classroom.selectors.certainty import kept_rts
from classroom.selectors.class_change import (
    RATE,
    SPEED,
    ClassChange,
    class_change,
    rate_count,
    rate_measure,
)
from classroom.selectors.home_reports import student_play

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from datetime import date, datetime

    from django_stubs_ext import StrPromise

    from classroom.analytics.measures import Measures
    from classroom.models import SchoolClass, Student
    from classroom.selectors.home_reports import GamePlayed

# The periods a teacher can ask for: how many days back from today (None: all play so far).
PERIODS: Final[dict[str, tuple[int | None, StrPromise]]] = {
    "4w": (28, gettext_lazy("The last 4 weeks")),
    "12w": (84, gettext_lazy("The last 12 weeks")),
    "all": (None, gettext_lazy("All play so far")),
}
DEFAULT_PERIOD: Final = "4w"

# How a child's play in one game reads against their own earlier play.
IMPROVING: Final = "improving"
STEADY: Final = "steady"
MIXED: Final = "mixed"
DIPPED: Final = "dipped"
NOT_SURE: Final = "not-sure"
MORE_PLAY: Final = "more-play"


@dataclass(frozen=True)
class GameGrowth:
    """One game on a child's page: what it exercises, what they played, how they grow."""

    title: str
    exercises: str
    levels: list[str]
    sessions: int
    minutes: int
    state: str
    sentence: str
    # The extra time it was played with, as its badge says it (none: empty).
    extra_time: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class HomeReport:
    """One child's page for one period."""

    name: str
    period: str
    since: date | None
    games: list[GameGrowth]
    sessions: int
    minutes: int
    # The page's opening words: what was played, or that we need more play.
    opening: str


def period_since(period: str, *, now: datetime | None = None) -> datetime | None:
    """The start of ``period`` (an unknown one: the default), or ``None`` for all play."""
    days, _label = PERIODS.get(period, PERIODS[DEFAULT_PERIOD])
    if days is None:
        return None
    moment = now or timezone.now()
    start = timezone.localtime(moment) - timedelta(days=days)
    return start.replace(hour=0, minute=0, second=0, microsecond=0)


def period_label(period: str) -> str:
    return str(PERIODS.get(period, PERIODS[DEFAULT_PERIOD])[1])


def _enough(
    game: str, level: str, kind: str | None, measures: Measures, change: ClassChange
) -> bool:
    """Whether the latest session has the trials speed or rate needs at its game and level
    (an unknown minimum counts as enough: the reliable change then says how sure it is)."""
    speed = EnoughData(
        n=len(kept_rts(measures.correct_rts)), needed=change.needed(game, level, kind, SPEED)
    )
    rate = EnoughData(
        n=rate_count(rate_measure(game, kind), measures),
        needed=change.needed(game, level, kind, RATE),
    )
    return speed.enough or rate.enough


def _state(student: Student, game: str, change: ClassChange) -> tuple[str, str | None]:
    """How the child's play of ``game`` reads (one of the states above) and the measures
    that changed: "speed", "rate" or both, in the sentence's order."""
    left_out = {session for who, session in change.left_out if who == student.pk}
    sessions = [
        point
        for point in selectors.student_sessions(student=student, game=game)
        if point.session_id not in left_out
    ]
    if not sessions:
        return MORE_PLAY, None
    latest = sessions[-1]
    alike = [point for point in sessions if point.level == latest.level]
    lines: dict[str | None, Measures] = {None: latest.measures}
    if latest.by_kind:
        lines = {kind: measures for kind, measures in latest.by_kind.items()}
    if len(alike) < 2 or not any(
        _enough(game, latest.level, kind, measures, change) for kind, measures in lines.items()
    ):
        return MORE_PLAY, None
    found = change.of_student(student.pk)
    if not found:
        return NOT_SURE, None
    better = {c.measure for c in found if c.change.verdict == IMPROVED}
    worse = {c.measure for c in found if c.change.verdict == DECLINED}
    if better and worse:
        return MIXED, SPEED if SPEED in better - worse else RATE
    if better:
        return IMPROVING, "+".join(m for m in (SPEED, RATE) if m in better)
    if worse:
        return DIPPED, "+".join(m for m in (SPEED, RATE) if m in worse)
    return STEADY, None


def _sentence(state: str, measures: str | None, name: str, since: str) -> str:
    """The growth sentence, in plain words, against the child's own first games."""
    values = {"name": name, "since": since}
    if state == IMPROVING and measures == SPEED:
        return (
            _(
                "%(name)s now answers more quickly than in their own first games at this "
                "level (%(since)s)."
            )
            % values
        )
    if state == IMPROVING and measures == RATE:
        return (
            _(
                "%(name)s now gets more right than in their own first games at this level "
                "(%(since)s)."
            )
            % values
        )
    if state == IMPROVING:
        return (
            _(
                "%(name)s now answers more quickly and gets more right than in their own first "
                "games at this level (%(since)s)."
            )
            % values
        )
    if state == MIXED and measures == SPEED:
        return (
            _(
                "%(name)s now answers more quickly than at first, with a few more slips: "
                "usual while learning, and it often settles with more play."
            )
            % values
        )
    if state == MIXED:
        return (
            _(
                "%(name)s now gets more right than at first, taking a little more time: "
                "a good trade while learning."
            )
            % values
        )
    if state == DIPPED:
        return (
            _(
                "%(name)s has had a few harder games lately than at the start of this level; "
                "this often changes with more play."
            )
            % values
        )
    if state == STEADY:
        return (
            _(
                "%(name)s is playing steadily, about as well as in their own first games at "
                "this level (%(since)s)."
            )
            % values
        )
    if state == NOT_SURE:
        return (
            _(
                "It is too early to say how %(name)s is changing in this game; the next games "
                "will tell us more."
            )
            % values
        )
    return _("We need more play to see how %(name)s is growing in this game.") % values


def _since(student: Student, game: str, change: ClassChange) -> str:
    """The day the child started at the level they play now, as the page writes it."""
    found = change.of_student(student.pk)
    if found:
        day = timezone.localtime(found[0].since).date()
        return _("since %(date)s") % {"date": formats.date_format(day, "DATE_FORMAT")}
    return ""


def _game_growth(student: Student, played: GamePlayed, change: ClassChange) -> GameGrowth:
    site = game_site(played.game)
    state, measures = _state(student, played.game, change)
    return GameGrowth(
        title=game_title(played.game),
        exercises=str(site.home_line),
        levels=[level_label(level) for level in played.levels],
        sessions=played.sessions,
        minutes=played.minutes,
        state=state,
        sentence=_sentence(
            state, measures, student.display_name, _since(student, played.game, change)
        ),
        extra_time=[extra_time_badge(mark) for mark in played.extra_time],
    )


def home_report(
    *,
    student: Student,
    period: str,
    changes: Callable[[str], ClassChange] | None = None,
    now: datetime | None = None,
) -> HomeReport:
    """``student``'s page for ``period``; ``changes(game)`` gives the class's reliable changes
    of a game (``class_change``, read here when not given)."""
    if changes is None:

        def changes(game: str) -> ClassChange:
            return class_change(school_class=student.school_class, game=game)

    since = period_since(period, now=now)
    played = student_play(student=student, since=since)
    games = [_game_growth(student, found, changes(found.game)) for found in played]
    sessions = sum(game.sessions for game in games)
    minutes = sum(game.minutes for game in games)
    name = student.display_name
    if not games:
        opening = _(
            "%(name)s has not played in this period yet. We need more play before we can say more."
        ) % {"name": name}
    else:
        opening = _("%(name)s played %(sessions)s, %(minutes)s in all.") % {
            "name": name,
            "sessions": ngettext("%(n)d session", "%(n)d sessions", sessions) % {"n": sessions},
            "minutes": ngettext("about %(n)d minute", "about %(n)d minutes", minutes)
            % {"n": minutes},
        }
    return HomeReport(
        name=name,
        period=period_label(period),
        since=since.date() if since is not None else None,
        games=games,
        sessions=sessions,
        minutes=minutes,
        opening=opening,
    )


def home_reports_context(
    *,
    school_class: SchoolClass,
    students: Iterable[Student],
    period: str,
    on_report: Callable[[int], None] | None = None,
    now: datetime | None = None,
) -> dict[str, object]:
    """The pages of ``students`` (a child's report, or the class's set), for the template;
    ``on_report(done)`` hears after each child's (a prepared file's progress)."""
    found: dict[str, ClassChange] = {}

    def changes(game: str) -> ClassChange:
        if game not in found:
            found[game] = class_change(school_class=school_class, game=game)
        return found[game]

    reports = []
    for done, student in enumerate(students, start=1):
        reports.append(home_report(student=student, period=period, changes=changes, now=now))
        if on_report is not None:
            on_report(done)
    return {
        "school_class": school_class,
        "reports": reports,
        "printed_on": timezone.localdate(),
    }
