"""The downloads, as responses: file names, content types, streaming.

The CSV files and the codebook are written in the request: the trials CSV streams as it is
read (120,000 trials in about 0.3 s), the summary and the codebook are small. The workbook
takes seconds, so it is never built in a request: a background task writes it
(``classroom.services.exports``) and ``prepared_file_response`` hands the finished file over.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import FileResponse, Http404, HttpResponse, StreamingHttpResponse
from django.utils.http import content_disposition_header

from classroom.exports import workbook
from classroom.exports.columns import header_row, value_row
from classroom.exports.csv_files import csv_chunks
from classroom.exports.streaming import streamed
from classroom.exports.trial_rows import trial_rows

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import BinaryIO

    from django.http import HttpRequest
    from django.http.response import HttpResponseBase

    from classroom.exports.sources import ExportSource

TRIALS_CSV = "trials.csv"
SUMMARY_CSV = "summary.csv"
CODEBOOK_CSV = "codebook.csv"
WORKBOOK = "workbook.xlsx"
# Written in the request; the workbook is prepared in the background.
STREAMED_KINDS = frozenset({TRIALS_CSV, SUMMARY_CSV, CODEBOOK_CSV})
PREPARED_KINDS = frozenset({WORKBOOK})
KINDS = STREAMED_KINDS | PREPARED_KINDS

CSV_CONTENT_TYPE = "text/csv; charset=utf-8"


def export_filename(*, stem: str, kind: str) -> str:
    return f"snapclass-{stem}-{kind}"


def _attachment(response: HttpResponseBase, filename: str) -> None:
    response["Content-Disposition"] = content_disposition_header(True, filename)
    # Children's names: no shared cache may keep a copy.
    response["Cache-Control"] = "private, no-store"


def export_response(*, request: HttpRequest, kind: str, source: ExportSource) -> HttpResponseBase:
    """The ``kind`` download (one of ``STREAMED_KINDS``, else 404), named
    ``snapclass-<stem>-<kind>``. Headers are translated here, in the request's language,
    before streaming begins."""
    response: HttpResponseBase
    if kind == TRIALS_CSV:
        trial_cols = source.trial_columns()
        chunks = csv_chunks(
            header=header_row(trial_cols),
            rows=(
                value_row(trial_cols, row)
                for row in trial_rows(trials=source.trials, days=source.days)
            ),
        )
        response = StreamingHttpResponse(streamed(request, chunks), content_type=CSV_CONTENT_TYPE)
    elif kind == SUMMARY_CSV:
        # A row per player and level: small enough to build in one go.
        summary_cols = source.summary_columns()
        body = "".join(
            csv_chunks(
                header=header_row(summary_cols),
                rows=(value_row(summary_cols, row) for row in source.summary()),
            )
        )
        response = HttpResponse(body, content_type=CSV_CONTENT_TYPE)
    elif kind == CODEBOOK_CSV:
        header, *rows = source.codebook()
        response = HttpResponse(
            "".join(csv_chunks(header=header, rows=rows)), content_type=CSV_CONTENT_TYPE
        )
    else:
        raise Http404
    _attachment(response, export_filename(stem=source.stem, kind=kind))
    return response


def workbook_file_write(
    *,
    source: ExportSource,
    file: BinaryIO | Path | str,
    progress: Callable[[int], None] | None = None,
) -> None:
    """The workbook of ``source`` into ``file``: trials, summary and the About sheet."""
    workbook.workbook_write(
        file=file,
        trials=trial_rows(trials=source.trials, days=source.days),
        summary=source.summary,
        trial_columns=source.trial_columns(),
        summary_columns=source.summary_columns(),
        about=source.codebook(),
        progress=progress,
    )


def prepared_file_response(*, path: Path, kind: str, stem: str) -> FileResponse:
    """A file a background task prepared, as its download."""
    response = FileResponse(path.open("rb"), content_type=workbook.CONTENT_TYPE)
    _attachment(response, export_filename(stem=stem, kind=kind))
    return response
