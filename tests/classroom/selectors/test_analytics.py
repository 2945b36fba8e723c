"""Analytics selectors: database counts and measures agree with a hand calculation."""

from __future__ import annotations

import random
import re
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.db.models import Min
from django.db.models.functions import TruncDate
from django.utils import timezone

from classroom.analytics.live_trend import (
    FEW,
    IMPROVING,
    STEADY,
    fewest_answers,
    pooled_spread,
)
from classroom.analytics.signal import SignalCounts, dprime, signal_of
from classroom.analytics.speed import rt_summary
from classroom.models import Trial
from classroom.selectors import analytics
from classroom.selectors.analytics import ROLLING_RESPONSES
from classroom.services.classes import class_create
from tests.classroom.trial_rows import (
    played_session,
    riff_raff_played,
    trial_add,
    worked_example,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db


def test_the_worked_example_matches_the_hand_calculation(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seats = played_session(session=class_session, students=[ava])
    worked_example(seats[ava.pk])

    (row,) = analytics.session_report(session=class_session)
    m = row.overall
    assert (m.signal.hits, m.signal.misses) == (8, 2)
    assert (m.signal.false_alarms, m.signal.correct_rejections) == (2, 8)
    assert m.accuracy == pytest.approx(0.8)
    assert m.dprime == pytest.approx(1.4957, abs=1e-3)
    assert m.criterion == pytest.approx(0.0, abs=1e-9)
    assert m.rt.median == pytest.approx(575)
    assert m.rt.mean == pytest.approx(575)
    assert m.inverse_efficiency_ms == pytest.approx(718.75)
    assert m.interference_ms == pytest.approx(200)
    # The two misses were incongruent cards: 2 errors in 6 incongruent matches, 0 in 4.
    assert m.error_interference == pytest.approx(2 / 6)
    assert list(row.by_level) == ["beginner"]


def test_implausible_and_anticipated_rts_never_enter_a_measure(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    seat = played_session(session=class_session, students=[ava])[ava.pk]
    for rt in (500, 600, 700):
        trial_add(seat=seat, target=True, responded=True, rt_ms=rt)
    trial_add(seat=seat, target=True, responded=True, rt_ms=90)  # an anticipation
    trial_add(seat=seat, target=True, responded=True, rt_ms=40, plausible=False)

    (row,) = analytics.session_report(session=class_session)
    assert row.overall.trials == 5
    assert row.overall.rt.median == 600
    assert row.overall.rt.anticipations == 1
    assert row.overall.rt.n == 3


def test_the_dashboard_tiles_equal_the_report_and_flag_who_struggles(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben, chen = school_class.students.filter(display_name__in=["Ava", "Ben", "Chen"])
    seats = played_session(session=class_session, students=[ava, ben, chen])
    worked_example(seats[ava.pk])
    worked_example(seats[ben.pk])
    for _ in range(10):  # Chen slaps at everything: 50 % right, many false alarms
        trial_add(seat=seats[chen.pk], target=True, responded=True, rt_ms=450)
        trial_add(seat=seats[chen.pk], target=False, responded=True, rt_ms=450)

    dashboard = analytics.session_dashboard(session=class_session)
    report = {row.seat.pk: row.overall for row in analytics.session_report(session=class_session)}
    by_name = {tile.seat.name: tile for tile in dashboard.tiles}
    for tile in dashboard.tiles:
        assert tile.measures.accuracy == report[tile.seat.pk].accuracy
        assert tile.measures.signal == report[tile.seat.pk].signal
    assert by_name["Chen"].many_false_alarms
    assert by_name["Chen"].low_accuracy  # 50 % against a class median of 80 %
    assert not by_name["Ava"].struggling
    # Ava's last ten correct RTs: 400..750 ms (8 hits); rolling median 575 ms.
    assert by_name["Ava"].rolling_median_ms == 575
    assert sorted(dashboard.class_rts) == sorted([400 + 50 * i for i in range(8)] * 2 + [450] * 10)


def test_a_students_sessions_come_in_time_order_with_their_level(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    weeks_ago = timezone.now() - timedelta(weeks=3)
    early = make_session(school_class=school_class)
    late = make_session(school_class=school_class)
    early_seat = played_session(session=early, students=[ava], started=weeks_ago)[ava.pk]
    late_seat = played_session(session=late, students=[ava])[ava.pk]
    worked_example(early_seat, at=weeks_ago)
    for rt in (400, 420, 440):
        trial_add(seat=late_seat, target=True, responded=True, rt_ms=rt, level="advanced")

    points = analytics.student_sessions(student=ava)
    assert [point.session_id for point in points] == [early.pk, late.pk]
    assert [point.level for point in points] == ["beginner", "advanced"]
    assert points[0].measures.rt.median == 575
    assert points[1].measures.rt.median == 420
    overview = {
        row.student.display_name: row for row in analytics.class_overview(school_class=school_class)
    }
    assert overview["Ava"].latest is not None
    assert overview["Ava"].latest.session_id == late.pk
    assert overview["Ava"].latest.measures.rt.median == 420
    assert [fact.mean_correct_rt_ms for fact in overview["Ava"].sessions] == [575, 420]
    assert [fact.accuracy for fact in overview["Ava"].sessions] == [0.8, 1.0]
    assert overview["Ben"].sessions == []
    assert Trial.objects.filter(student=ava).count() == 23


def test_a_days_sessions_are_one_point_per_game_and_level(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    # Ten sessions on one morning at the beginner level and one at the advanced level, then
    # one session the next day: three points, the ten pooled into one.
    ava = school_class.students.get(display_name="Ava")
    morning = timezone.localtime().replace(hour=9, minute=0) - timedelta(days=2)
    for number in range(10):
        at = morning + timedelta(minutes=10 * number)
        seat = played_session(
            session=make_session(school_class=school_class), students=[ava], started=at
        )[ava.pk]
        for flip in range(1, 3):
            trial_add(
                seat=seat, target=True, responded=True, rt_ms=500 + 10 * number, at=at, flip=flip
            )
    other = morning + timedelta(hours=3)
    seat = played_session(
        session=make_session(school_class=school_class), students=[ava], started=other
    )[ava.pk]
    trial_add(seat=seat, target=True, responded=True, rt_ms=800, at=other, level="advanced")
    later = morning + timedelta(days=1)
    seat = played_session(
        session=make_session(school_class=school_class), students=[ava], started=later
    )[ava.pk]
    trial_add(seat=seat, target=True, responded=False, at=later)

    assert len(analytics.student_sessions(student=ava)) == 12
    days = analytics.student_days(student=ava)
    assert [(timezone.localtime(d.started).date(), d.level) for d in days] == [
        (morning.date(), "beginner"),
        (morning.date(), "advanced"),
        (later.date(), "beginner"),
    ]
    assert [d.measures.trials for d in days] == [20, 1, 1]
    assert days[0].measures.rt.median == 545  # of all twenty RTs, 500…590 twice each
    assert [d.measures.accuracy for d in days] == [1.0, 1.0, 0.0]


def test_tiles_updated_trial_by_trial_end_equal_to_a_recount_of_the_rows(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    """The live dashboard after every trial; at the end, the same numbers recomputed straight
    from the stored rows with the pure formulas (no SQL aggregation involved)."""
    students = list(school_class.students.all()[:3])
    seats = played_session(session=class_session, students=students)
    rng = random.Random(7)
    added = dict.fromkeys((seat.pk for seat in seats.values()), 0)
    for flip in range(1, 61):
        seat = rng.choice(list(seats.values()))
        target = rng.random() < 0.4
        responded = rng.random() < (0.85 if target else 0.15)
        trial_add(
            seat=seat,
            target=target,
            responded=responded,
            rt_ms=rng.randint(150, 1100),
            congruent=rng.random() < 0.3,
            plausible=rng.random() > 0.05,
            flip=flip,
        )
        added[seat.pk] += 1
        tiles = {
            tile.seat.pk: tile for tile in analytics.session_dashboard(session=class_session).tiles
        }
        assert {pk: tile.measures.trials for pk, tile in tiles.items()} == {
            pk: count for pk, count in added.items() if count
        }

    for seat_id, tile in tiles.items():
        rows = list(Trial.objects.filter(seat_id=seat_id).order_by("pk"))
        outcomes = [
            signal_of(signal_present=bool(r.target), responded=bool(r.responded)) for r in rows
        ]
        counts = SignalCounts.tally(outcomes)
        correct_rts = [
            r.rt_ms
            for r in rows
            if r.correct and r.responded and r.plausible and r.rt_ms is not None
        ]
        summary = rt_summary(correct_rts)
        accuracy = sum(1 for r in rows if r.correct) / len(rows)
        assert tile.measures.signal == counts
        assert tile.measures.accuracy == pytest.approx(accuracy)
        assert tile.measures.dprime == pytest.approx(
            dprime(counts.hits, counts.misses, counts.false_alarms, counts.correct_rejections)
        )
        assert tile.measures.rt.median == summary.median
        assert tile.measures.rt.trimmed_mean == pytest.approx(summary.trimmed_mean)
        assert tile.rolling_median_ms == rt_summary(correct_rts[-ROLLING_RESPONSES:]).median


def test_each_kind_of_trial_is_also_reported_on_its_own(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    # Riff Raff: two catches (one caught at 600 ms) and two placements (one stayed on board).
    ava = school_class.students.get(display_name="Ava")
    seat = played_session(session=class_session, students=[ava])[ava.pk]
    caught = trial_add(seat=seat, target=True, responded=True, rt_ms=600, congruent=None)
    missed = trial_add(seat=seat, target=True, responded=False, congruent=None)
    Trial.objects.filter(pk__in=[caught.pk, missed.pk]).update(kind="riff_raff.catch")
    stayed = trial_add(seat=seat, target=True, responded=True, rt_ms=None, congruent=None)
    fell = trial_add(seat=seat, target=True, responded=True, rt_ms=None, congruent=None)
    Trial.objects.filter(pk__in=[stayed.pk, fell.pk]).update(
        kind="riff_raff.placement", target=None, rt_ms=None
    )
    Trial.objects.filter(pk=fell.pk).update(correct=False)

    (row,) = analytics.session_report(session=class_session)
    assert list(row.by_kind) == ["riff_raff.catch", "riff_raff.placement"]
    catches, placements = row.by_kind["riff_raff.catch"], row.by_kind["riff_raff.placement"]
    assert (catches.trials, catches.accuracy, catches.rt.median) == (2, 0.5, 600)
    assert (placements.trials, placements.accuracy, placements.rt.median) == (2, 0.5, None)
    assert placements.signal.trials == 0  # not yes/no decisions: no d'
    assert placements.dprime is None
    assert row.overall.trials == 4


CATCH, PLACEMENT = "riff_raff.catch", "riff_raff.placement"


def test_a_riff_raff_session_is_measured_kind_by_kind_on_the_progress_page(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    weeks_ago = timezone.now() - timedelta(weeks=3)
    palm_strike, riff_raff = (
        make_session(school_class=school_class),
        make_session(school_class=school_class),
    )
    palm_strike_seat = played_session(session=palm_strike, students=[ava], started=weeks_ago)
    worked_example(palm_strike_seat[ava.pk], at=weeks_ago)
    seat = played_session(session=riff_raff, students=[ava], game="riff_raff")[ava.pk]
    # Catches: 3 of 4 caught at 500, 600, 700 ms. Placements: 3 of 5 stayed on board.
    riff_raff_played(seat, catch_rts=[500, 600, None, 700], stayed=[True, True, True, False, False])

    early, late = analytics.student_sessions(student=ava)
    assert early.by_kind == {}  # Palm Strike: one kind a session, shown whole as before
    assert early.measures.accuracy == pytest.approx(0.8)
    assert list(late.by_kind) == [CATCH, PLACEMENT]
    catches, placements = late.by_kind[CATCH], late.by_kind[PLACEMENT]
    assert (catches.trials, catches.accuracy, catches.rt.median) == (4, 0.75, 600)
    assert (placements.trials, placements.accuracy, placements.rt.median) == (5, 0.6, None)
    assert placements.dprime is None  # placements are no yes/no decisions
    assert late.measures.trials == 9  # the whole session still counts every trial
    assert late.level == "wave_5"
    assert analytics.student_sessions(student=ava, game="riff_raff") == [late]


def test_a_mixed_game_is_split_even_in_a_session_with_one_kind(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    # No cargo of Ben's ever fell: placements only, never to be read as a session's accuracy.
    ben = school_class.students.get(display_name="Ben")
    seat = played_session(session=class_session, students=[ben], game="riff_raff")[ben.pk]
    riff_raff_played(seat, stayed=[True, True, False, True])

    (point,) = analytics.student_sessions(student=ben)
    assert list(point.by_kind) == [PLACEMENT]
    assert point.by_kind[PLACEMENT].accuracy == pytest.approx(0.75)
    (fact,) = next(
        row.sessions
        for row in analytics.class_overview(school_class=school_class)
        if row.student == ben
    )
    assert list(fact.by_kind) == [PLACEMENT]


def test_the_overview_splits_kinds_and_scores_bis_within_each_kind(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    ava, ben, chen = school_class.students.filter(display_name__in=["Ava", "Ben", "Chen"])
    weeks_ago = timezone.now() - timedelta(weeks=3)
    early, late, palm_strike = (make_session(school_class=school_class) for _ in range(3))
    seats = played_session(session=early, students=[ava], started=weeks_ago, game="riff_raff")
    riff_raff_played(
        seats[ava.pk], catch_rts=[500, 600, None, 700], stayed=[True, False], at=weeks_ago
    )
    seats = played_session(session=late, students=[ava, ben], game="riff_raff")
    riff_raff_played(seats[ava.pk], catch_rts=[400, 450, 500, None], stayed=[True] * 4 + [False])
    riff_raff_played(seats[ben.pk], catch_rts=[700, 800, None, None], stayed=[True, False])
    worked_example(played_session(session=palm_strike, students=[chen])[chen.pk])

    overview = {
        row.student.display_name: row for row in analytics.class_overview(school_class=school_class)
    }
    ava_latest = overview["Ava"].latest
    assert ava_latest is not None
    assert ava_latest.session_id == late.pk
    catches, placements = ava_latest.by_kind[CATCH], ava_latest.by_kind[PLACEMENT]
    assert (catches.accuracy, catches.rt.median) == (0.75, 450)
    assert (placements.accuracy, placements.rt.median) == (0.8, None)
    # BIS of catches against catches only: Ava 75 % at a mean of 450 ms, Ben 50 % at 750 ms.
    # z(PC) is +1 / -1 and z(RT) -1 / +1 (two students, population SD): BIS = +2 / -2.
    assert catches.balanced_integration == pytest.approx(2.0)
    ben_latest = overview["Ben"].latest
    assert ben_latest is not None
    assert ben_latest.by_kind[CATCH].balanced_integration == pytest.approx(-2.0)
    assert placements.balanced_integration is None  # no RT, no BIS
    # Chen's Palm Strike session is whole, compared with no one: no BIS.
    chen_latest = overview["Chen"].latest
    assert chen_latest is not None
    assert chen_latest.by_kind == {}
    assert chen_latest.measures.balanced_integration is None
    # Trend figures, kind by kind: mean catch RTs 600 then 450; placements stayed 1/2 then 4/5.
    first, last = overview["Ava"].sessions
    assert [s.by_kind[CATCH].mean_correct_rt_ms for s in (first, last)] == [600, 450]
    assert [s.by_kind[PLACEMENT].accuracy for s in (first, last)] == [0.5, 0.8]
    assert last.by_kind[PLACEMENT].mean_correct_rt_ms is None
    assert overview["Chen"].sessions[0].by_kind == {}


def test_kinds_cost_no_extra_queries(
    class_session: GameSession,
    school_class: SchoolClass,
    django_assert_num_queries: Callable[..., AbstractContextManager[object]],
) -> None:
    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"])
    seats = played_session(session=class_session, students=[ava, ben], game="riff_raff")
    riff_raff_played(seats[ava.pk], catch_rts=[500, None], stayed=[True, False])
    riff_raff_played(seats[ben.pk], catch_rts=[650], stayed=[True])

    # One aggregate with the kind in its GROUP BY, one read of correct RTs (and the roster).
    with django_assert_num_queries(2):
        analytics.student_sessions(student=ava)
    with django_assert_num_queries(3):
        analytics.class_overview(school_class=school_class)


def test_class_games_are_the_games_the_class_students_played(
    class_session: GameSession,
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
    teacher: User,
) -> None:
    ava, ben, chen = school_class.students.filter(display_name__in=["Ava", "Ben", "Chen"])
    seats = played_session(session=class_session, students=[ava, ben])
    trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=500)
    trial_add(seat=seats[ben.pk], target=False, responded=False)
    later = make_session(school_class=school_class)
    seats = played_session(session=later, students=[ben, chen], game="riff_raff")
    riff_raff_played(seats[ben.pk], catch_rts=[600], stayed=[True])
    # A game no registry knows still counts: the filter offers what the trials hold.
    odd = trial_add(seat=seats[chen.pk], target=True, responded=False)
    Trial.objects.filter(pk=odd.pk).update(game="retired_game")
    # Another class's games, and a trial of no one (a removed student's), are not this class's.
    other = class_create(teacher=teacher, name="Year 4 Owls", student_names=["Zoe", "Yu"])
    zoe = other.students.get(display_name="Zoe")
    elsewhere = make_session(school_class=other)
    seat = played_session(session=elsewhere, students=[zoe], game="commotion")[zoe.pk]
    stray = trial_add(seat=seat, target=True, responded=True, rt_ms=400)
    Trial.objects.filter(pk=stray.pk).update(game="commotion")
    Trial.objects.create(
        **{
            f.attname: getattr(stray, f.attname)
            for f in Trial._meta.concrete_fields
            if f.attname not in {"id", "student_id", "game"}
        },
        student_id=None,
        game="nobodys_game",
    )

    assert analytics.class_games(school_class=school_class) == [
        "palm_strike",
        "retired_game",
        "riff_raff",
    ]
    assert analytics.class_games(school_class=other) == ["commotion"]


def test_the_progress_aggregates_read_only_columns_of_their_covering_index() -> None:
    """PostgreSQL answers them from the index ``trial_student_session_kind`` alone (an
    index-only scan) only while every trial column they name is in it."""
    (index,) = [i for i in Trial._meta.indexes if i.name == "trial_student_session_kind"]
    covered = {Trial._meta.get_field(name).column for name in [*index.fields, *index.include]}
    day = TruncDate("created_at", tzinfo=timezone.get_current_timezone())
    queries = [
        analytics.facts_rows(Trial.objects.filter(student_id=1), by=["student", "session", "kind"]),
        analytics.facts_rows(
            Trial.objects.filter(student_id=1, game="palm_strike").annotate(day=day),
            by=["student", "day", "game", "level", "kind"],
            first_session=Min("session"),
        ),
        analytics.scored_responses(Trial.objects.filter(student_id=1))
        .order_by("rt_ms")
        .values_list("student", "session", "kind", "rt_ms", "congruent"),
    ]
    for query in queries:
        sql = str(query.query)
        named = set(re.findall(rf'"{Trial._meta.db_table}"\."(\w+)"', sql))
        assert named, sql
        assert named <= covered, named - covered


def _tile_names(html: str) -> list[str]:
    return re.findall(r'<p class="student-tile-name">(.*?)</p>', html, flags=re.S)


def test_no_trend_arrow_until_the_class_spread_says_a_change_is_more_than_chance(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    from django.template.loader import render_to_string

    from classroom.pages.fragments import dashboard_context

    ava, ben = school_class.students.filter(display_name__in=["Ava", "Ben"])
    seats = played_session(session=class_session, students=[ava, ben])
    # The finding: after five answers, Ava (80 % right, slower) had ▼, Ben (faster) ▲.
    for rt in (400, 450, 800, 900):
        trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=rt)
    trial_add(seat=seats[ava.pk], target=True, responded=False)
    for rt in (900, 800, 500, 450, 400):
        trial_add(seat=seats[ben.pk], target=True, responded=True, rt_ms=rt)
    class_session.refresh_from_db()

    context = dashboard_context(session=class_session)
    dashboard = context["dashboard"]
    spread = pooled_spread([[400, 450, 800, 900], [900, 800, 500, 450, 400]])
    assert spread is not None
    assert {tile.seat.name: tile.rt_trend for tile in dashboard.tiles} == {"Ava": FEW, "Ben": FEW}
    assert dashboard.trend_fewest == fewest_answers(spread) > 5
    html = render_to_string("classroom/session_console.html#dashboard", context)
    assert not [name for name in _tile_names(html) if "▲" in name or "▼" in name or "▶" in name]
    assert f"Arrows show from {dashboard.trend_fewest} right answers on" in html

    # Thirty steady-ish answers each: a narrow spread, so a fifth faster is beyond chance.
    Trial.objects.filter(session=class_session).delete()
    for rt in [800] * 10 + [700] * 10 + [600] * 10:
        trial_add(seat=seats[ava.pk], target=True, responded=True, rt_ms=rt)
    for number in range(30):
        trial_add(seat=seats[ben.pk], target=True, responded=True, rt_ms=580 + 40 * (number % 2))
    context = dashboard_context(session=class_session)
    dashboard = context["dashboard"]
    assert dashboard.trend_fewest <= 30
    assert {tile.seat.name: tile.rt_trend for tile in dashboard.tiles} == {
        "Ava": IMPROVING,
        "Ben": STEADY,
    }
    names = _tile_names(render_to_string("classroom/session_console.html#dashboard", context))
    assert ["▲" in name for name in names] == [True, False]
