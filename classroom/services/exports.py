"""Files prepared in the background: asking for one, building it in a task worker, and
keeping the finished file for its owner.

Three kinds take seconds at a year's data, so they are never built in a request: a session's
or a class's workbook (``WORKBOOK``, a download), a class's printed progress reports
(``REPORTS``, one page per student, which the print page shows) and reports for home
(``HOME``, a child's page or the class's set, a whole HTML page to print or save as PDF). A
teacher's "Prepare" makes an ``Export`` row and enqueues ``classroom.tasks.export_build``
(Django's Tasks framework, ``django-tasks``; the database backend by default, run by
``manage.py tasks_worker``). The worker builds the file into ``EXPORTS_ROOT/<owner>/``,
reporting its progress on the row, and the page's progress bar polls the row. The finished
file stays until the owner prepares that file again (or the session or class goes, or a
student leaves the class), so showing it again costs nothing.
"""

from __future__ import annotations

import logging
import secrets
import time
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from classroom.events import ExportRequested, event_publish_now
from classroom.exports.downloads import WORKBOOK, workbook_file_write
from classroom.exports.sources import class_source, session_source
from classroom.models import Export
from classroom.reports.home import home_reports_context
from classroom.reports.progress import class_reports_context

if TYPE_CHECKING:
    from datetime import datetime

    from django.contrib.auth.models import User

    from classroom.exports.sources import ExportSource
    from classroom.models import GameSession, SchoolClass, Student

logger = logging.getLogger(__name__)

# A queued export no worker took after this long, or a running one whose progress stood
# still this long, is shown as stuck, with a retry.
QUEUED_PATIENCE = timedelta(seconds=60)
RUNNING_PATIENCE = timedelta(minutes=3)
# A file no export holds is deleted once it is this old (see export_files_tidy).
TIDY_AFTER = timedelta(minutes=10)
# Progress is written at most this often (each write is a short database transaction).
_PROGRESS_EVERY_S = 1.0

# A class's printed progress reports: an HTML fragment the print page shows.
REPORTS = "reports.html"
# Reports for home: a whole page, one printed page per child, in the language asked for.
HOME = "home.html"
PREPARED_KINDS = frozenset({WORKBOOK, REPORTS, HOME})
HTML_KINDS = frozenset({REPORTS, HOME})
REPORTS_TEMPLATE = "classroom/_progress_reports.html"
HOME_TEMPLATE = "classroom/home_report.html"


class ExportRefused(ValueError):
    """A download that cannot be prepared; the message says why, for the teacher."""


def exports_root() -> Path:
    return Path(settings.EXPORTS_ROOT)


def export_file_path(export: Export) -> Path | None:
    """The finished file of ``export``, if it is there."""
    if export.status != Export.Status.READY or not export.path:
        return None
    path = exports_root() / export.path
    return path if path.is_file() else None


def export_is_stuck(export: Export, *, now: datetime | None = None) -> bool:
    """No worker took it, or its worker stopped: the page offers to try again."""
    moment = now or timezone.now()
    if export.status == Export.Status.QUEUED:
        return moment - export.created_at > QUEUED_PATIENCE
    if export.status == Export.Status.RUNNING:
        last = export.updated_at or export.started_at or export.created_at
        return moment - last > RUNNING_PATIENCE
    return False


def export_prepare(
    *,
    owner: User,
    kind: str,
    session: GameSession | None = None,
    school_class: SchoolClass | None = None,
    game: str = "",
    student: Student | None = None,
    period: str = "",
) -> Export:
    """Ask for ``kind`` of the session or class to be built in the background, in the active
    language (printed reports: of one ``game`` of the class, or of every game; reports for
    home: of one ``student`` of the class or all of them, over ``period``). While one is
    already waiting or being built (a second click, a second tab), that one is the answer: the
    same file is never built twice at once."""
    if kind not in PREPARED_KINDS:
        raise ExportRefused(_("That kind of file is not prepared in the background."))
    if (session is None) == (school_class is None):
        raise ExportRefused(_("Say which session or class the file is of."))
    if kind in HTML_KINDS and school_class is None:
        raise ExportRefused(_("Printed reports are prepared for a class."))
    if student is not None and (
        kind != HOME or school_class is None or student.school_class_id != school_class.pk
    ):
        raise ExportRefused(_("That student is not in this class."))
    if kind != REPORTS:
        game = ""
    if kind != HOME:
        period = ""
    target = {"session": session} if session is not None else {"school_class": school_class}
    language = translation.get_language() or "en"
    pending = (
        Export.objects.filter(owner=owner, kind=kind, game=game, student=student, period=period)
        .filter(**target, **_same_language(kind, language))
        .filter(status__in=[Export.Status.QUEUED, Export.Status.RUNNING])
        .order_by("-created_at", "-pk")
        .first()
    )
    if pending is not None and not export_is_stuck(pending):
        return pending
    if pending is not None:
        _fail(pending, _("The export worker stopped before the file was ready."))
    export = Export.objects.create(
        owner=owner,
        kind=kind,
        game=game,
        student=student,
        period=period,
        language=language,
        **target,
    )
    return _enqueue(export)


def _same_language(kind: str, language: str) -> dict[str, str]:
    """A report for home in one language does not stand for one in another (a family may
    need both); the other kinds are one file whatever language they were asked in."""
    return {"language": language} if kind == HOME else {}


def export_retry(*, export: Export) -> Export:
    """Prepare the same file again after a failure (or when it is stuck)."""
    if export.status == Export.Status.READY:
        raise ExportRefused(_("This file is ready: download it, or prepare it again."))
    if not export.is_finished and not export_is_stuck(export):
        raise ExportRefused(_("This file is still being prepared."))
    with translation.override(export.language):
        return export_prepare(
            owner=export.owner,
            kind=export.kind,
            session=export.session,
            school_class=export.school_class,
            game=export.game,
            student=export.student,
            period=export.period,
        )


def _enqueue(export: Export) -> Export:
    # The task worker's side queues the build and records its task (``export_task_record``).
    event_publish_now(event=ExportRequested(export_id=export.pk))
    export.refresh_from_db()
    return export


def export_task_record(*, export_id: int, task_id: str) -> None:
    """Remember which background task builds the export."""
    Export.objects.filter(pk=export_id).update(task_id=task_id[:64])


def _source(export: Export) -> ExportSource:
    if export.session is not None:
        return session_source(session=export.session)
    assert export.school_class is not None
    return class_source(school_class=export.school_class)


def _fail(export: Export, message: str) -> None:
    Export.objects.filter(pk=export.pk).update(
        status=Export.Status.FAILED, error=message[:300], finished_at=timezone.now()
    )


class _Progress:
    """Writes how far the build is (trials written, or students' reports), at most once a
    second (the page asks as often)."""

    def __init__(self, export: Export) -> None:
        self.export_id = export.pk
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if now - self.last < _PROGRESS_EVERY_S:
            return
        self.last = now
        Export.objects.filter(pk=self.export_id).update(done=done, updated_at=timezone.now())


def export_run(*, export_id: int) -> str:
    """Build the export's file (the task's body). Returns the file's path under
    ``EXPORTS_ROOT``; a failure is written on the row in words for the teacher, and raised for
    the worker's log."""
    export = Export.objects.select_related("session", "school_class", "student").get(pk=export_id)
    if export.status != Export.Status.QUEUED:
        return export.path  # done already (a task run twice), or given up on
    now = timezone.now()
    started = Export.objects.filter(pk=export.pk, status=Export.Status.QUEUED).update(
        status=Export.Status.RUNNING, started_at=now, updated_at=now
    )
    if not started:
        return ""
    folder = exports_root() / str(export.owner_id)
    suffix = ".html" if export.kind in HTML_KINDS else ".xlsx"
    name = f"{export.pk}-{secrets.token_hex(8)}{suffix}"
    part = folder / f"{name}.part"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with translation.override(export.language):
            if export.kind == REPORTS:
                _reports_write(export, part)
            elif export.kind == HOME:
                _home_write(export, part)
            else:
                _workbook_write(export, part)
        part.rename(folder / name)
    except OSError as error:
        part.unlink(missing_ok=True)
        logger.exception("export %s failed", export.pk)
        _fail(
            export,
            _("The server could not write the file (%(reason)s).")
            % {"reason": error.strerror or type(error).__name__},
        )
        raise
    except Exception:
        part.unlink(missing_ok=True)
        logger.exception("export %s failed", export.pk)
        _fail(export, _("Something went wrong while the file was prepared."))
        raise
    relative = f"{export.owner_id}/{name}"
    export.refresh_from_db()
    export.status = Export.Status.READY
    export.path = relative
    export.size = (folder / name).stat().st_size
    export.total = max(export.total, export.done)  # trials recorded while it was built
    export.done = export.total
    export.finished_at = export.updated_at = timezone.now()
    export.save(update_fields=["status", "path", "size", "done", "finished_at", "updated_at"])
    _older_remove(export)
    return relative


def _workbook_write(export: Export, part: Path) -> None:
    source = _source(export)
    Export.objects.filter(pk=export.pk).update(total=source.trials.count())
    workbook_file_write(source=source, file=part, progress=_Progress(export))


def _reports_write(export: Export, part: Path) -> None:
    """The class's printed reports, a page per student (done/total count students)."""
    school_class = export.school_class
    assert school_class is not None  # export_prepare refuses reports of a session
    students = list(school_class.students.order_by("display_name", "pk"))
    Export.objects.filter(pk=export.pk).update(total=len(students))
    context = class_reports_context(
        school_class=school_class,
        game=export.game or None,
        students=students,
        on_report=_Progress(export),
    )
    part.write_text(render_to_string(REPORTS_TEMPLATE, context), encoding="utf-8")


def _home_write(export: Export, part: Path) -> None:
    """Reports for home: the child's page, or the class's set (done/total count children)."""
    school_class = export.school_class
    assert school_class is not None  # export_prepare refuses them of a session
    students = (
        [export.student]
        if export.student is not None
        else list(school_class.students.order_by("display_name", "pk"))
    )
    Export.objects.filter(pk=export.pk).update(total=len(students))
    context = home_reports_context(
        school_class=school_class,
        students=students,
        period=export.period,
        on_report=_Progress(export),
    )
    html = render_to_string(HOME_TEMPLATE, {**context, "language": export.language})
    part.write_text(html, encoding="utf-8")


def export_html(export: Export) -> str | None:
    """A prepared HTML file's text (printed reports), if it is ready and still there. The
    site wrote it from its own template, escaped as any page, so it is shown as it is."""
    path = export_file_path(export)
    if path is None or path.suffix != ".html":
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def class_exports_discard(*, school_class: SchoolClass) -> int:
    """Delete every file prepared of the class and of its sessions, for every teacher of it;
    returns how many. A student who leaves the class is named in all of them, and their name
    leaves with them from every download too."""
    exports = Export.objects.filter(school_class=school_class) | Export.objects.filter(
        session__school_class=school_class
    )
    owners = set(exports.values_list("owner_id", flat=True))
    for export in exports:
        if export.path:
            (exports_root() / export.path).unlink(missing_ok=True)
    count, _per_model = exports.delete()
    for owner_id in owners:
        export_files_tidy(owner_id=owner_id)
    return count


def _older_remove(export: Export) -> None:
    """A new file of the same thing replaces the owner's older ones (and their files)."""
    older = Export.objects.filter(
        owner=export.owner_id,
        kind=export.kind,
        game=export.game,
        session=export.session_id,
        school_class=export.school_class_id,
        student=export.student_id,
        period=export.period,
        status__in=[Export.Status.READY, Export.Status.FAILED],
        created_at__lte=export.created_at,
        **_same_language(export.kind, export.language),
    ).exclude(pk=export.pk)
    for stale in older:
        if stale.path:
            (exports_root() / stale.path).unlink(missing_ok=True)
    older.delete()
    export_files_tidy(owner_id=export.owner_id)


def export_files_tidy(*, owner_id: int) -> int:
    """Delete files in the owner's folder that no export holds (their session or class was
    deleted, or a build was cut off); returns how many went. Files written in the last
    ``TIDY_AFTER`` are left alone: another worker may be just about to record one."""
    folder = exports_root() / str(owner_id)
    if not folder.is_dir():
        return 0
    kept = set(Export.objects.filter(owner_id=owner_id).values_list("path", flat=True))
    settled = time.time() - TIDY_AFTER.total_seconds()
    removed = 0
    for path in folder.iterdir():
        if f"{owner_id}/{path.name}" in kept or not path.is_file():
            continue
        if path.stat().st_mtime < settled:
            path.unlink(missing_ok=True)
            removed += 1
    return removed
