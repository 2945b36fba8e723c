"""Known truth for the verdicts: scripted children of set skill play Palm Strike through the
real table host (``test_known_truth``'s scripted tablets), and each child's verdict on speed
and on accuracy must agree with where their set skill truly places them.

Two classes of the same year group play, 28 children each: in the first, 24 ordinary
children of graded skill, two slow and error-prone ones and two quick and accurate ones; in
the second, 28 ordinary children. A child's *true* percentile follows from the set skills
(the share of the other children of the reference whose set skill is worse). Every band a
verdict gives must contain the true percentile; the slow children "may need support", the
quick ones are "on track"; a child with a handful of answers and a child who played with
extra time are "not sure yet".
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from django.utils import timezone

from classroom.analytics.verdicts import (
    ACCOMMODATED,
    KEEP_AN_EYE,
    MAY_NEED_SUPPORT,
    MIN_NORM_CHILDREN,
    NEEDS_MORE_PLAY,
    NOT_SURE,
    ON_TRACK,
    SUPPORT_BELOW,
    WATCH_BELOW,
)
from classroom.models import GameSession, Student, Trial
from classroom.selectors import verdicts as verdict_reads
from classroom.selectors.class_change import RATE, SPEED
from classroom.selectors.verdicts import (
    CLASS,
    NORMS_FRESH_S,
    SCHOOL,
    SkillVerdict,
    class_verdicts,
)
from classroom.services.classes import class_create
from classroom.services.sessions import session_create
from tests.classroom.gamesite.test_known_truth import Skill, _palm_decide, _play, _stored
from tests.classroom.trial_rows import played_session

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

SETTINGS = {"flip_pacing": "auto", "auto_flip_s": 3.0, "response_window_s": 2.5}
SEATS = 4
GAMES_PER_TABLE = 6


def _ordinary(index: int) -> Skill:
    """The ordinary child of skill ``index`` (0 the weakest of them): quicker and more
    accurate together as the index grows, so one order ranks them on both skills."""
    return Skill(
        p_respond_signal=0.78 + 0.002 * index,
        p_respond_noise=0.14 - 0.001 * index,
        rt_mean_ms=760 - 3 * index,
        rt_sd_ms=110,
    )


SLOW = Skill(p_respond_signal=0.5, p_respond_noise=0.35, rt_mean_ms=1150, rt_sd_ms=200)
QUICK = Skill(p_respond_signal=0.97, p_respond_noise=0.03, rt_mean_ms=430, rt_sd_ms=60)


def _rank(skill: Skill) -> float:
    """A number that orders children by their set skill (both skills at once)."""
    return -skill.rt_mean_ms


def _seat_class(
    teacher: User, name: str, skills: Sequence[Skill]
) -> tuple[SchoolClass, list[Student]]:
    """A class whose children played the scripted games, a table of four at a time, all in
    one session; children in the order of ``skills``."""
    names = [f"{name}{i:02d}" for i in range(len(skills))]
    school_class = class_create(teacher=teacher, name=name, student_names=names)
    students = list(school_class.students.order_by("display_name"))
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=school_class,
        players_per_table=SEATS,
        settings=SETTINGS,
    )
    seats = played_session(session=session, students=students, game="palm_strike")
    for table in range(0, len(skills), SEATS):
        group = list(skills[table : table + SEATS])
        played = _play(
            "palm_strike", SETTINGS, group, _palm_decide, tables=GAMES_PER_TABLE, max_ms=600_000
        )
        _stored(session, [seats[s.pk] for s in students[table : table + SEATS]], played)
    GameSession.objects.filter(pk=session.pk).update(ended_at=timezone.now())
    return school_class, students


def _true_percentile(me: Skill, others: Sequence[Skill]) -> float:
    mine = _rank(me)
    worse = sum(_rank(other) < mine for other in others)
    ties = sum(_rank(other) == mine for other in others)
    return (worse + ties / 2) / len(others)


def _band_holds(band: str, truth: float) -> bool:
    return {
        MAY_NEED_SUPPORT: truth < SUPPORT_BELOW,
        KEEP_AN_EYE: SUPPORT_BELOW <= truth < WATCH_BELOW,
        ON_TRACK: truth >= WATCH_BELOW,
    }[band]


def _by_skill(found: Sequence[SkillVerdict]) -> dict[str, SkillVerdict]:
    return {v.skill: v for v in found}


def _quick_on_track(found: dict[int, list[SkillVerdict]], quick: Sequence[Student]) -> None:
    """The quick children are on track for speed; their accuracy (about 100 answers, near the
    best ordinary children's) is on track or not sure yet, never below."""
    for student in quick:
        verdicts = _by_skill(found[student.pk])
        assert verdicts[SPEED].verdict.band == ON_TRACK
        assert verdicts[RATE].verdict.band in {ON_TRACK, NOT_SURE}


def test_verdicts_place_simulated_children_where_their_set_skill_is(
    teacher: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = [*(_ordinary(2 * i) for i in range(24)), SLOW, SLOW, QUICK, QUICK]
    second = [_ordinary(2 * i + 1) for i in range(28)]
    school_class, students = _seat_class(teacher, "Otters", first)
    _other_class, others = _seat_class(teacher, "Herons", second)
    skill_of = {s.pk: k for s, k in zip([*students, *others], [*first, *second], strict=True)}

    # No year group yet: the class is each child's reference, and the page will say so.
    found = class_verdicts(school_class=school_class)
    assert set(found) == {s.pk for s in students}
    checked, wrong, banded = 0, 0, 0
    for student in students:
        verdicts = _by_skill(found[student.pk])
        assert set(verdicts) == {SPEED, RATE}
        truth = _true_percentile(
            skill_of[student.pk], [first[i] for i, s in enumerate(students) if s != student]
        )
        for skill in (SPEED, RATE):
            verdict = verdicts[skill]
            assert verdict.reference == CLASS
            assert verdict.score is not None
            assert verdict.score.count >= 25
            checked += 1
            if verdict.verdict.band != NOT_SURE:
                banded += 1
                wrong += not _band_holds(verdict.verdict.band, truth)
    slow, quick = students[24:26], students[26:28]
    for student in slow:
        assert {v.verdict.band for v in found[student.pk]} == {MAY_NEED_SUPPORT}
    _quick_on_track(found, quick)
    print(f"figures: verdicts class reference, {banded} of {checked} banded, {wrong} wrong")
    assert wrong == 0

    # Both classes in year 3: 55 other year-3 children, so the school's norms are used.
    Student.objects.filter(pk__in=[s.pk for s in [*students, *others]]).update(year_group="3")
    school = class_verdicts(school_class=school_class)
    everyone = [*first, *second]
    pupils = [*students, *others]
    checked, wrong, banded = 0, 0, 0
    for student in students:
        truth = _true_percentile(
            skill_of[student.pk], [everyone[i] for i, s in enumerate(pupils) if s != student]
        )
        for verdict in school[student.pk]:
            assert verdict.reference == SCHOOL
            assert verdict.school_children >= MIN_NORM_CHILDREN
            checked += 1
            if verdict.verdict.band != NOT_SURE:
                banded += 1
                wrong += not _band_holds(verdict.verdict.band, truth)
    for student in slow:
        assert {v.verdict.band for v in school[student.pk]} == {MAY_NEED_SUPPORT}
    _quick_on_track(school, quick)
    print(f"figures: verdicts school norms, {banded} of {checked} banded, {wrong} wrong")
    assert wrong == 0

    # Thin data: a child who played 8 flips is "not sure yet", needing more play.
    thin = students[0]
    keep = list(
        Trial.objects.filter(student=thin).order_by("log_seq").values_list("pk", flat=True)[:8]
    )
    Trial.objects.filter(student=thin).exclude(pk__in=keep).delete()
    # Extra time: a child whose run carries the accommodation is compared with nobody, and
    # leaves the norms.
    extra = students[26]
    for trial in Trial.objects.filter(student=extra):
        trial.data = {**trial.data, "extra_time": 1.5}
        trial.save(update_fields=["data"])
    # Changed trials reach the school's pool once it is read again, within NORMS_FRESH_S.
    monkeypatch.setattr(verdict_reads, "_clock", lambda: time.time() + NORMS_FRESH_S)
    later = class_verdicts(school_class=school_class)
    assert {(v.verdict.band, v.verdict.why) for v in later[thin.pk]} == {
        (NOT_SURE, NEEDS_MORE_PLAY)
    }
    assert {(v.verdict.band, v.verdict.why) for v in later[extra.pk]} == {(NOT_SURE, ACCOMMODATED)}
    # Neither counts in anyone's norms any more: 55 others less the two of them.
    other = _by_skill(later[students[5].pk])[SPEED]
    assert other.verdict.percentile is not None
    assert other.verdict.percentile.reference == 53


def test_a_class_too_small_to_compare_with_is_not_sure_yet(
    teacher: User, school_class: SchoolClass
) -> None:
    # The fixture's class has five children; three of them play: two others to compare with.
    students = list(school_class.students.order_by("display_name"))[:3]
    skills = [_ordinary(10), SLOW, QUICK]
    session = session_create(
        teacher=teacher, game="palm_strike", school_class=school_class, players_per_table=3,
        settings=SETTINGS,
    )  # fmt: skip
    seats = played_session(session=session, students=students, game="palm_strike")
    played = _play("palm_strike", SETTINGS, skills, _palm_decide, tables=1, max_ms=600_000)
    _stored(session, [seats[s.pk] for s in students], played)
    found = class_verdicts(school_class=school_class)
    for student in students:
        assert {v.verdict.band for v in found[student.pk]} == {NOT_SURE}
        assert {v.verdict.why for v in found[student.pk]} <= {"few_children", NEEDS_MORE_PLAY}
