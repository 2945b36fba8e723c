"""A verdict per child per skill (``classroom.analytics.verdicts``): the reads behind it.

A *skill* is a game's speed measure (the median correct RT) or its headline rate, at the
level of the child's latest class session of that game. The child's score is that session's
figure at that level; the reference is the other children's figures from their own latest
session at the same game and level:

* **the school's norms**: every child on this site (Snapclass is installed per school, so
  "the school" is all its classes) of the child's year group, once at least
  ``MIN_NORM_CHILDREN`` of them contribute;
* otherwise **the class** (any year group), which the page says.

Norms are built from valid runs only: a run flagged by the validity checks and not kept
(``RunFlag``) stays out of the norms and of the child's own score, and a run played with an
accommodation (extra time, ``data["extra_time"]``; the colour-safe palette,
``data["accommodation"]``) stays out of the norms. Practice (a child alone on a tablet) is not
read: the norms are of class sessions. Bots have no student and are never read.

The school's pool (every other child's score) is read from the whole site, so it is kept in
the cache. A teacher's decision that changes it (a run kept or left out, a year group, a child
moved or removed, a class or session deleted) reads it again at the next visit; play alone
reads it again at most every ``NORMS_FRESH_S``, since a few more minutes of lessons barely
move the norms of hundreds of children, and play anywhere in the school would otherwise read
them again on every visit. The class's own children are placed as they are now: their
verdicts are kept in the cache too, but under the class's tallies' sums and the pool they were
placed in, so a pool read again places them again, and so does one more answer from the class,
at once after a lesson and at most every ``class_figures.IN_PLAY_FRESH_S`` during one.
"""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db.models import Count, Max, Min, Q
from django.utils.translation import gettext

from classroom.analytics.intervals import (
    median_difference_interval,
    median_interval,
    wilson_interval,
)
from classroom.analytics.verdicts import (
    BAND_TEXT,
    MIN_NORM_CHILDREN,
    MIN_SCORE_TRIALS,
    PART_LEVEL,
    Score,
    Verdict,
    rate_change,
    speed_change,
    verdict,
)
from classroom.gamesite import game_site
from classroom.models import GameSession, RunFlag, SchoolClass, Student, Trial, TrialTally
from classroom.people.extra_time import TRIAL_KEY as EXTRA_TIME_KEY
from classroom.people.year_groups import YEAR_GROUP_CHOICES
from classroom.selectors.analytics import _tallies, measures_by, tallies_played
from classroom.selectors.certainty import RESAMPLES, kept_rts
from classroom.selectors.class_change import RATE, SPEED, rate_count
from classroom.selectors.class_figures import class_figure_kept
from classroom.selectors.run_flags import run_left_out

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from datetime import datetime

    from django.db.models import QuerySet

    from classroom.analytics.measures import Measures

SCHOOL = "school"
CLASS = "class"
# Earlier sessions at the level that the child's own comparison pools (the latest before it).
EARLIER_SESSIONS = 3
# The mark on a trial's data of the colour-safe palette (extra time has its own, TRIAL_KEY).
ACCOMMODATION_KEY = "accommodation"
# How long play alone leaves the school's pool as it was read (see the module docstring).
NORMS_FRESH_S = 600.0
_CACHE_SECONDS = 24 * 3600
# The pool's clock (wall time: the cache is shared by the site's processes); tests set it.
_clock = time.time


@dataclass(frozen=True)
class SkillVerdict:
    """One child's verdict on one skill of one game, at the level of their latest session."""

    game: str
    level: str
    skill: str  # SPEED or RATE
    verdict: Verdict
    score: Score | None
    # SCHOOL or CLASS, the year group the norms are of ("" for the class), how many children
    # the school has of that year group at this game and level (to say why not the school).
    reference: str
    year_group: str
    school_children: int
    # How many other children the reference holds.
    children: int

    @property
    def label(self) -> str:
        site = game_site(self.game)
        measure = site.speed_measure if self.skill == SPEED else site.headline_measure
        return str(measure.label)

    @property
    def band_text(self) -> str:
        return gettext(BAND_TEXT[self.verdict.band])

    @property
    def sentence(self) -> str:
        return gettext(self.verdict.sentence)

    @property
    def compared_with(self) -> str:
        """Whom the child is compared with, in words, and why the class when it is."""
        year = dict(YEAR_GROUP_CHOICES).get(self.year_group, "")
        if self.reference == SCHOOL:
            return gettext("%(year)s at this school (%(n)d children)") % {
                "year": year,
                "n": self.children,
            }
        if not self.year_group:
            return gettext("this class (%(n)d children): no year group set") % {"n": self.children}
        return gettext(
            "this class (%(n)d children): %(school)d in %(year)s at this school, fewer than %(min)d"
        ) % {
            "n": self.children,
            "school": self.school_children,
            "year": year,
            "min": MIN_NORM_CHILDREN,
        }

    @property
    def percentiles(self) -> tuple[int, int, int] | None:
        """The percentile and its interval in whole percentiles, the interval rounded
        outwards, or None without a percentile."""
        found = self.verdict.percentile
        if found is None:
            return None
        low, high = found.interval.low, found.interval.high
        return round(100 * found.point), int(100 * low), min(100, -int(-100 * high))


@dataclass(frozen=True)
class _Run:
    """A child's latest valid class session at one game and level."""

    student_id: int
    class_id: int
    year_group: str
    game: str
    level: str
    session_id: int
    started: datetime


def _valid_tallies(game: str | None) -> QuerySet[TrialTally]:
    """The tallies of the school's class sessions, flagged runs not kept left out."""
    tallies = TrialTally.objects.filter(
        session__kind=GameSession.Kind.CLASS,
        session__deleted_at__isnull=True,
        student__school_class__deleted_at__isnull=True,
    ).exclude(run_left_out())
    return tallies.filter(game=game) if game else tallies


def _latest_runs(
    game: str | None, school_class: SchoolClass | None = None, student: Student | None = None
) -> list[_Run]:
    """Every child's latest valid class session per game and level, school-wide (or of
    ``school_class``, or of one ``student``): from the tallies (a row per student, session
    and kind of trial)."""
    tallies = _valid_tallies(game)
    if school_class is not None:
        tallies = tallies.filter(student__school_class=school_class)
    if student is not None:
        tallies = tallies.filter(student=student)
    rows = (
        tallies.order_by()
        .values("student", "session", "game", "student__school_class", "student__year_group")
        .annotate(started=Min("started"), level=Min("level"))
    )
    latest: dict[tuple[int, str, str], _Run] = {}
    for row in rows:
        run = _Run(
            student_id=row["student"],
            class_id=row["student__school_class"],
            year_group=row["student__year_group"],
            game=row["game"],
            level=row["level"],
            session_id=row["session"],
            started=row["started"],
        )
        key = (run.student_id, run.game, run.level)
        found = latest.get(key)
        if found is None or (run.started, run.session_id) > (found.started, found.session_id):
            latest[key] = run
    return list(latest.values())


# A reference child: (student, class, year group, score).
PoolEntry = tuple[int, int, str, float]


@dataclass(frozen=True)
class SchoolPool:
    """Every child's score for the norms, by (game, level, skill), and when and from what
    it was read."""

    entries: dict[tuple[str, str, str], list[PoolEntry]]
    decided: str  # the decisions' fingerprint it was read under
    played: str  # the tallies' fingerprint when read
    read_at: float  # ``_clock()`` when read, or last found unchanged


def school_pool(*, game: str | None = None) -> SchoolPool:
    """The school's pool for the norms, from the cache while it holds (module docstring)."""
    decided = _decided_fingerprint()
    key = f"snapclass:verdict-pool:{game or ''}:{decided}"
    found = cache.get(key)
    now = _clock()
    if isinstance(found, SchoolPool):
        if now - found.read_at < NORMS_FRESH_S:
            return found
        played = tallies_played(tallies=_tallies(game=game))
        if played == found.played:
            found = SchoolPool(entries=found.entries, decided=decided, played=played, read_at=now)
            cache.set(key, found, _CACHE_SECONDS)
            return found
    else:
        played = tallies_played(tallies=_tallies(game=game))
    pool = SchoolPool(entries=_pool_read(game), decided=decided, played=played, read_at=now)
    cache.set(key, pool, _CACHE_SECONDS)
    return pool


def _pool_read(game: str | None) -> dict[tuple[str, str, str], list[PoolEntry]]:
    runs = _latest_runs(game)
    _extra, accommodated = _accommodated(runs)
    measures = _measures(runs)
    pool: dict[tuple[str, str, str], list[PoolEntry]] = defaultdict(list)
    for run in runs:
        if (run.student_id, run.session_id) in accommodated:
            continue
        m = measures.get((run.student_id, run.session_id, run.level))
        for skill in (SPEED, RATE):
            point = _point(skill, run.game, m)
            if point is not None and point[1] >= MIN_SCORE_TRIALS:
                pool[run.game, run.level, skill].append(
                    (run.student_id, run.class_id, run.year_group, point[0])
                )
    return dict(pool)


def _decided_fingerprint() -> str:
    """What a teacher's decision changes: the flags kept or not, each child's year group and
    class, and the classes and sessions marked deleted."""
    flags = RunFlag.objects.aggregate(
        rows=Count("pk"), kept=Count("pk", filter=Q(kept=True)), last=Max("pk")
    )
    deleted = (
        SchoolClass.objects.filter(deleted_at__isnull=False).count(),
        GameSession.objects.filter(deleted_at__isnull=False).count(),
    )
    children = hashlib.sha1(usedforsecurity=False)
    rows = Student.objects.order_by("pk").values_list("pk", "school_class_id", "year_group")
    for row in rows.iterator(chunk_size=2000):
        children.update(repr(row).encode())
    return ":".join([*(str(v) for v in (*flags.values(), *deleted)), children.hexdigest()[:16]])


def _accommodated(runs: Iterable[_Run]) -> tuple[set[tuple[int, int]], set[tuple[int, int]]]:
    """(student, session) of the runs with any trial played with extra time, and of those with
    any accommodation at all (extra time or the colour-safe palette)."""
    sessions = {run.session_id for run in runs}
    rows = (
        Trial.objects.filter(session_id__in=sessions, student__isnull=False)
        .filter(Q(data__has_key=EXTRA_TIME_KEY) | Q(data__has_key=ACCOMMODATION_KEY))
        .order_by()
        .values_list("student_id", "session_id", "data")
        .distinct()
    )
    extra: set[tuple[int, int]] = set()
    any_kind: set[tuple[int, int]] = set()
    for student_id, session_id, data in rows:
        key = (student_id, session_id)
        any_kind.add(key)
        if isinstance(data, dict) and EXTRA_TIME_KEY in data:
            extra.add(key)
    return extra, any_kind


def _measures(runs: Iterable[_Run]) -> dict[tuple[int, int, str], Measures]:
    """Each run's measures at its level, keyed (student, session, level)."""
    runs = list(runs)
    if not runs:
        return {}
    trials = Trial.objects.filter(
        session_id__in={run.session_id for run in runs},
        student_id__in={run.student_id for run in runs},
    )
    found = measures_by(trials=trials, by=("student", "session", "level"))
    return {(int(key[0]), int(key[1]), str(key[2])): m for key, m in found.items()}


def _speed_score(measures: Measures) -> Score | None:
    rts = kept_rts(measures.correct_rts)
    interval = median_interval(rts, level=PART_LEVEL, resamples=RESAMPLES)
    if interval is None or measures.rt.median is None:
        return None
    return Score(float(measures.rt.median), interval, len(rts))


def _rate_parts(game: str, measures: Measures) -> tuple[int, int] | None:
    measure = game_site(game).headline_measure
    value, count = measure.value(measures), rate_count(measure, measures)
    if value is None or not count:
        return None
    return round(float(value) * count), count


def _rate_score(game: str, measures: Measures) -> Score | None:
    parts = _rate_parts(game, measures)
    if parts is None:
        return None
    successes, count = parts
    interval = wilson_interval(successes, count, level=PART_LEVEL)
    assert interval is not None
    return Score(successes / count, interval, count)


def _point(skill: str, game: str, measures: Measures | None) -> tuple[float, int] | None:
    """A reference child's score and what it is of, without its interval (the school's
    children are many; only the child placed needs one)."""
    if measures is None:
        return None
    if skill == SPEED:
        rts = kept_rts(measures.correct_rts)
        median = measures.rt.median
        return None if median is None or len(rts) < 2 else (float(median), len(rts))
    parts = _rate_parts(game, measures)
    return None if parts is None else (parts[0] / parts[1], parts[1])


def _score(skill: str, game: str, measures: Measures | None) -> Score | None:
    if measures is None:
        return None
    return _speed_score(measures) if skill == SPEED else _rate_score(game, measures)


def _earlier(
    students: Iterable[int], latest: Mapping[tuple[int, str, str], _Run]
) -> dict[tuple[int, str, str], Measures]:
    """Each child's earlier valid class sessions at the level of their latest (up to
    ``EARLIER_SESSIONS``), pooled, keyed (student, game, level)."""
    tallies = (
        TrialTally.objects.filter(
            student_id__in=set(students),
            session__kind=GameSession.Kind.CLASS,
            session__deleted_at__isnull=True,
        )
        .exclude(run_left_out())
        .order_by()
        .values("student", "session", "game")
        .annotate(started=Min("started"))
    )
    by_game = {(run.student_id, run.game): run for run in latest.values()}
    picked: dict[tuple[int, str, str], list[tuple[datetime, int]]] = defaultdict(list)
    for row in tallies:
        run = by_game.get((row["student"], row["game"]))
        if run is not None and row["session"] != run.session_id and row["started"] < run.started:
            picked[run.student_id, run.game, run.level].append((row["started"], row["session"]))
    if not picked:
        return {}
    # One read for every child: each (student, game) has one level here, its latest's.
    wanted = Q()
    for (student_id, _game, level), sessions in picked.items():
        chosen = [session for _started, session in sorted(sessions, reverse=True)]
        wanted |= Q(student_id=student_id, session_id__in=chosen[:EARLIER_SESSIONS], level=level)
    found = measures_by(trials=Trial.objects.filter(wanted), by=("student", "game"))
    levels = {(student_id, game): level for student_id, game, level in picked}
    return {
        (int(student_id), str(game), levels[int(student_id), str(game)]): m
        for (student_id, game), m in found.items()
        if (int(student_id), str(game)) in levels
    }


def _own_change(skill: str, game: str, latest: Measures, earlier: Measures | None) -> str | None:
    if earlier is None:
        return None
    if skill == SPEED:
        now, before = kept_rts(latest.correct_rts), kept_rts(earlier.correct_rts)
        difference = median_difference_interval(now, before, resamples=RESAMPLES)
        return speed_change(now, before, difference=difference)
    now_parts, before_parts = _rate_parts(game, latest), _rate_parts(game, earlier)
    if now_parts is None or before_parts is None:
        return None
    return rate_change(*now_parts, *before_parts)


def class_verdicts(
    *, school_class: SchoolClass, game: str | None = None, student: Student | None = None
) -> dict[int, list[SkillVerdict]]:
    """Per student of the class (or only ``student``), a verdict on speed and on the rate
    for each game (and level) of their latest class session, games in name order; kept in
    the cache until the class plays or its pool changes (module docstring)."""
    pool = school_pool(game=game)
    played = tallies_played(tallies=_tallies(school_class=school_class, student=student, game=game))
    # The pool's fingerprints hold the school's decisions, the class's own included, and the
    # play it was read after: the same two give the same pool.
    key = "snapclass:class-verdicts:{}:{}:{}:{}:{}".format(
        school_class.pk,
        game or "",
        student.pk if student is not None else "",
        pool.decided,
        pool.played,
    )
    return class_figure_kept(
        key=key,
        played=played,
        school_class=school_class,
        kind=dict,
        make=lambda: _class_verdicts(school_class, game, student, pool.entries),
    )


def _class_verdicts(
    school_class: SchoolClass,
    game: str | None,
    student: Student | None,
    pool: Mapping[tuple[str, str, str], list[PoolEntry]],
) -> dict[int, list[SkillVerdict]]:
    runs = _latest_runs(game, school_class, student)
    extra, _accommodated_runs = _accommodated(runs)
    measures = _measures(runs)
    mine = {(run.student_id, run.game, run.level): run for run in runs}
    # Only each child's latest level per game gets a verdict: the level they play now.
    newest: dict[tuple[int, str], _Run] = {}
    for run in mine.values():
        found = newest.get((run.student_id, run.game))
        if found is None or (run.started, run.session_id) > (found.started, found.session_id):
            newest[run.student_id, run.game] = run
    current = {(r.student_id, r.game, r.level): r for r in newest.values()}
    earlier = _earlier({r.student_id for r in current.values()}, current)
    result: dict[int, list[SkillVerdict]] = defaultdict(list)
    for key, run in sorted(current.items(), key=lambda item: (item[0][1], item[0][0])):
        m = measures.get((run.student_id, run.session_id, run.level))
        for skill in (SPEED, RATE):
            entries = pool.get((run.game, run.level, skill), ())
            others = [e for e in entries if e[0] != run.student_id]
            school = [e[3] for e in others if run.year_group and e[2] == run.year_group]
            if len(school) >= MIN_NORM_CHILDREN:
                reference, values = SCHOOL, school
            else:
                reference, values = CLASS, [e[3] for e in others if e[1] == run.class_id]
            score = _score(skill, run.game, m)
            own = _own_change(skill, run.game, m, earlier.get(key)) if m is not None else None
            result[run.student_id].append(
                SkillVerdict(
                    game=run.game,
                    level=run.level,
                    skill=skill,
                    verdict=verdict(
                        score,
                        values,
                        higher_is_better=skill == RATE,
                        own=own,
                        accommodated=(run.student_id, run.session_id) in extra,
                    ),
                    score=score,
                    reference=reference,
                    year_group=run.year_group,
                    school_children=len(school),
                    children=len(values),
                )
            )
    return dict(result)


def student_verdicts(*, student: Student, game: str | None = None) -> list[SkillVerdict]:
    """The student's verdicts (see ``class_verdicts``): only their own runs are read."""
    found = class_verdicts(school_class=student.school_class, game=game, student=student)
    return found.get(student.pk, [])
