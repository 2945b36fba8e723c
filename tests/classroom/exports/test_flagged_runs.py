"""Flagged runs in the files: every trial says whether its run was flagged and whether it
counts, a session's summary says whether the teacher kept it, and the class's summary leaves
a run out as trends do and says how many it left out."""

from __future__ import annotations

import csv
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import RunFlag
from classroom.services.run_flags import run_flags_record, run_keep
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.test import Client

    from classroom.models import GameSession, SchoolClass, Seat, Student

pytestmark = pytest.mark.django_db

ANTICIPATED = "many taps before the card could be seen; flagged, left out"


def _matches_slapped(seat: Seat, rt_ms: int, flips: int = 20) -> None:
    """Every match slapped ``rt_ms`` after the card, every other card let go."""
    began = timezone.now()
    for flip in range(1, flips + 1):
        target = flip % 2 == 0
        trial_add(
            seat=seat,
            target=target,
            responded=target,
            rt_ms=rt_ms if target else None,
            at=began + timedelta(seconds=3 * flip),
            flip=flip,
        )


def _steady(seat: Seat) -> None:
    _matches_slapped(seat, 520)


def _anticipated(seat: Seat) -> None:
    """40 ms after the card: far too early to have seen it."""
    _matches_slapped(seat, 40)


def _rows(client: Client, url: str) -> list[dict[str, str]]:
    response = client.get(url)
    assert response.status_code == 200
    body = (
        b"".join(response.streaming_content)  # type: ignore[attr-defined]
        if response.streaming
        else response.content
    )
    return list(csv.DictReader(body.decode("utf-8-sig").splitlines()))


def _students(school_class: SchoolClass) -> dict[str, Student]:
    return {s.display_name: s for s in school_class.students.all()}


def _played(
    session: GameSession, students: list[Student], plays: list[Callable[[Seat], None]]
) -> dict[str, Seat]:
    seats = played_session(session=session, students=students, game="palm_strike")
    for student, play in zip(students, plays, strict=True):
        play(seats[student.pk])
    run_flags_record(session=session)
    return {student.display_name: seats[student.pk] for student in students}


@pytest.fixture
def ava_flagged(class_session: GameSession, school_class: SchoolClass) -> dict[str, Seat]:
    """The session ended with Ava's run of guesses flagged and Ben's steady one not."""
    students = _students(school_class)
    return _played(class_session, [students["Ava"], students["Ben"]], [_anticipated, _steady])


def test_every_trial_says_whether_its_run_was_flagged_and_counts(
    teacher_client: Client, class_session: GameSession, ava_flagged: dict[str, Seat]
) -> None:
    seats = ava_flagged
    url = reverse("session_export", args=[class_session.pk, "trials.csv"])

    rows = _rows(teacher_client, url)
    assert {row["Run flag"] for row in rows if row["Name"] == "Ava"} == {ANTICIPATED}
    assert {row["Run flag"] for row in rows if row["Name"] == "Ben"} == {""}

    run_keep(seat=seats["Ava"], kept=True)
    rows = _rows(teacher_client, url)
    assert {row["Run flag"] for row in rows if row["Name"] == "Ava"} == {
        "many taps before the card could be seen; flagged, kept"
    }


def test_the_session_summary_says_whether_the_teacher_kept_a_flagged_run(
    teacher_client: Client, class_session: GameSession, ava_flagged: dict[str, Seat]
) -> None:
    seats = ava_flagged
    url = reverse("session_export", args=[class_session.pk, "summary.csv"])

    def flags() -> dict[str, str]:
        rows = _rows(teacher_client, url)
        return {row["Name"]: row["Run flags"] for row in rows if row["Level"] == "all"}

    assert flags() == {
        "Ava": "many taps before the card could be seen; may retake; flagged, left out",
        "Ben": "",
    }
    run_keep(seat=seats["Ava"], kept=True)
    assert flags()["Ava"].endswith("; may retake; flagged, kept")


def test_the_class_summary_leaves_a_run_out_as_trends_do_and_says_so(
    teacher_client: Client,
    make_session: Callable[..., GameSession],
    school_class: SchoolClass,
) -> None:
    students = _students(school_class)
    _played(make_session(school_class=school_class), [students["Ava"]], [_steady])
    later = _played(
        make_session(school_class=school_class),
        [students["Ava"], students["Ben"]],
        [_anticipated, _anticipated],
    )
    assert RunFlag.objects.filter(kept=False).count() == 2
    url = reverse("class_export", args=[school_class.pk, "summary.csv"])

    def all_levels() -> dict[str, dict[str, str]]:
        return {row["Name"]: row for row in _rows(teacher_client, url) if row["Level"] == "all"}

    rows = all_levels()
    # Ava: her steady run alone, its 10 right slaps at 520 ms; the run of guesses says so.
    assert (rows["Ava"]["Trials"], rows["Ava"]["Median correct RT (ms)"]) == ("20", "520")
    assert rows["Ava"]["Run flags"] == "1 flagged run left out of these figures"
    # Ben played only the flagged run: listed, with nothing counted, and why.
    assert (rows["Ben"]["Trials"], rows["Ben"]["Game"]) == ("0", "palm_strike")
    assert rows["Ben"]["Run flags"] == "1 flagged run left out of these figures"
    assert rows["Chen"]["Run flags"] == ""

    run_keep(seat=later["Ava"], kept=True)
    rows = all_levels()
    assert (rows["Ava"]["Trials"], rows["Ava"]["Run flags"]) == ("40", "")
