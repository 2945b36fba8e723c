"""Downloads: trials and summary CSV files and the Excel workbook, of a session and a class."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import openpyxl
import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import AsyncClient, Client
from django.urls import reverse
from django.utils import timezone

from classroom.exports import csv_files
from classroom.exports.trial_rows import DAY
from classroom.models import Export, GameSession, SchoolClass, Seat, Student, Trial
from classroom.selectors.analytics import session_report
from classroom.services.classes import class_create, class_update
from classroom.services.devices import device_get_or_create, warmup_record
from classroom.services.seats import seat_join_guest, seat_join_student

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.http.response import HttpResponseBase

    MakeSession = Callable[..., GameSession]

TRIAL_HEADER = [
    "Session",
    "Session date",
    "Game",
    "Game number",
    "Table",
    "Name",
    "Level",
    "Practice",
    "Adaptive level",
    "Accommodation",
    "Extra time",
    "Flip",
    "Public card word",
    "Public card ink",
    "Public card background",
    "Target",
    "Congruent",
    "Response",
    "RT (ms)",
    "RT missing",
    "Correct",
    "First",
    "Plausible",
    "Run flag",
    "Screen",
    "Frame interval (ms)",
    "Browser",
    "Recorded at",
]
SUMMARY_HEADER = [
    "Name",
    "Game",
    "Level",
    "Trials",
    "Hits",
    "Misses",
    "False alarms",
    "Correct rejections",
    "Accuracy (%)",
    "d′ (sensitivity)",
    "c (response bias)",
    "Median correct RT (ms)",
    "Mean correct RT (ms)",
    "Trimmed mean correct RT (ms)",
    "IES (ms)",
    "BIS",
    "Interference (ms)",
    "Error interference (percentage points)",
    "Accuracy 95 % low (%)",
    "Accuracy 95 % high (%)",
    "Median correct RT 95 % low (ms)",
    "Median correct RT 95 % high (ms)",
    "Following others (%)",
    "Flips after another's slap",
    "False slaps alone (%)",
    "Flips alone",
    "Following minus alone, 95 % low (points)",
    "Following minus alone, 95 % high (points)",
    "Warm-up RT (ms)",
    "Decision time (ms)",
    "Needs more play",
    "Run flags",
    "Year group",
    "Verdict (speed)",
    "Verdict (speed): percentile",
    "Verdict (speed): percentile 95 % low",
    "Verdict (speed): percentile 95 % high",
    "Verdict (rate)",
    "Verdict (rate): percentile",
    "Verdict (rate): percentile 95 % low",
    "Verdict (rate): percentile 95 % high",
    "Verdict compared with",
    "Verdict notes",
]
KINDS = ["trials.csv", "summary.csv", "codebook.csv", "workbook.xlsx"]
CSV_KINDS = ["trials.csv", "summary.csv"]
SNEAKY = "=2+3"  # a name a spreadsheet would run as a formula


def _trial(seat: Seat, *, flip: int, level: str = "beginner", **fields: Any) -> Trial:
    """A Palm Strike trial as the host records it; ``fields`` set the outcome."""
    assert seat.table is not None
    outcome: dict[str, Any] = {"plausible": True} | fields
    data = {
        "flip": flip,
        "public": {"type": "public", "word": "red", "ink": "blue", "bg": "green"},
        "response": "slap" if outcome["responded"] else "none",
        "first": outcome.pop("first", False),
    }
    return Trial.objects.create(
        session=seat.session,
        table=seat.table,
        seat=seat,
        student=seat.student,
        log_seq=flip,
        game="palm_strike",
        kind="palm_strike.flip",
        level=level,
        data=data,
        **outcome,
    )


def _hit(seat: Seat, flip: int, rt_ms: int, **fields: Any) -> Trial:
    return _trial(seat, flip=flip, target=True, responded=True, correct=True, rt_ms=rt_ms, **fields)


def _seat(session: GameSession, student: Student) -> Seat:
    seat = seat_join_student(session=session, student=student)
    seat.refresh_from_db()  # tables_balance placed it
    return seat


@dataclass(frozen=True)
class Played:
    school_class: SchoolClass
    session: GameSession  # 7 human trials (and one bot trial)
    later: GameSession  # 1 more trial of Ava


@pytest.fixture
def played(make_session: MakeSession, school_class: SchoolClass) -> Played:
    class_update(school_class=school_class, name=school_class.name, new_student_names=[SNEAKY])
    students = {s.display_name: s for s in school_class.students.all()}
    session = make_session(school_class=school_class)
    ava, ben, sneaky = (_seat(session, students[name]) for name in ("Ava", "Ben", SNEAKY))
    # Ava, beginner: two hits (congruent 500 ms, incongruent 700 ms), a miss, a rejection.
    _hit(ava, 1, 500, congruent=True, first=True)
    _hit(ava, 2, 700, congruent=False)
    _trial(ava, flip=3, target=True, responded=False, correct=False, congruent=True)
    _trial(ava, flip=4, target=False, responded=False, correct=True)
    # Ben, advanced: a hit and a false alarm.
    _hit(ben, 1, 600, level="advanced")
    _trial(ben, flip=2, level="advanced", target=False, responded=True, correct=False, rt_ms=300)
    _hit(sneaky, 1, 450)
    # A bot's trial has no seat: never exported.
    assert ava.table is not None
    Trial.objects.create(
        session=session,
        table=ava.table,
        log_seq=9,
        game="palm_strike",
        kind="palm_strike.flip",
        data={"bot": True},
    )
    later = make_session(school_class=school_class)
    _hit(_seat(later, students["Ava"]), 1, 800)
    return Played(school_class=school_class, session=session, later=later)


def _session_url(played: Played, kind: str) -> str:
    return reverse("session_export", args=[played.session.pk, kind])


def _class_url(played: Played, kind: str) -> str:
    return reverse("class_export", args=[played.school_class.pk, kind])


def _body(response: HttpResponseBase) -> bytes:
    if response.streaming:
        assert isinstance(response, StreamingHttpResponse)
        return b"".join(response.streaming_content)  # type: ignore[arg-type]
    assert isinstance(response, HttpResponse)
    return response.content


def _csv(response: HttpResponseBase) -> list[list[str]]:
    text = _body(response).decode("utf-8")
    assert text.startswith("\ufeff")  # so Excel reads the names as UTF-8
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))


def _named(rows: list[list[str]], header: list[str], **where: str) -> list[dict[str, str]]:
    records = [dict(zip(header, row, strict=True)) for row in rows[1:]]
    return [r for r in records if all(r[key] == value for key, value in where.items())]


def _workbook(response: HttpResponseBase) -> Any:
    return openpyxl.load_workbook(io.BytesIO(_body(response)))


@pytest.fixture
def prepared(settings: Any, tmp_path: Any) -> None:
    """Prepared downloads run inside the request that asks for them, into a fresh folder."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    settings.EXPORTS_ROOT = tmp_path / "exports"


def _prepared_workbook(client: Client, prepare_url: str) -> HttpResponseBase:
    """Prepare the workbook as the page's button does, then download it."""
    panel = client.post(prepare_url, headers={"HX-Request": "true"})
    assert panel.status_code == 200
    export = Export.objects.latest("pk")
    assert export.status == Export.Status.READY, export.error
    return client.get(reverse("export_file", args=[export.pk]))


def _attachment_name(response: HttpResponseBase) -> str:
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment; ")
    return disposition


# --------------------------------------------------------------------------------------------
# Trials CSV


def test_session_trials_csv_has_one_row_per_human_trial(
    teacher_client: Client, played: Played
) -> None:
    response = teacher_client.get(_session_url(played, "trials.csv"))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert (
        _attachment_name(response)
        == f'attachment; filename="snapclass-{played.session.code}-trials.csv"'
    )
    assert response["Cache-Control"] == "private, no-store"
    rows = _csv(response)
    assert rows[0] == TRIAL_HEADER
    assert len(rows) == 1 + 7  # the bot's trial and the later session's are not in it
    (first,) = _named(rows, TRIAL_HEADER, Name="Ava", Flip="1")
    assert first == {
        **first,
        "Session": played.session.code,
        "Session date": timezone.localdate(played.session.created_at).isoformat(),
        "Game": "palm_strike",
        "Game number": "1",
        "Level": "beginner",
        "Practice": "FALSE",
        "Adaptive level": "",
        "Public card word": "red",
        "Public card ink": "blue",
        "Public card background": "green",
        "Target": "TRUE",
        "Congruent": "TRUE",
        "Response": "slap",
        "RT (ms)": "500",
        "RT missing": "",
        "Correct": "TRUE",
        "First": "TRUE",
        "Plausible": "TRUE",
    }
    assert first["Table"].isdigit()
    assert first["Recorded at"].startswith(first["Session date"])
    (rejection,) = _named(rows, TRIAL_HEADER, Name="Ava", Flip="4")
    assert (rejection["Response"], rejection["RT (ms)"], rejection["Congruent"]) == ("none", "", "")


def test_trials_are_dated_in_the_schools_time_zone(
    teacher_client: Client, played: Played, settings: Any
) -> None:
    # 23:30 UTC on 1 March is 07:30 on 2 March in Taipei, where the lesson was.
    evening = datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
    GameSession.objects.filter(pk=played.session.pk).update(created_at=evening, started_at=evening)
    Trial.objects.filter(session=played.session).update(created_at=evening)
    settings.TIME_ZONE = "Asia/Taipei"
    rows = _csv(teacher_client.get(_session_url(played, "trials.csv")))
    (first,) = _named(rows, TRIAL_HEADER, Name="Ava", Flip="1")
    assert first["Session date"] == "2026-03-02"
    assert first["Recorded at"].startswith("2026-03-02T07:30:00")
    assert first["Recorded at"].endswith("+08:00")


def test_trials_csv_guards_against_formulas_in_names(
    teacher_client: Client, played: Played
) -> None:
    rows = _csv(teacher_client.get(_session_url(played, "trials.csv")))
    names = {row[TRIAL_HEADER.index("Name")] for row in rows[1:]}
    assert names == {"Ava", "Ben", f"'{SNEAKY}"}


def test_class_trials_csv_spans_the_class_sessions(teacher_client: Client, played: Played) -> None:
    response = teacher_client.get(_class_url(played, "trials.csv"))
    assert response.status_code == 200
    assert "snapclass-year-3-otters-trials.csv" in _attachment_name(response)
    rows = _csv(response)
    assert rows[0] == TRIAL_HEADER
    assert len(rows) == 1 + 8
    assert {row[0] for row in rows[1:]} == {played.session.code, played.later.code}
    assert [r["RT (ms)"] for r in _named(rows, TRIAL_HEADER, Session=played.later.code)] == ["800"]


def test_trials_csv_is_streamed_in_chunks(
    teacher_client: Client, played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(csv_files, "ROWS_PER_CHUNK", 2)
    response = teacher_client.get(_class_url(played, "trials.csv"))
    chunks = list(response.streaming_content)  # type: ignore[attr-defined]
    assert len(chunks) == 5  # header + 2 rows, then 2 + 2 + 2, then the empty remainder
    rows = list(csv.reader(io.StringIO(b"".join(chunks).decode("utf-8-sig"))))
    assert len(rows) == 1 + 8


@pytest.mark.django_db(transaction=True)
async def test_trials_csv_streams_asynchronously_under_asgi(teacher: User, played: Played) -> None:
    # Daphne serves the site through ASGI: there the body must be an async iterator, or
    # Django would read the whole file into memory first.
    client = AsyncClient()
    await client.aforce_login(teacher)
    response = await client.get(_class_url(played, "trials.csv"))
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response.is_async
    body = b"".join([chunk async for chunk in response.streaming_content])
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows[0] == TRIAL_HEADER
    assert len(rows) == 1 + 8


# --------------------------------------------------------------------------------------------
# Summary CSV


def test_session_summary_csv_has_a_row_per_seat_and_level(
    teacher_client: Client, played: Played
) -> None:
    response = teacher_client.get(_session_url(played, "summary.csv"))
    assert response.status_code == 200
    assert f"snapclass-{played.session.code}-summary.csv" in _attachment_name(response)
    rows = _csv(response)
    assert rows[0] == SUMMARY_HEADER
    assert [(row[0], row[2]) for row in rows[1:]] == [
        (f"'{SNEAKY}", "all"),
        (f"'{SNEAKY}", "beginner"),
        ("Ava", "all"),
        ("Ava", "beginner"),
        ("Ben", "all"),
        ("Ben", "advanced"),
    ]
    (ava,) = _named(rows, SUMMARY_HEADER, Name="Ava", Level="all")
    assert ava == {
        **ava,
        "Trials": "4",
        "Hits": "2",
        "Misses": "1",
        "False alarms": "0",
        "Correct rejections": "1",
        "Accuracy (%)": "75.0",
        "Median correct RT (ms)": "600",
        "Mean correct RT (ms)": "600",
        "IES (ms)": "800",  # 600 ms / 0.75
        "Interference (ms)": "200",  # 700 incongruent - 500 congruent
    }
    # The same numbers as the report page, rounded to two decimals.
    report = {r.seat.name: r for r in session_report(session=played.session)}
    dprime = report["Ava"].overall.dprime
    assert dprime is not None
    assert ava["d′ (sensitivity)"] == str(round(dprime, 2))
    # Following others: a few flips, so the figures come with "needs more play".
    assert ava["Flips alone"] != ""
    assert "Following others: needs more play" in ava["Needs more play"]
    (ben,) = _named(rows, SUMMARY_HEADER, Name="Ben", Level="advanced")
    assert (ben["Trials"], ben["False alarms"], ben["Accuracy (%)"]) == ("2", "1", "50.0")
    assert ben["Interference (ms)"] == ""  # no Stroop split: empty, not 0


def test_class_summary_csv_lists_every_student_over_all_sessions(
    teacher_client: Client, played: Played
) -> None:
    response = teacher_client.get(_class_url(played, "summary.csv"))
    assert response.status_code == 200
    assert "snapclass-year-3-otters-summary.csv" in _attachment_name(response)
    rows = _csv(response)
    assert rows[0] == SUMMARY_HEADER
    assert [(row[0], row[2]) for row in rows[1:]] == [
        (f"'{SNEAKY}", "all"),
        (f"'{SNEAKY}", "beginner"),
        ("Ava", "all"),
        ("Ava", "beginner"),
        ("Ben", "all"),
        ("Ben", "advanced"),
        ("Chen", "all"),  # not played yet: listed, so the class list is complete
        ("Dara", "all"),
        ("Eli", "all"),
    ]
    (ava,) = _named(rows, SUMMARY_HEADER, Name="Ava", Level="all")
    assert (ava["Trials"], ava["Hits"], ava["Median correct RT (ms)"]) == ("5", "3", "700")
    assert ava["Following others (%)"] == ava["Flips alone"] == ""  # a session's figure only
    (chen,) = _named(rows, SUMMARY_HEADER, Name="Chen")
    assert chen["Trials"] == "0"
    assert chen["Accuracy (%)"] == chen["BIS"] == ""


# --------------------------------------------------------------------------------------------
# Workbook


def _sheet_rows(sheet: Any) -> list[list[Any]]:
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def _check_sheet_layout(sheet: Any, header: list[str]) -> None:
    assert [cell.value for cell in sheet[1]] == header
    assert all(cell.font.b for cell in sheet[1])
    assert sheet.freeze_panes == "A2"
    assert sheet.column_dimensions["A"].width > 0
    assert sheet.column_dimensions["E"].width > 0


@pytest.mark.usefixtures("prepared")
def test_session_workbook_holds_trials_and_summary(teacher_client: Client, played: Played) -> None:
    response = _prepared_workbook(
        teacher_client, reverse("session_export_prepare", args=[played.session.pk])
    )
    assert response.status_code == 200
    assert response["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert f"snapclass-{played.session.code}-workbook.xlsx" in _attachment_name(response)
    workbook = _workbook(response)
    assert workbook.sheetnames == ["Trials", "Summary", "About"]

    trials = workbook["Trials"]
    _check_sheet_layout(trials, TRIAL_HEADER)
    rows = _sheet_rows(trials)
    assert len(rows) == 1 + 7
    flip = TRIAL_HEADER.index("Flip")
    name = TRIAL_HEADER.index("Name")
    by_flip = {(row[name], row[flip]): row for row in rows[1:]}
    first = by_flip[("Ava", 1)]
    assert first[TRIAL_HEADER.index("RT (ms)")] == 500  # a number, not text
    assert first[TRIAL_HEADER.index("Correct")] is True
    assert first[TRIAL_HEADER.index("Public card word")] == "red"
    # The sneaky name is stored as text: shown as typed, never run as a formula.
    sneaky_cell = next(
        row[name] for row in trials.iter_rows(min_row=2) if row[name].value == SNEAKY
    )
    assert sneaky_cell.data_type == "s"

    summary = workbook["Summary"]
    _check_sheet_layout(summary, SUMMARY_HEADER)
    summary_rows = _sheet_rows(summary)
    assert len(summary_rows) == 1 + 6
    ava = next(row for row in summary_rows if [row[0], row[2]] == ["Ava", "all"])
    assert ava[SUMMARY_HEADER.index("Accuracy (%)")] == 75
    assert ava[SUMMARY_HEADER.index("Median correct RT (ms)")] == 600


@pytest.mark.usefixtures("prepared")
def test_class_workbook_holds_trials_and_summary(teacher_client: Client, played: Played) -> None:
    response = _prepared_workbook(
        teacher_client, reverse("class_export_prepare", args=[played.school_class.pk])
    )
    assert response.status_code == 200
    assert "snapclass-year-3-otters-workbook.xlsx" in _attachment_name(response)
    # The same file again from the class's workbook address, without building it again.
    body = _body(response)
    again = teacher_client.get(_class_url(played, "workbook.xlsx"))
    assert again.status_code == 200
    assert _body(again) == body
    workbook = openpyxl.load_workbook(io.BytesIO(body))
    assert workbook.sheetnames == ["Trials", "Summary", "About"]
    _check_sheet_layout(workbook["Trials"], TRIAL_HEADER)
    _check_sheet_layout(workbook["Summary"], SUMMARY_HEADER)
    assert len(_sheet_rows(workbook["Trials"])) == 1 + 8
    assert len(_sheet_rows(workbook["Summary"])) == 1 + 9
    summary_cells = list(workbook["Summary"].iter_rows(min_row=2))
    assert {cell.data_type for row in summary_cells for cell in row[:1]} == {"s"}


@pytest.mark.parametrize("kind", [*CSV_KINDS, "workbook.xlsx"])
@pytest.mark.usefixtures("prepared")
def test_exports_of_a_session_without_trials_have_just_the_header(
    teacher_client: Client, guest_session: GameSession, kind: str
) -> None:
    seat_join_guest(session=guest_session, nickname="Mo")
    if kind.endswith(".csv"):
        response = teacher_client.get(reverse("session_export", args=[guest_session.pk, kind]))
        assert response.status_code == 200
        assert len(_csv(response)) == 1
    else:
        response = _prepared_workbook(
            teacher_client, reverse("session_export_prepare", args=[guest_session.pk])
        )
        workbook = _workbook(response)
        assert [len(_sheet_rows(workbook[name])) for name in ("Trials", "Summary")] == [1, 1]


def test_the_workbook_is_never_built_in_the_request(teacher_client: Client, played: Played) -> None:
    # Nothing prepared yet: the workbook's address leads to the page that prepares it.
    response = teacher_client.get(_session_url(played, "workbook.xlsx"))
    assert response.status_code == 302
    assert response["Location"] == (
        reverse("session_report", args=[played.session.pk]) + "#downloads"
    )
    assert not Export.objects.exists()


def test_class_file_name_keeps_a_chinese_class_name(teacher_client: Client, teacher: User) -> None:
    school_class = class_create(teacher=teacher, name="三年 甲班", student_names=["小明"])
    response = teacher_client.get(reverse("class_export", args=[school_class.pk, "summary.csv"]))
    assert response.status_code == 200
    assert _attachment_name(response) == (
        "attachment; filename*=utf-8''snapclass-%E4%B8%89%E5%B9%B4-%E7%94%B2%E7%8F%AD-summary.csv"
    )


# --------------------------------------------------------------------------------------------
# Who may download what


@pytest.mark.parametrize("kind", KINDS)
def test_another_teacher_gets_404(
    client: Client, other_teacher: User, played: Played, kind: str
) -> None:
    client.force_login(other_teacher)
    for url in (_session_url(played, kind), _class_url(played, kind)):
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404  # not 405: the method tells nothing either


@pytest.mark.parametrize("kind", ["trials.json", "summary.xlsx", "workbook.csv", "x"])
def test_an_unknown_kind_is_404(teacher_client: Client, played: Played, kind: str) -> None:
    assert teacher_client.get(_session_url(played, kind)).status_code == 404
    assert teacher_client.get(_class_url(played, kind)).status_code == 404


@pytest.mark.parametrize("kind", KINDS)
def test_anonymous_visitors_are_sent_to_log_in(client: Client, played: Played, kind: str) -> None:
    for url in (_session_url(played, kind), _class_url(played, kind)):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_exports_are_read_only(teacher_client: Client, played: Played) -> None:
    assert teacher_client.post(_session_url(played, "trials.csv")).status_code == 405


def test_trials_are_read_in_pages_in_the_order_they_happened(played: Played) -> None:
    from classroom.exports.trial_rows import class_export_trials, trial_rows

    trials = class_export_trials(school_class=played.school_class)
    # Several trials share a timestamp: the pages still hold each once, in order.
    Trial.objects.filter(pk__in=list(trials.values_list("pk", flat=True)[:4])).update(
        created_at=timezone.now()
    )
    expected = list(trials.order_by("created_at", "pk").values_list("seat__name", "created_at"))
    paged = [(row.name, row.created_at) for row in trial_rows(trials=trials, chunk_size=3)]
    assert paged == expected
    assert len(paged) == 8


def test_a_class_read_a_day_at_a_time_gives_the_same_rows_in_the_same_order(
    played: Played,
) -> None:
    from classroom.exports.sources import class_source
    from classroom.exports.trial_rows import trial_rows

    source = class_source(school_class=played.school_class)
    assert source.days is not None
    trials = list(source.trials.order_by("created_at", "pk"))
    # Spread over days, with two trials at the same instant and one exactly at midnight past
    # the first trial's day, where one day's read ends and the next begins.
    first = trials[0].created_at
    moments = [first, first, first + DAY, first + DAY * 2.5, first + DAY * 3, first + DAY * 40]
    for trial, moment in zip(trials, moments, strict=False):
        Trial.objects.filter(pk=trial.pk).update(created_at=moment)
    whole = list(trial_rows(trials=source.trials, chunk_size=2))
    by_day = list(trial_rows(trials=source.trials, chunk_size=2, days=source.days))
    assert by_day == whole
    assert len(by_day) == len(trials) == 8
    assert [row.created_at for row in by_day] == sorted(row.created_at for row in by_day)


def test_a_file_of_several_games_has_unique_headers_with_meanings() -> None:
    from classroom.exports.columns import summary_columns, trial_columns
    from classroom.gamesite import game_sites

    games = sorted(site.slug for site in game_sites())
    for columns in (trial_columns(games), summary_columns(games)):
        headers = [str(column.header) for column in columns]
        assert len(headers) == len(set(headers)), headers
        assert all(str(column.meaning) for column in columns)
    # A game's own column that another game also has says whose it is.
    trial_headers = [str(column.header) for column in trial_columns(games)]
    assert "Round" in trial_headers
    assert any(header.startswith("Round (") for header in trial_headers)


def test_the_session_summary_has_the_warmup_and_decision_time_and_trials_their_device(
    teacher_client: Client, played: Played
) -> None:
    ava = played.session.seats.get(name="Ava")
    device = device_get_or_create(
        user_agent="Tablet A", screen_width=1024, screen_height=768, frame_interval_ms=16.7
    )
    Trial.objects.filter(seat=ava).update(device=device)
    # 20 taps, 12 of them kept at 250-360 ms (median 305), the rest guesses or untapped.
    rts: list[int | None] = [250, 260, 270, 280, 290, 300, 310, 320, 330, 340, 350, 360]
    warmup_record(seat=ava, device=device, rts=[*rts, *[None] * 4, *[40] * 4])
    rows = _csv(teacher_client.get(_session_url(played, "summary.csv")))
    (row,) = _named(rows, SUMMARY_HEADER, Name="Ava", Level="all")
    # Median correct RT 600 ms less the warm-up's 305 ms.
    assert (row["Warm-up RT (ms)"], row["Decision time (ms)"]) == ("305", "295")
    (ben,) = _named(rows, SUMMARY_HEADER, Name="Ben", Level="all")
    assert (ben["Warm-up RT (ms)"], ben["Decision time (ms)"]) == ("", "")
    trials = _csv(teacher_client.get(_session_url(played, "trials.csv")))
    (first,) = _named(trials, TRIAL_HEADER, Name="Ava", Flip="1")
    assert (first["Screen"], first["Frame interval (ms)"], first["Browser"]) == (
        "1024x768",
        "16.7",
        "Tablet A",
    )
    (other,) = _named(trials, TRIAL_HEADER, Name="Ben", Flip="1")
    assert (other["Screen"], other["Frame interval (ms)"], other["Browser"]) == ("", "", "")
