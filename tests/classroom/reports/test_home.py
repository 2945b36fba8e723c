"""The report for home's pages: what a child played over the period, growth against their
own earlier play in plain words, "we need more play" when the data are thin, and nothing of
any other child or of the class."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.template.loader import render_to_string
from django.utils import timezone, translation

from classroom.analytics.reliable_change import (
    DECLINED,
    IMPROVED,
    NO_RELIABLE_CHANGE,
    ReliableChange,
)
from classroom.models import Trial
from classroom.reports.home import (
    DIPPED,
    IMPROVING,
    MIXED,
    MORE_PLAY,
    NOT_SURE,
    STEADY,
    home_report,
    home_reports_context,
)
from classroom.selectors.class_change import (
    RATE,
    SPEED,
    ChildChange,
    ClassChange,
    Norm,
    class_change,
)
from classroom.services.exports import HOME_TEMPLATE
from tests.classroom.trial_rows import played_session, trial_add
from tests.seeding.changes import changed_class_seed

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from classroom.models import GameSession, SchoolClass, Student

pytestmark = pytest.mark.django_db


def _student(school_class: SchoolClass, name: str) -> Student:
    return school_class.students.get(display_name=name)


def _play(
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
    student: Student,
    *,
    at: datetime,
    rt: int = 500,
    flips: int = 12,
    level: str = "beginner",
) -> GameSession:
    """A session of ``flips`` Palm Strike trials, a flip a second from ``at``."""
    session = make_session(school_class=school_class)
    seats = played_session(session=session, students=[student], started=at)
    for flip in range(flips):
        target = flip % 2 == 0
        trial_add(
            seat=seats[student.pk], target=target, responded=target, rt_ms=rt + flip,
            level=level, at=at + timedelta(seconds=flip), flip=flip + 1,
        )  # fmt: skip
    return session


def _change(
    student: Student, *verdicts: tuple[str, str], needed: int | None = None
) -> Callable[[str], ClassChange]:
    """A class's yardstick with ``student``'s verdicts ((measure, verdict) pairs) and, if
    given, the trials every measure needs."""
    since = timezone.now() - timedelta(days=20)
    found = [
        ChildChange(
            kind=None,
            measure=measure,
            since=since,
            change=ReliableChange(
                change=-50.0,
                practice=0.0,
                standard_error_difference=10.0,
                index=-5.0,
                verdict=verdict,
            ),
        )
        for measure, verdict in verdicts
    ]
    norm = Norm(reliability=None, needed=needed, spread=None, practice=None)
    norms = {("palm_strike", "beginner", None, m): norm for m in (SPEED, RATE)}
    change = ClassChange(norms=norms, changes={student.pk: found}, left_out=frozenset())
    return lambda _game: change


@pytest.fixture
def twice(make_session: Callable[..., GameSession], school_class: SchoolClass) -> Student:
    """Ava played two sessions at one level, two weeks apart, both in the last 4 weeks."""
    ava = _student(school_class, "Ava")
    now = timezone.now()
    _play(make_session, school_class, ava, at=now - timedelta(days=15), rt=600)
    _play(make_session, school_class, ava, at=now - timedelta(days=1), rt=450)
    return ava


def test_no_play_in_the_period_says_we_need_more_play(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    _play(make_session, school_class, ava, at=timezone.now() - timedelta(days=40))
    recent = home_report(student=ava, period="4w")
    assert recent.games == []
    assert recent.opening == (
        "Ava has not played in this period yet. We need more play before we can say more."
    )
    # The 12 weeks hold that session: the game, its level, one session of about a minute.
    longer = home_report(student=ava, period="12w")
    (game,) = longer.games
    assert (game.title, game.levels, game.sessions, game.minutes) == (
        "Palm Strike", ["Beginner"], 1, 1,
    )  # fmt: skip
    assert game.exercises.startswith("Looking closely")
    assert longer.opening == "Ava played 1 session, about 1 minute in all."


def test_one_session_at_the_level_needs_more_play(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    _play(make_session, school_class, ava, at=timezone.now() - timedelta(days=2))
    (game,) = home_report(student=ava, period="4w").games
    assert game.state == MORE_PLAY
    assert game.sentence == "We need more play to see how Ava is growing in this game."


def test_fewer_trials_than_the_measures_need_is_more_play(twice: Student) -> None:
    # A verdict exists, but the latest session has 12 trials of the 200 each measure needs.
    changes = _change(twice, (SPEED, IMPROVED), needed=200)
    (game,) = home_report(student=twice, period="4w", changes=changes).games
    assert game.state == MORE_PLAY
    assert "We need more play" in game.sentence


@pytest.mark.parametrize(
    ("verdicts", "state", "words"),
    [
        (
            [(SPEED, IMPROVED), (RATE, NO_RELIABLE_CHANGE)],
            IMPROVING,
            "Ava now answers more quickly than in their own first games at this level (since ",
        ),
        (
            [(SPEED, NO_RELIABLE_CHANGE), (RATE, IMPROVED)],
            IMPROVING,
            "Ava now gets more right than in their own first games at this level (since ",
        ),
        (
            [(SPEED, IMPROVED), (RATE, IMPROVED)],
            IMPROVING,
            "Ava now answers more quickly and gets more right than in their own first games",
        ),
        (
            [(SPEED, NO_RELIABLE_CHANGE), (RATE, NO_RELIABLE_CHANGE)],
            STEADY,
            "Ava is playing steadily, about as well as in their own first games at this level",
        ),
        ([], NOT_SURE, "It is too early to say how Ava is changing in this game"),
        (
            [(SPEED, IMPROVED), (RATE, DECLINED)],
            MIXED,
            "Ava now answers more quickly than at first, with a few more slips",
        ),
        (
            [(SPEED, DECLINED), (RATE, NO_RELIABLE_CHANGE)],
            DIPPED,
            "Ava has had a few harder games lately than at the start of this level",
        ),
    ],
)
def test_growth_is_told_against_the_childs_own_first_games(
    twice: Student, verdicts: list[tuple[str, str]], state: str, words: str
) -> None:
    (game,) = home_report(student=twice, period="4w", changes=_change(twice, *verdicts)).games
    assert game.state == state
    assert game.sentence.startswith(words)
    assert (game.sessions, game.levels) == (2, ["Beginner"])


def test_the_growth_words_in_traditional_chinese(twice: Student) -> None:
    with translation.override("zh-hant"):
        report = home_report(student=twice, period="4w", changes=_change(twice, (SPEED, IMPROVED)))
    (game,) = report.games
    assert "Ava" in game.sentence
    assert re.search(r"[\u4e00-\u9fff]", game.sentence)
    assert re.search(r"[\u4e00-\u9fff]", report.opening)
    assert re.search(r"[\u4e00-\u9fff]", game.exercises)


def test_the_real_reliable_change_of_a_child_who_got_faster_reads_as_improving(
    teacher: Any,
) -> None:
    found = changed_class_seed(teacher=teacher, seed=2)
    report = home_report(student=found.changed, period="all")
    (game,) = report.games
    assert game.state == IMPROVING, game
    assert "answers more quickly" in game.sentence
    # Every other child reads as their own verdicts say (the demo class learns as it plays).
    change = class_change(school_class=found.school_class, game="palm_strike")
    for child in found.school_class.students.exclude(pk=found.changed.pk):
        verdicts = {c.change.verdict for c in change.of_student(child.pk)}
        (played,) = home_report(student=child, period="all").games
        if played.state == IMPROVING:
            assert IMPROVED in verdicts
            assert DECLINED not in verdicts
        if played.state == STEADY:
            assert verdicts == {NO_RELIABLE_CHANGE}


def test_a_childs_page_has_no_other_child_and_no_class_figure(
    make_session: Callable[..., GameSession], school_class: SchoolClass, twice: Student
) -> None:
    # Ben played too, much faster: nothing of him may reach Ava's page.
    ben = _student(school_class, "Ben")
    now = timezone.now()
    for days in (12, 3):
        _play(make_session, school_class, ben, at=now - timedelta(days=days), rt=250, flips=30)
    context = home_reports_context(school_class=school_class, students=[twice], period="4w")
    page = render_to_string(HOME_TEMPLATE, context)
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.DOTALL)
    for other in school_class.students.exclude(pk=twice.pk):
        assert other.display_name not in text
    for word in ("average", "rank", "percentile", "median", "ms", "class mean", "RT", "RCI"):
        assert not re.search(rf"\b{word}\b", text, flags=re.IGNORECASE), word
    assert "%" not in text
    # The only numbers: Ava's own sessions and minutes, and the dates of the period.
    (report,) = context["reports"]
    allowed = {str(report.sessions), str(report.minutes), "4"}
    dates = {
        str(part) for day in (report.since, context["printed_on"]) for part in (day.day, day.year)
    }
    numbers = set(re.findall(r"\d+", text.replace(school_class.name, "")))
    assert numbers <= allowed | dates, numbers - allowed - dates


def test_a_game_played_with_extra_time_says_so_in_both_languages(
    school_class: SchoolClass, twice: Student
) -> None:
    Trial.objects.filter(student=twice, created_at__gte=timezone.now() - timedelta(days=5)).update(
        data={"extra_time": "x1.5"}
    )
    for language, words in (
        ("en", "Played with extra time ×1.5, as arranged at school."),
        ("zh-hant", "依學校安排，以延長時間 ×1.5 進行。"),
    ):
        with translation.override(language):
            context = home_reports_context(school_class=school_class, students=[twice], period="4w")
            page = render_to_string(HOME_TEMPLATE, context)
        assert words in page, language
    # Played without it: nothing said.
    Trial.objects.filter(student=twice).update(data={})
    context = home_reports_context(school_class=school_class, students=[twice], period="4w")
    assert "as arranged at school" not in render_to_string(HOME_TEMPLATE, context)
