"""Decision time (game RT less the warm-up's simple RT) and the tablets of a session, on the
teacher's pages, with hand-checked numbers."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

import pytest
from django.urls import reverse

from classroom.models import Trial
from classroom.services.devices import device_get_or_create, warmup_record
from tests.classroom.trial_rows import played_session, trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.test import Client

    from classroom.models import GameSession, SchoolClass

pytestmark = pytest.mark.django_db

# 20 warm-up taps: 12 kept at 250-360 ms (median 305), 4 untapped, 4 guesses under 100 ms.
WARMUP: list[int | None] = [*range(250, 370, 10), *[None] * 4, *[40] * 4]


def _text(response: object) -> str:
    return html.unescape(response.content.decode())  # type: ignore[attr-defined]


@pytest.fixture
def played(
    make_session: Callable[..., GameSession], school_class: SchoolClass
) -> tuple[GameSession, dict[str, int]]:
    """Ava (hits 500-700 ms, median 600, on tablet A, warmed up) and Ben (on tablet B, who
    skipped the warm-up; hits at 800 ms)."""
    session = make_session(school_class=school_class)
    students = {s.display_name: s for s in school_class.students.all()}
    seats = played_session(session=session, students=[students["Ava"], students["Ben"]])
    ava, ben = seats[students["Ava"].pk], seats[students["Ben"].pk]
    for flip, rt in enumerate((500, 600, 700), start=1):
        trial_add(seat=ava, target=True, responded=True, rt_ms=rt, flip=flip)
    for flip in (1, 2):
        trial_add(seat=ben, target=True, responded=True, rt_ms=800, flip=flip)
    tablet_a = device_get_or_create(
        user_agent="Tablet A", screen_width=1024, screen_height=768, frame_interval_ms=16.7
    )
    tablet_b = device_get_or_create(
        user_agent="Tablet B", screen_width=800, screen_height=1280, frame_interval_ms=8.3
    )
    Trial.objects.filter(seat=ava).update(device=tablet_a)
    Trial.objects.filter(seat=ben).update(device=tablet_b)
    warmup_record(seat=ava, device=tablet_a, rts=WARMUP)
    warmup_record(seat=ben, device=tablet_b, rts=[])
    return session, {"ava": ava.pk, "ben": ben.pk, "ava_student": students["Ava"].pk}


def test_the_childs_session_page_shows_the_decision_time_beside_the_rt(
    teacher_client: Client, played: tuple[GameSession, dict[str, int]]
) -> None:
    session, ids = played
    page = _text(teacher_client.get(reverse("session_report_seat", args=[session.pk, ids["ava"]])))
    assert "Deciding, apart from seeing and tapping" in page
    assert "305 ms" in page
    assert "median of 12 of 20 taps" in page
    assert "600 ms" in page
    assert "<strong>295 ms</strong>" in page  # 600 - 305
    assert "1024 × 768 screen, a frame every 16.7 ms" in page
    skipped = _text(
        teacher_client.get(reverse("session_report_seat", args=[session.pk, ids["ben"]]))
    )
    assert "The warm-up was skipped, so there is no decision time." in skipped


def test_too_few_kept_taps_need_more_rather_than_a_figure(
    teacher_client: Client, played: tuple[GameSession, dict[str, int]]
) -> None:
    session, ids = played
    seat = session.seats.get(pk=ids["ava"])
    warmup_record(seat=seat, device=seat.warmup.device, rts=[300] * 9 + [None] * 11)
    page = _text(teacher_client.get(reverse("session_report_seat", args=[session.pk, ids["ava"]])))
    assert "needs more taps (9 of 10)" in page
    assert "<strong>" not in page.split("Decision time (RT − warm-up)")[1].split("</tr>")[0]


def test_the_session_report_compares_its_tablets(
    teacher_client: Client, played: tuple[GameSession, dict[str, int]]
) -> None:
    session, _ids = played
    page = _text(teacher_client.get(reverse("session_report", args=[session.pk])))
    table = page.split('class="table data-table devices-table"')[1].split("</table>")[0]
    rows = table.split("<tr>")[2:]
    # Tablet A first (3 trials): 1 player, median 600 ms, warm-up 305 ms; B: 800 ms, none.
    assert [("Tablet A" in row, "600 ms" in row, "305 ms" in row) for row in rows[:1]] == [
        (True, True, True)
    ]
    assert [("Tablet B" in row, "800 ms" in row, "—" in row) for row in rows[1:]] == [
        (True, True, True)
    ]


def test_the_childs_progress_lists_their_warmups(
    teacher_client: Client,
    played: tuple[GameSession, dict[str, int]],
    school_class: SchoolClass,
) -> None:
    _session, ids = played
    url = reverse("student_progress", args=[school_class.pk, ids["ava_student"]])
    page = _text(teacher_client.get(url))
    table = page.split('aria-labelledby="decisions-heading"')[1]
    assert ("305 ms" in table, "600 ms" in table) == (True, True)
    assert "<strong>295 ms</strong>" in table


def test_the_childs_printed_page_gives_the_latest_decision_time(
    teacher_client: Client,
    school_class: SchoolClass,
    played: tuple[GameSession, dict[str, int]],
) -> None:
    _session, ids = played
    url = reverse("class_progress_print", args=[school_class.pk])
    page = _text(teacher_client.get(url, {"student": ids["ava_student"]}))
    assert "295 ms (the game’s median RT 600 ms less the warm-up’s 305 ms" in page
