"""Prepared downloads: asking, building in the task, failing clearly, keeping the file."""

from __future__ import annotations

import io
import os
import time
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import openpyxl
import pytest
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from classroom.exports import downloads
from classroom.exports.downloads import WORKBOOK, workbook_file_write
from classroom.exports.sources import class_source, session_source
from classroom.models import Export, Trial
from classroom.selectors.exports import exports_waiting
from classroom.selectors.tasks import tasks_waiting
from classroom.services import exports as services
from classroom.services.exports import (
    ExportRefused,
    export_file_path,
    export_is_stuck,
    export_prepare,
    export_retry,
    export_run,
)
from classroom.services.seats import seat_join_student

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from django.contrib.auth.models import User

    from classroom.models import GameSession, SchoolClass

DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
IMMEDIATE_TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


@pytest.fixture(autouse=True)
def exports_root(settings: Any, tmp_path: Path) -> Path:
    settings.EXPORTS_ROOT = tmp_path / "exports"
    settings.TASKS = DATABASE_TASKS
    return tmp_path / "exports"


def _played(session: GameSession, school_class: SchoolClass, flips: int = 6) -> None:
    seats = [
        seat_join_student(session=session, student=student)
        for student in school_class.students.order_by("display_name")[:3]
    ]
    for seat in seats:
        seat.refresh_from_db()
        assert seat.table is not None
        for flip in range(1, flips + 1):
            Trial.objects.create(
                session=session, table=seat.table, seat=seat, student=seat.student,
                log_seq=flip, game="palm_strike", kind="palm_strike.flip", level="beginner",
                target=flip % 2 == 0, responded=flip % 3 == 0, correct=flip % 2 == 0,
                congruent=flip % 4 == 0, rt_ms=400 + 10 * flip if flip % 3 == 0 else None,
                data={"flip": flip, "public": {"word": "red", "ink": "blue", "bg": "green"}},
            )  # fmt: skip


def _cells(source: bytes | Path) -> dict[str, list[list[Any]]]:
    """Every sheet's values, the About sheet's export time left out (it is when it ran)."""
    data = source if isinstance(source, bytes) else source.read_bytes()
    workbook = openpyxl.load_workbook(io.BytesIO(data))
    sheets = {
        sheet.title: [list(row) for row in sheet.iter_rows(values_only=True)]
        for sheet in workbook.worksheets
    }
    sheets["About"] = [row for row in sheets["About"] if row[1] != "Exported at"]
    return sheets


def test_prepare_queues_a_task_and_the_worker_builds_the_file(
    teacher: User, class_session: GameSession, school_class: SchoolClass, exports_root: Path
) -> None:
    _played(class_session, school_class)
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    assert export.status == Export.Status.QUEUED
    assert export.task_id
    assert DBTaskResult.objects.get(id=export.task_id).status == "READY"
    assert tasks_waiting() == {"queued": 1, "running": 0}
    assert exports_waiting() == {"queued": 1, "running": 0}
    # A second click while it waits: the same export, no second task.
    assert export_prepare(owner=teacher, kind=WORKBOOK, session=class_session).pk == export.pk
    assert DBTaskResult.objects.count() == 1

    path = export_run(export_id=export.pk)

    export.refresh_from_db()
    assert export.status == Export.Status.READY
    assert export.done == export.total == 18
    assert export.path == path
    assert export.size > 0
    found = export_file_path(export)
    assert found is not None
    assert found.parent == exports_root / str(teacher.pk)
    assert not list(found.parent.glob("*.part"))


def test_a_task_run_writes_the_same_workbook_as_the_in_process_export(
    teacher: User, class_session: GameSession, school_class: SchoolClass
) -> None:
    _played(class_session, school_class)
    export = export_prepare(owner=teacher, kind=WORKBOOK, school_class=school_class)
    export_run(export_id=export.pk)
    export.refresh_from_db()
    built = export_file_path(export)
    assert built is not None

    in_process = io.BytesIO()
    workbook_file_write(source=class_source(school_class=school_class), file=in_process)

    assert _cells(built) == _cells(in_process.getvalue())
    sheets = _cells(built)
    assert len(sheets["Trials"]) == 1 + 18
    assert sheets["Summary"][0][:3] == ["Name", "Game", "Level"]


def test_the_worker_command_runs_the_queued_export(
    teacher: User, class_session: GameSession, school_class: SchoolClass, transactional_db: None
) -> None:
    _played(class_session, school_class, flips=2)
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--niceness", "0", "-v", "0")
    export.refresh_from_db()
    assert export.status == Export.Status.READY
    assert DBTaskResult.objects.get(id=export.task_id).status == "SUCCESSFUL"
    assert tasks_waiting() == {"queued": 0, "running": 0}


def test_a_failed_build_says_so_leaves_no_file_and_can_be_retried(
    teacher: User,
    class_session: GameSession,
    monkeypatch: pytest.MonkeyPatch,
    exports_root: Path,
) -> None:
    def broken(**_kwargs: Any) -> None:
        (exports_root / str(teacher.pk) / "half.xlsx.part").write_bytes(b"half")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services, "workbook_file_write", broken)
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    with pytest.raises(OSError, match="No space"):
        export_run(export_id=export.pk)
    export.refresh_from_db()
    assert export.status == Export.Status.FAILED
    assert export.error == "The server could not write the file (No space left on device)."
    assert export_file_path(export) is None

    monkeypatch.undo()
    again = export_retry(export=export)
    assert again.pk != export.pk
    assert again.status == Export.Status.QUEUED
    export_run(export_id=again.pk)
    again.refresh_from_db()
    assert again.status == Export.Status.READY
    # The failed one is gone with the new file's arrival (the cut-off part at the next tidy-up
    # once it is old).
    assert not Export.objects.filter(pk=export.pk).exists()
    assert export_file_path(again) is not None


def test_an_unexpected_error_is_told_in_plain_words(
    teacher: User, class_session: GameSession, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        services, "workbook_file_write", lambda **_kwargs: (_ for _ in ()).throw(KeyError("x"))
    )
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    with pytest.raises(KeyError):
        export_run(export_id=export.pk)
    export.refresh_from_db()
    assert (export.status, export.error) == (
        Export.Status.FAILED,
        "Something went wrong while the file was prepared.",
    )


def test_preparing_again_replaces_the_older_file(
    teacher: User, class_session: GameSession, exports_root: Path
) -> None:
    first = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    export_run(export_id=first.pk)
    first.refresh_from_db()
    old_file = export_file_path(first)
    assert old_file is not None
    second = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    assert second.pk != first.pk  # a ready file does not stop a fresh one
    export_run(export_id=second.pk)
    assert not old_file.exists()
    assert list(Export.objects.values_list("pk", flat=True)) == [second.pk]


def test_a_task_run_twice_builds_once(teacher: User, class_session: GameSession) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    path = export_run(export_id=export.pk)
    assert export_run(export_id=export.pk) == path


def test_an_export_no_worker_took_is_stuck_and_a_new_one_replaces_it(
    teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    assert not export_is_stuck(export)
    later = timezone.now() + timedelta(minutes=2)
    assert export_is_stuck(export, now=later)
    Export.objects.filter(pk=export.pk).update(created_at=timezone.now() - timedelta(minutes=2))
    fresh = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    assert fresh.pk != export.pk
    export.refresh_from_db()
    assert export.status == Export.Status.FAILED
    assert "worker stopped" in export.error


def test_a_running_export_whose_progress_stands_still_is_stuck(
    teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    export.status = Export.Status.RUNNING
    export.updated_at = timezone.now()
    assert not export_is_stuck(export, now=timezone.now() + timedelta(minutes=1))
    assert export_is_stuck(export, now=timezone.now() + timedelta(minutes=4))


@pytest.mark.parametrize(
    "kind", ["trials.csv", "summary.csv", "codebook.csv", "x.xlsx", "reports.html"]
)
def test_only_the_workbook_is_prepared(
    teacher: User, class_session: GameSession, kind: str
) -> None:
    with pytest.raises(ExportRefused):
        export_prepare(owner=teacher, kind=kind, session=class_session)
    assert not Export.objects.exists()


def test_a_session_or_a_class_but_not_both(
    teacher: User, class_session: GameSession, school_class: SchoolClass
) -> None:
    with pytest.raises(ExportRefused, match="which session or class"):
        export_prepare(
            owner=teacher, kind=WORKBOOK, session=class_session, school_class=school_class
        )
    with pytest.raises(ExportRefused):
        export_prepare(owner=teacher, kind=WORKBOOK)
    assert not Export.objects.exists()


def test_a_ready_or_running_export_is_not_retried(
    teacher: User, class_session: GameSession
) -> None:
    export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    with pytest.raises(ExportRefused, match="still being prepared"):
        export_retry(export=export)
    export_run(export_id=export.pk)
    export.refresh_from_db()
    with pytest.raises(ExportRefused, match="ready"):
        export_retry(export=export)


def test_files_of_deleted_sessions_are_tidied(
    teacher: User, make_session: Callable[..., GameSession], exports_root: Path
) -> None:
    gone = make_session()
    kept = make_session()
    for session in (gone, kept):
        export = export_prepare(owner=teacher, kind=WORKBOOK, session=session)
        export_run(export_id=export.pk)
    gone.delete()  # its export row goes with it; its file stays until the tidy-up
    files = list((exports_root / str(teacher.pk)).iterdir())
    assert len(files) == 2
    assert services.export_files_tidy(owner_id=teacher.pk) == 0  # too new to be sure
    an_hour_ago = time.time() - 3600
    for path in files:
        os.utime(path, (an_hour_ago, an_hour_ago))
    assert services.export_files_tidy(owner_id=teacher.pk) == 1
    assert export_file_path(Export.objects.get()) is not None


def test_the_workbook_is_written_in_the_language_it_was_asked_in(
    teacher: User, class_session: GameSession, school_class: SchoolClass
) -> None:
    from django.utils import translation

    _played(class_session, school_class, flips=1)
    with translation.override("zh-hant"):
        export = export_prepare(owner=teacher, kind=WORKBOOK, session=class_session)
    assert export.language == "zh-hant"
    export_run(export_id=export.pk)
    export.refresh_from_db()
    path = export_file_path(export)
    assert path is not None
    sheets = openpyxl.load_workbook(path).sheetnames
    assert sheets[0] != "Trials"  # the sheet names are translated too


def test_the_source_of_a_session_names_its_game_only(class_session: GameSession) -> None:
    assert list(session_source(session=class_session).games) == ["palm_strike"]
    assert downloads.export_filename(stem="ABC", kind=WORKBOOK) == "snapclass-ABC-workbook.xlsx"
