"""Summary rows: each player's measures overall (level "all") and per level played.

The measures come from the analytics selectors, so a download agrees with the report pages.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from django.utils.translation import gettext, gettext_noop, ngettext

from classroom.analytics.measures import CorrectRts, Measures, Tally, measures_from
from classroom.analytics.measures import with_balanced_integration as _with_bis
from classroom.analytics.validity import MAY_RETAKE
from classroom.exports.trial_rows import class_export_trials
from classroom.selectors.analytics import measures_by, session_report
from classroom.selectors.certainty import session_certainty
from classroom.selectors.following import session_following
from classroom.selectors.run_flags import (
    FLAGGED_KEPT,
    FLAGGED_LEFT_OUT,
    class_runs_left_out,
    run_left_out,
    session_run_flags,
)
from classroom.selectors.run_validity import session_run_validity
from classroom.selectors.verdicts import SkillVerdict, class_verdicts
from classroom.selectors.warmups import (
    DecisionTime,
    choice_median_ms,
    decision_time,
    session_warmups,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from classroom.analytics.following import Following
    from classroom.models import GameSession, SchoolClass

K = TypeVar("K")

ALL_LEVELS = "all"
FOLLOWING_OTHERS = gettext_noop("Following others")


@dataclass(frozen=True)
class SummaryRow:
    name: str
    game: str
    level: str  # ALL_LEVELS, or one level the player played
    measures: Measures
    # A session's run flagged as not valid: the reasons in the teacher's words, "; " between.
    flags: str = ""
    # A session's figures with fewer trials than their measured minimum: "Accuracy: needs
    # more play (60 of 99)", "; " between.
    short: str = ""
    # A session's warm-up median (simple RT) and the decision time beside it, in ms.
    simple_rt_ms: int | None = None
    decision_ms: int | None = None
    # The class summary's rows of all levels: the student's year group and verdicts.
    year_group: str = ""
    verdicts: tuple[SkillVerdict, ...] = ()
    # A session's false slaps following others and alone (``GameSite.following_kind``).
    following: Following | None = None


def _no_trials() -> Measures:
    """A student who has not played yet: listed, so the class list is complete, but empty."""
    return measures_from(Tally(), CorrectRts())


def _bis_per_level(per_player: Mapping[K, Mapping[str, Measures]]) -> dict[K, dict[str, Measures]]:
    """Per-level measures with BIS, standardised among the players of that level: comparing a
    beginner's speed with an advanced player's would say more about the level than the child.
    """
    groups: dict[str, dict[K, Measures]] = defaultdict(dict)
    for player, levels in per_player.items():
        for level, measures in levels.items():
            groups[level][player] = measures
    scored: dict[K, dict[str, Measures]] = defaultdict(dict)
    for level, group in groups.items():
        for player, measures in _with_bis(group).items():
            scored[player][level] = measures
    return scored


def _rows(
    players: Iterable[tuple[str, str, Measures, Mapping[str, Measures]]],
    flags: Mapping[str, str] | None = None,
    shorts: Mapping[str, str] | None = None,
    decisions: Mapping[str, DecisionTime] | None = None,
    following: Mapping[str, Following] | None = None,
) -> list[SummaryRow]:
    rows: list[SummaryRow] = []
    for name, game, overall, levels in players:
        decision = (decisions or {}).get(name)
        rows.append(
            SummaryRow(
                name=name,
                game=game,
                level=ALL_LEVELS,
                measures=overall,
                flags=(flags or {}).get(name, ""),
                short=(shorts or {}).get(name, ""),
                simple_rt_ms=decision.simple_ms if decision else None,
                decision_ms=decision.decision_ms if decision else None,
                following=(following or {}).get(name),
            )
        )
        rows.extend(
            SummaryRow(name=name, game=game, level=level, measures=levels[level])
            for level in sorted(levels)
        )
    return rows


def session_summary_rows(*, session: GameSession) -> list[SummaryRow]:
    """One block per seat (student or guest) that played, in name order."""
    reports = session_report(session=session)
    levels = _bis_per_level({report.seat.pk: report.by_level for report in reports})
    validity = session_run_validity(session=session)
    warmups = session_warmups(session=session)
    decisions = {
        report.seat.name: decision_time(
            warmup=warmup,
            choice_ms=choice_median_ms(game=session.game, measures=report.overall),
        )
        for report in reports
        if (warmup := warmups.get(report.seat.pk)) is not None
    }
    recorded = session_run_flags(session=session)
    flags = {
        report.seat.name: "; ".join(
            [
                *map(gettext, found.reasons()),
                gettext(MAY_RETAKE),
                *_run_state(recorded, report.seat.pk),
            ]
        )
        for report in reports
        if (found := validity.get(report.seat.pk)) is not None and not found.valid
    }
    sure = session_certainty(session=session)
    shorts = {
        report.seat.name: "; ".join(
            f"{c.measure.label}: {gettext(short[0]) % short[1]}"
            for c in sure.get(report.seat.pk, [])
            if (short := c.enough.message()) is not None
        )
        for report in reports
    }
    by_seat = session_following(session=session)
    following = {
        report.seat.name: follows
        for report in reports
        if (follows := by_seat.get(report.seat.pk)) is not None
    }
    for name, follows in following.items():
        if (short := follows.enough.message()) is not None:
            line = f"{gettext(FOLLOWING_OTHERS)}: {gettext(short[0]) % short[1]}"
            shorts[name] = f"{shorts[name]}; {line}" if shorts.get(name) else line
    return _rows(
        (
            (report.seat.name, session.game, report.overall, levels.get(report.seat.pk, {}))
            for report in reports
        ),
        flags,
        shorts,
        decisions,
        following,
    )


def _run_state(recorded: Mapping[int, bool], seat_id: int) -> list[str]:
    """Whether a recorded flagged run counts; nothing while its session has not ended."""
    if seat_id not in recorded:
        return []
    return [gettext(FLAGGED_KEPT if recorded[seat_id] else FLAGGED_LEFT_OUT)]


def class_summary_rows(*, school_class: SchoolClass) -> list[SummaryRow]:
    """One block per student on the class list and game they played, over all their sessions,
    in name order (a student who has not played yet gets an empty row per game of the class).
    Games are never pooled: each has its own measures. Runs flagged and not kept are left out,
    as trends leave them out; the level-"all" row says how many."""
    trials = class_export_trials(school_class=school_class).exclude(run_left_out())
    left_out = class_runs_left_out(school_class=school_class)
    overall: dict[tuple[int, str], Measures] = {}
    per_level: dict[tuple[int, str], dict[str, Measures]] = defaultdict(dict)
    for game in sorted(set(trials.values_list("game", flat=True))):
        of_game = trials.filter(game=game)
        scored = _with_bis(
            {key[0]: m for key, m in measures_by(trials=of_game, by=["student"]).items()}
        )
        for student_id, measures in scored.items():
            overall[student_id, game] = measures
        for (student_id, level), measures in measures_by(
            trials=of_game, by=["student", "level"]
        ).items():
            per_level[student_id, game][level] = measures
    levels = _bis_per_level(per_level)
    games = sorted({game for _student, game in overall})
    blocks: list[tuple[str, str, Measures, Mapping[str, Measures]]] = []
    left_out_of_block: list[int] = []
    for student in school_class.students.order_by("display_name", "pk"):
        # A game whose every run was left out is listed all the same, empty, with its count.
        played = sorted(
            {game for student_id, game in [*overall, *left_out] if student_id == student.pk}
        )
        if not played:  # listed under each game of the class, with nothing yet
            blocks.extend((student.display_name, game, _no_trials(), {}) for game in games)
            left_out_of_block.extend(0 for _game in games)
        for game in played:
            blocks.append(
                (
                    student.display_name,
                    game,
                    overall.get((student.pk, game)) or _no_trials(),
                    levels.get((student.pk, game), {}),
                )
            )
            left_out_of_block.append(left_out[student.pk, game])
    return _with_verdicts(
        _with_runs_left_out(_rows(blocks), left_out_of_block), school_class=school_class
    )


def _with_runs_left_out(rows: list[SummaryRow], counts: Sequence[int]) -> list[SummaryRow]:
    """Each block's row of all levels (one per count, in order) with how many flagged runs,
    not kept, its figures leave out."""
    blocks = iter(counts)
    marked = []
    for row in rows:
        if row.level == ALL_LEVELS and (count := next(blocks)):
            text = ngettext(
                "%(count)s flagged run left out of these figures",
                "%(count)s flagged runs left out of these figures",
                count,
            ) % {"count": count}
            row = replace(row, flags=text)
        marked.append(row)
    return marked


def _with_verdicts(rows: list[SummaryRow], *, school_class: SchoolClass) -> list[SummaryRow]:
    """The class summary's rows of all levels with the student's year group and verdicts."""
    found = class_verdicts(school_class=school_class)
    students = {s.display_name: s for s in school_class.students.all()}
    done = []
    for row in rows:
        student = students.get(row.name)
        if student is None or row.level != ALL_LEVELS:
            done.append(row)
            continue
        verdicts = tuple(v for v in found.get(student.pk, []) if v.game == row.game)
        done.append(replace(row, year_group=student.year_group, verdicts=verdicts))
    return done
