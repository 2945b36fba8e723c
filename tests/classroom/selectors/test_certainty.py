"""How sure a child's figures are: intervals, reliability in the session, enough data, and
each seat's run validity."""

from __future__ import annotations

import csv
import random
import statistics
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from classroom.analytics.row_measures import TrialFacts, measures_of_rows
from classroom.analytics.validity import ANTICIPATIONS
from classroom.gamesite import game_site
from classroom.models import Trial
from classroom.selectors import certainty
from classroom.selectors.analytics import human_trials, measures_by
from classroom.selectors.certainty import seat_certainty
from classroom.selectors.run_validity import session_run_validity
from tests.classroom.trial_facts import trial_facts
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat

pytestmark = pytest.mark.django_db

# Each child's chance of a right answer and their median RT: they differ, so the measures rank
# them steadily (a reliability well above 0). Chen taps before the card can be seen.
SKILLS = {"Ava": (0.95, 550), "Ben": (0.7, 800), "Chen": (0.85, 130), "Dara": (0.6, 950)}


def _played(session: GameSession, school_class: SchoolClass, *, eli_flips: int) -> dict[str, Seat]:
    students = list(school_class.students.order_by("display_name"))
    seats = played_session(session=session, students=students, game="palm_strike")
    by_name = {seats[s.pk].name: seats[s.pk] for s in students}
    rng = random.Random(5)
    began = timezone.now()
    for name, seat in by_name.items():
        p_right, rt = SKILLS.get(name, (0.8, 700))
        for flip in range(1, (eli_flips if name == "Eli" else 60) + 1):
            target = rng.random() < 0.4
            right = rng.random() < p_right
            trial_add(
                seat=seat,
                target=target,
                responded=target == right,
                rt_ms=max(60, round(rng.gauss(rt, 60))),
                congruent=rng.random() < 0.5,
                at=began + timedelta(seconds=3 * flip),
                flip=flip,
            )
    cache.clear()
    return by_name


def test_row_measures_are_the_databases(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = _played(class_session, school_class, eli_flips=60)
    counted = measures_by(trials=human_trials().filter(session=class_session), by=["seat"])
    for seat in seats.values():
        rows = Trial.objects.filter(seat=seat).values_list(
            "target", "responded", "congruent", "rt_ms", "correct", "plausible"
        )
        assert measures_of_rows(TrialFacts(*row) for row in rows) == counted[seat.pk,]


def test_each_figure_has_an_interval_a_reliability_and_a_minimum(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = _played(class_session, school_class, eli_flips=4)
    accuracy, speed = seat_certainty(session=class_session, seat=seats["Ava"])
    assert accuracy.measure.key == "accuracy"
    assert speed.measure.key == "median_rt"
    assert accuracy.interval is not None
    assert speed.interval is not None
    assert accuracy.value is not None
    assert speed.value is not None
    assert accuracy.interval.low <= accuracy.value <= accuracy.interval.high
    assert speed.interval.low <= speed.value <= speed.interval.high
    assert accuracy.reliability is not None
    assert accuracy.reliability.children == 5
    assert accuracy.enough.needed is not None
    assert accuracy.enough.enough
    # Eli played four flips: fewer than the minimum.
    eli_accuracy, _eli_speed = seat_certainty(session=class_session, seat=seats["Eli"])
    assert eli_accuracy.enough.n == 4
    assert not eli_accuracy.enough.enough


def test_a_run_of_anticipations_is_flagged_and_steady_runs_are_not(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = _played(class_session, school_class, eli_flips=60)
    validity = session_run_validity(session=class_session)
    assert ANTICIPATIONS in validity[seats["Chen"].pk].flags
    assert validity[seats["Ava"].pk].valid


def test_the_seat_page_shows_how_sure_and_why_a_run_is_flagged(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = _played(class_session, school_class, eli_flips=4)

    def page(name: str) -> str:
        url = reverse("session_report_seat", args=[class_session.pk, seats[name].pk])
        return teacher_client.get(url).content.decode()

    chen = page("Chen")
    assert "How sure these figures are" in chen
    assert "many taps before the card could be seen" in chen
    assert "may retake" in chen
    ava = page("Ava")
    assert "may retake" not in ava
    assert "95 % interval" in ava
    assert "needs more play" not in ava
    assert "needs more play (4 of" in page("Eli")


def test_the_summary_export_carries_intervals_enough_data_and_run_flags(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    _played(class_session, school_class, eli_flips=4)
    response = teacher_client.get(reverse("session_export", args=[class_session.pk, "summary.csv"]))
    lines = response.content.decode("utf-8-sig").splitlines()
    header = next(csv.reader(lines[:1]))
    every = [dict(zip(header, row, strict=True)) for row in csv.reader(lines[1:])]
    rows = {row["Name"]: row for row in every if row["Level"] == "all"}
    for column in (
        "Accuracy 95 % low (%)",
        "Accuracy 95 % high (%)",
        "Median correct RT 95 % low (ms)",
        "Median correct RT 95 % high (ms)",
        "Needs more play",
        "Run flags",
    ):
        assert column in header
    ava = rows["Ava"]
    assert float(ava["Accuracy 95 % low (%)"]) <= float(ava["Accuracy (%)"])
    assert float(ava["Accuracy (%)"]) <= float(ava["Accuracy 95 % high (%)"])
    assert int(ava["Median correct RT 95 % low (ms)"]) <= int(
        ava["Median correct RT 95 % high (ms)"]
    )
    assert ava["Run flags"] == ""
    assert rows["Chen"]["Run flags"].startswith("many taps before the card could be seen")
    assert rows["Chen"]["Run flags"].endswith("may retake")
    # Eli's four trials are short of the session's minimum; Ava's sixty are not (her only
    # entry, if any, is following others, which counts flips after another child's slap).
    short = [part for part in ava["Needs more play"].split("; ") if part]
    assert [part for part in short if not part.startswith("Following others")] == []
    assert "needs more play (4 of" in rows["Eli"]["Needs more play"]


def test_the_console_tiles_say_how_sure_as_the_session_report_does(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    """A live tile shows each figure with its interval, and "needs more play" under the same
    minimum as the session report, counted in the same trials."""
    from django.template.loader import render_to_string

    from classroom.pages.fragments import dashboard_context

    seats = _played(class_session, school_class, eli_flips=4)
    class_session.refresh_from_db()
    context = dashboard_context(session=class_session)
    tiles = {tile.seat.name: tile for tile in context["dashboard"].tiles}
    report_accuracy, report_speed = seat_certainty(session=class_session, seat=seats["Eli"])
    eli = tiles["Eli"]
    assert eli.headline_sure is not None
    assert eli.speed_sure is not None
    assert eli.headline_sure.enough == report_accuracy.enough
    assert eli.speed_sure.enough == report_speed.enough
    assert not eli.headline_sure.enough.enough
    ava = tiles["Ava"]
    assert ava.headline_sure is not None
    assert ava.speed_sure is not None
    assert ava.headline_sure.enough.enough
    # The recent median (of her last ten right answers) lies within its own interval.
    assert ava.speed_sure.interval is not None
    assert ava.speed_sure.value is not None
    assert ava.speed_sure.interval.low <= ava.speed_sure.value <= ava.speed_sure.interval.high
    html = render_to_string("classroom/session_console.html#dashboard", context)
    eli_tile = html.split('data-name="eli"')[1].split("</li>")[0]
    ava_tile = html.split('data-name="ava"')[1].split("</li>")[0]
    assert f"needs more play (4 of {report_accuracy.enough.needed})" in eli_tile
    assert ava_tile.count('class="interval"') == 2
    assert "needs more play" not in ava_tile


def test_a_session_in_play_measures_its_reliability_again_as_its_trials_grow_by_a_step(
    class_session: GameSession, school_class: SchoolClass, monkeypatch: pytest.MonkeyPatch
) -> None:
    seats = _played(class_session, school_class, eli_flips=60)  # 5 children x 60 trials
    estimates: list[int] = []
    real = certainty.split_half_reliability

    def counted(*args: Any, **kwargs: Any) -> Any:
        estimates.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(certainty, "split_half_reliability", counted)
    seat_certainty(session=class_session, seat=seats["Ava"])
    assert len(estimates) == 2  # the headline measure and the speed measure

    def more(flips: range) -> None:
        for flip in flips:
            trial_add(seat=seats["Ava"], target=True, responded=True, rt_ms=560, flip=flip)

    # One more answer (301 trials): the same step, the estimates as they were.
    more(range(61, 62))
    seat_certainty(session=class_session, seat=seats["Ava"])
    assert len(estimates) == 2
    # About 4 % more (316 trials): the next step, measured again.
    more(range(62, 77))
    seat_certainty(session=class_session, seat=seats["Ava"])
    assert len(estimates) == 4
    # Ended: the estimate of every trial.
    class_session.status = class_session.Status.ENDED
    class_session.save(update_fields=["status"])
    seat_certainty(session=class_session, seat=seats["Ava"])
    assert len(estimates) == 6


_rows = trial_facts(min_size=1, max_size=60)


@pytest.mark.parametrize("game", ["palm_strike", "commotion", "riff_raff"])
@given(rows=_rows, data=st.data())
def test_a_halfs_score_from_its_places_is_the_measure_of_its_trials(
    game: str, rows: list[TrialFacts], data: st.DataObject
) -> None:
    """The split-half estimate scores a half from what it worked out once per trial; that must
    be the measure the pages compute from the half's trials themselves."""
    site = game_site(game)
    half = data.draw(st.lists(st.sampled_from(range(len(rows))), unique=True))
    trials = [rows[place] for place in half]
    for measure in (site.headline_measure, site.speed_measure):
        speed = measure is site.speed_measure
        scored = certainty._score(measure, rows, speed=speed)(half)
        if speed:
            kept = certainty.kept_rts(measures_of_rows(trials).correct_rts)
            assert scored == (statistics.median(kept) if kept else None)
        else:
            value = measure.value(measures_of_rows(trials))
            assert scored == (None if value is None else pytest.approx(float(value)))
