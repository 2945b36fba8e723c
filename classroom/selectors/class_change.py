"""The class's own yardstick for its figures and their changes: each measure's reliability,
the fewest trials it needs, its spread across the children and the practice effect, per
game, level and kind of trial; and each child's reliable change from their first session to
their latest one at the level they play now (``classroom.analytics``: reliability,
enough_data, reliable_change).

Flagged runs (``RunFlag``) the teacher did not keep are left out of all of it.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db.models import Count, Max, Q

from classroom.analytics.enough_data import minimum_trials
from classroom.analytics.reliability import SplitHalf, estimate_key, split_half_reliability
from classroom.analytics.reliable_change import ReliableChange, practice_effect, reliable_change
from classroom.gamesite import game_site
from classroom.models import GameSession, RunFlag, SchoolClass, Trial
from classroom.selectors.analytics import (
    _BY_SESSION_KIND,
    SessionFacts,
    SessionMeasures,
    _session_facts,
    _session_measures,
    _tallies,
    correct_rts_by,
    tallies_played,
)
from classroom.selectors.certainty import kept_rts
from classroom.selectors.class_figures import class_figure_kept
from classroom.selectors.run_flags import run_left_out

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from datetime import datetime

    from classroom.analytics.measures import Measures
    from classroom.gamesite.contract import Measure

SPEED = "speed"
RATE = "rate"
# Splits for a page's estimate (the codebook's figures use 500); kept in the cache, so a
# class pays once until its trials change.
PERMUTATIONS = 50
_CACHE_SECONDS = 24 * 3600

# (game, level, kind or None for a whole session, SPEED or RATE)
NormKey = tuple[str, str, str | None, str]


@dataclass(frozen=True)
class Norm:
    """One measure at one game, level and kind of trial, across the class: its split-half
    reliability over the children's latest sessions, the fewest trials (kept RTs for speed,
    the share's trials for a rate) for a reliability of .70, the SD across the children of
    their first sessions, and the practice effect (mean change first to latest, from
    ``MIN_CHILDREN_FOR_PRACTICE`` children)."""

    reliability: SplitHalf | None
    needed: int | None
    spread: float | None
    practice: float | None


@dataclass(frozen=True)
class ChildChange:
    """One child's change of one measure from their first session to their latest at the
    same game and level (``kind`` None: whole sessions)."""

    kind: str | None
    measure: str
    since: datetime
    change: ReliableChange


@dataclass(frozen=True)
class ClassChange:
    norms: dict[NormKey, Norm]
    # Per student: their changes, whole sessions first, speed before rate.
    changes: dict[int, list[ChildChange]]
    # (student, session) of the runs left out: flagged and not kept.
    left_out: frozenset[tuple[int, int]]

    def needed(self, game: str, level: str, kind: str | None, measure: str) -> int | None:
        norm = self.norms.get((game, level, kind, measure))
        return norm.needed if norm else None

    def of_student(self, student_id: int) -> list[ChildChange]:
        return self.changes.get(student_id, [])


def rate_measure(game: str, kind: str | None) -> Measure:
    """A line's rate: a whole session's headline rate, a kind's own rate."""
    site = game_site(game)
    if kind is not None and kind in site.kind_rates:
        return site.measure(site.kind_rates[kind])
    return site.headline_measure


def rate_trials(measures: Measures) -> int:
    """The trials of a rate that does not say what it is a share of: every trial (a kind's
    own rate, such as placements that stayed on board)."""
    return measures.trials


def rate_count(measure: Measure, measures: Measures) -> int:
    """The trials a rate is a share of."""
    return measure.of(measures) if measure.of is not None else rate_trials(measures)


def _speed(measures: Measures) -> float | None:
    return measures.rt.median


def _rate(measure: Measure) -> Callable[[Measures], float | None]:
    def value(measures: Measures) -> float | None:
        found = measure.value(measures)
        return None if found is None else float(found)

    return value


def _median(rts: Sequence[int]) -> float | None:
    return float(statistics.median(rts)) if rts else None


def _share(outcomes: Sequence[bool]) -> float | None:
    return sum(outcomes) / len(outcomes) if outcomes else None


def _outcomes(measure: Measure, measures: Measures) -> list[bool]:
    """A share's trials as right (True) and not, in the counts' proportion: what a random
    split of them halves (the order does not matter to a share)."""
    count = rate_count(measure, measures)
    value = measure.value(measures)
    hits = 0 if value is None else round(float(value) * count)
    return [True] * hits + [False] * (count - hits)


def _split_half(
    cache_key: str, data: Mapping[int, Sequence[object]], score: Callable[..., float | None]
) -> SplitHalf | None:
    found = cache.get(cache_key)
    if isinstance(found, SplitHalf) or found == "none":
        return found if isinstance(found, SplitHalf) else None
    result = split_half_reliability(data, score, permutations=PERMUTATIONS)
    cache.set(cache_key, result if result is not None else "none", _CACHE_SECONDS)
    return result


def _like_latest(series: Sequence[SessionFacts]) -> list[SessionFacts]:
    latest = series[-1]
    return [fact for fact in series if (fact.game, fact.level) == (latest.game, latest.level)]


def _norm(
    key: NormKey,
    firsts: Mapping[int, Measures],
    lasts: Mapping[int, Measures],
    value: Callable[[Measures], float | None],
    trials: Callable[[Measures], Sequence[object]],
    score: Callable[..., float | None],
    school_class: SchoolClass,
    repeated: frozenset[int],
    *,
    in_play: bool,
) -> Norm:
    data = {child: trials(m) for child, m in lasts.items()}
    size = estimate_key(sum(len(found) for found in data.values()), in_play=in_play)
    cache_key = f"snapclass:norm:{school_class.pk}:{':'.join(map(str, key))}:{len(data)}:{size}"
    reliability = _split_half(cache_key, data, score)
    needed = (
        minimum_trials(reliability.estimate, reliability.mean_trials)
        if reliability is not None
        else None
    )
    first_values = [v for m in firsts.values() if (v := value(m)) is not None]
    changes = [
        after - before
        for child, m in lasts.items()
        if child in repeated
        and (before := value(firsts[child])) is not None
        and (after := value(m)) is not None
    ]
    return Norm(
        reliability=reliability,
        needed=needed,
        spread=statistics.stdev(first_values) if len(first_values) >= 2 else None,
        practice=practice_effect(changes),
    )


def class_change(*, school_class: SchoolClass, game: str | None = None) -> ClassChange:
    """The class's norms and every child's reliable change (see the module docstring), kept
    in the cache until the class's trials or flagged runs change (during a lesson, for a
    while: ``class_figures``): two small aggregates find that out (the tallies' sums, the
    flags' counts) before anything is read again."""
    played = tallies_played(tallies=_tallies(school_class=school_class, game=game))
    flags = RunFlag.objects.filter(student__school_class=school_class).aggregate(
        rows=Count("pk"), kept=Count("pk", filter=Q(kept=True)), last=Max("pk")
    )
    key = "snapclass:class-change:{}:{}:{}".format(
        school_class.pk, game or "", ":".join(str(value) for value in flags.values())
    )
    return class_figure_kept(
        key=key,
        played=played,
        school_class=school_class,
        kind=ClassChange,
        make=lambda: _class_change(school_class=school_class, game=game),
    )


def _class_change(*, school_class: SchoolClass, game: str | None) -> ClassChange:
    """Three queries: the runs left out, the class's tallies per session without them, and
    the correct RTs of each child's first and latest session at the level they play now."""
    left_out = frozenset(
        RunFlag.objects.filter(student__school_class=school_class, kept=False).values_list(
            "student_id", "session_id"
        )
    )
    tallies = _tallies(school_class=school_class, game=game).exclude(run_left_out())
    series: dict[int, list[SessionFacts]] = defaultdict(list)
    for fact in _session_facts(tallies).values():
        series[fact.student_id].append(fact)
    ends: dict[int, tuple[SessionFacts, SessionFacts]] = {}
    for student_id, facts in series.items():
        facts.sort(key=lambda fact: (fact.started, fact.session_id))
        like = _like_latest(facts)
        ends[student_id] = (like[0], like[-1])
    sessions = {fact.session_id for pair in ends.values() for fact in pair}
    # A latest session still being played: its reliabilities are measured again by step.
    in_play = (
        GameSession.objects.filter(pk__in=sessions)
        .exclude(status=GameSession.Status.ENDED)
        .exists()
    )
    trials = Trial.objects.filter(student__school_class=school_class, session__in=sessions)
    rts = correct_rts_by(trials=trials, by=_BY_SESSION_KIND)
    measured = {
        student_id: (_session_measures(first, rts), _session_measures(last, rts))
        for student_id, (first, last) in ends.items()
    }
    norms: dict[NormKey, Norm] = {}
    changes: dict[int, list[ChildChange]] = defaultdict(list)
    for (game_slug, level, kind), group in _groups(measured).items():
        rate = rate_measure(game_slug, kind)
        firsts = {child: pair[0] for child, pair in group.items()}
        lasts = {child: pair[1] for child, pair in group.items()}
        repeated = frozenset(
            child
            for child in group
            if measured[child][0].session_id != measured[child][1].session_id
        )
        for name, value, lower_is_better, trials_of, score in (
            (SPEED, _speed, True, lambda m: kept_rts(m.correct_rts), _median),
            (RATE, _rate(rate), False, lambda m, r=rate: _outcomes(r, m), _share),
        ):
            key = (game_slug, level, kind, name)
            norm = _norm(
                key,
                firsts,
                lasts,
                value,
                trials_of,
                score,
                school_class,
                repeated,
                in_play=in_play,
            )
            norms[key] = norm
            _changes_add(changes, group, key, norm, value, lower_is_better, measured, repeated)
    return ClassChange(norms=norms, changes=dict(changes), left_out=left_out)


def _groups(
    measured: Mapping[int, tuple[SessionMeasures, SessionMeasures]],
) -> dict[tuple[str, str, str | None], dict[int, tuple[Measures, Measures]]]:
    """The children's first and latest measures, grouped by game, level and kind (None: a
    session shown whole); a child with one session there has it as both."""
    groups: dict[tuple[str, str, str | None], dict[int, tuple[Measures, Measures]]] = defaultdict(
        dict
    )
    for child, (first, last) in measured.items():
        if not last.by_kind:
            groups[(last.game, last.level, None)][child] = (first.measures, last.measures)
            continue
        for kind, measures in last.by_kind.items():
            before = first.by_kind.get(kind, measures)
            groups[(last.game, last.level, kind)][child] = (before, measures)
    return groups


def _changes_add(
    changes: dict[int, list[ChildChange]],
    group: Mapping[int, tuple[Measures, Measures]],
    key: NormKey,
    norm: Norm,
    value: Callable[[Measures], float | None],
    lower_is_better: bool,
    measured: Mapping[int, tuple[SessionMeasures, SessionMeasures]],
    repeated: frozenset[int],
) -> None:
    if norm.reliability is None or norm.spread is None:
        return
    for child, (first, last) in group.items():
        if child not in repeated:
            continue
        before, after = value(first), value(last)
        if before is None or after is None:
            continue
        found = reliable_change(
            before=before,
            after=after,
            spread=norm.spread,
            reliability=norm.reliability.estimate,
            lower_is_better=lower_is_better,
            practice=norm.practice,
        )
        if found is not None:
            changes[child].append(
                ChildChange(
                    kind=key[2], measure=key[3], since=measured[child][0].started, change=found
                )
            )
