"""Careful or hasty: each child's EZ-diffusion reading against their session, on the child's
session page and progress page, and what is shown when there is too little to read."""

from __future__ import annotations

import html
import random
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from classroom.models import GameSession, Student
from classroom.selectors.decision_styles import MIN_MATCH_TRIALS, session_decision_styles
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.test import Client

    from classroom.models import SchoolClass, Seat

pytestmark = pytest.mark.django_db

# Hits of 40 match cards, and the hit RTs' mean and SD (ms): one child in each quadrant
# against the session's medians (worked out with classroom.analytics.diffusion), and Eli
# in the middle.
CHILDREN = {
    "Ava": (38, 450, 60),  # quick and accurate
    "Ben": (38, 800, 200),  # careful
    "Chen": (28, 420, 50),  # hasty
    "Dara": (28, 900, 250),  # needs support
    "Eli": (34, 600, 120),
}


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


def _play(seat: Seat, hits: int, mean: int, sd: int, *, seed: int, matches: int = 40) -> None:
    rng = random.Random(seed)
    for flip in range(1, matches + 1):
        hit = flip <= hits
        rt = max(250, round(rng.gauss(mean, sd))) if hit else None
        trial_add(seat=seat, target=True, responded=hit, rt_ms=rt, flip=flip)
    # Cards without a match, held back: not in the reading.
    for flip in range(matches + 1, matches + 11):
        trial_add(seat=seat, target=False, responded=False, flip=flip)


@pytest.fixture
def played(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> tuple[GameSession, dict[str, Seat]]:
    students = {s.display_name: s for s in school_class.students.all()}
    session = make_session(school_class=school_class)
    seats = played_session(session=session, students=[students[name] for name in CHILDREN])
    by_name = {seat.name: seat for seat in seats.values()}
    for seed, (name, (hits, mean, sd)) in enumerate(CHILDREN.items()):
        _play(by_name[name], hits, mean, sd, seed=seed)
    return session, by_name


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("Ava", "quick and accurate"),
        ("Ben", "careful"),
        ("Chen", "hasty"),
        ("Dara", "needs support"),
    ],
)
def test_each_childs_page_reads_them_in_words_on_the_picture(
    teacher_client: Client, played: tuple[GameSession, dict[str, Seat]], name: str, word: str
) -> None:
    session, seats = played
    page = _text(
        teacher_client.get(reverse("session_report_seat", args=[session.pk, seats[name].pk]))
    )
    card = page.split('aria-labelledby="style-heading"')[1].split("</section>")[0]
    assert f'<p class="ez-verdict"><strong>{word}</strong></p>' in card
    assert card.count("is-here") == 1
    here = card.split("is-here")[0].rsplit('class="ez-q ', 1)[1]
    assert here.strip() == f"ez-{word.replace(' ', '_')}"
    assert "Compared with the middle of the 5 children of this session." in card


def test_the_progress_page_lists_the_childs_readings(
    teacher_client: Client,
    played: tuple[GameSession, dict[str, Seat]],
    school_class: SchoolClass,
) -> None:
    _session, seats = played
    student = seats["Chen"].student
    assert student is not None
    page = _text(
        teacher_client.get(reverse("student_progress", args=[school_class.pk, student.pk]))
    )
    card = page.split('aria-labelledby="styles-heading"')[1].split("</section>")[0]
    assert '<p class="ez-verdict"><strong>hasty</strong></p>' in card
    assert "<td>hasty</td>" in card


def test_too_few_match_cards_or_children_give_no_reading(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    session = make_session(school_class=school_class)
    students = list(Student.objects.filter(school_class=school_class))[:3]
    seats = played_session(session=session, students=students)
    few, *others = seats.values()
    _play(few, 10, 500, 80, seed=1, matches=MIN_MATCH_TRIALS - 1)
    for seed, seat in enumerate(others):
        _play(seat, 35, 500 + 50 * seed, 80, seed=seed)
    readings = session_decision_styles(session=session)
    assert (readings[few.pk].enough, readings[few.pk].matches, readings[few.pk].style) == (
        False,
        MIN_MATCH_TRIALS - 1,
        "",
    )
    # Only two children read: too few to say where the middle is.
    assert len(others) == 2
    assert all(readings[seat.pk].enough and not readings[seat.pk].style for seat in others)
    assert readings[others[0].pk].children == 2


def test_a_game_without_choices_and_errors_reads_nothing(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> None:
    session = make_session(school_class=school_class)
    GameSession.objects.filter(pk=session.pk).update(game="commotion")
    session.refresh_from_db()
    assert session_decision_styles(session=session) == {}
