"""The three kinds of download, as responses: file names, content types, streaming."""

from __future__ import annotations

import tempfile
from typing import TYPE_CHECKING

from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from classroom.exports import workbook
from classroom.exports.columns import header_row, summary_columns, trial_columns, value_row
from classroom.exports.csv_files import csv_chunks
from classroom.exports.streaming import streamed
from classroom.exports.trial_rows import trial_rows

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence
    from typing import IO

    from django.db.models import QuerySet
    from django.http import HttpRequest
    from django.http.response import HttpResponseBase

    from classroom.exports.summary_rows import SummaryRow
    from classroom.models import SchoolClass, Trial

TRIALS_CSV = "trials.csv"
SUMMARY_CSV = "summary.csv"
WORKBOOK = "workbook.xlsx"
KINDS = frozenset({TRIALS_CSV, SUMMARY_CSV, WORKBOOK})

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"
_FILE_CHUNK = 64 * 1024


def class_file_stem(*, school_class: SchoolClass) -> str:
    # Unicode slugs keep 三年甲班 readable; a name of symbols only still needs a file name.
    return slugify(school_class.name, allow_unicode=True) or f"class-{school_class.pk}"


def _attachment(response: HttpResponseBase, filename: str) -> None:
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # Children's names: no shared cache may keep a copy.
    response["Cache-Control"] = "private, no-store"


def _file_chunks(file: IO[bytes]) -> Iterator[bytes]:
    with file:
        file.seek(0)
        while chunk := file.read(_FILE_CHUNK):
            yield chunk


def export_response(
    *,
    request: HttpRequest,
    kind: str,
    stem: str,
    trials: QuerySet[Trial],
    summary: Callable[[], list[SummaryRow]],
    games: Sequence[str],
) -> HttpResponseBase:
    """The ``kind`` download (one of ``KINDS``, else 404) named ``snapclass-<stem>-<kind>``.

    ``summary`` is only called for the files that hold one. Headers are translated here, in
    the request's language, before streaming begins.
    """
    filename = f"snapclass-{stem}-{kind}"
    # Each game's own columns (``GameSite``), for the games in the file.
    trial_cols, summary_cols = trial_columns(games), summary_columns(games)
    response: HttpResponseBase
    if kind == TRIALS_CSV:
        chunks = csv_chunks(
            header=header_row(trial_cols),
            rows=(value_row(trial_cols, row) for row in trial_rows(trials=trials)),
        )
        response = StreamingHttpResponse(streamed(request, chunks), content_type=CSV_CONTENT_TYPE)
    elif kind == SUMMARY_CSV:
        # A row per player and level: small enough to build in one go.
        body = "".join(
            csv_chunks(
                header=header_row(summary_cols),
                rows=(value_row(summary_cols, row) for row in summary()),
            )
        )
        response = HttpResponse(body, content_type=CSV_CONTENT_TYPE)
    elif kind == WORKBOOK:
        # The zip is written to a temporary file (on disk past 1 MB), then streamed from it.
        file = tempfile.SpooledTemporaryFile(max_size=1024 * 1024)  # noqa: SIM115 (closed by _file_chunks)
        try:
            workbook.workbook_write(
                file=file,
                trials=trial_rows(trials=trials),
                summary=summary(),
                trial_columns=trial_cols,
                summary_columns=summary_cols,
            )
        except BaseException:
            file.close()
            raise
        response = StreamingHttpResponse(
            streamed(request, _file_chunks(file)), content_type=workbook.CONTENT_TYPE
        )
    else:
        raise Http404
    _attachment(response, filename)
    return response
