"""The Excel workbook: a "Trials" and a "Summary" sheet with the CSV files' columns, and an
"About" sheet that says what every column means (``classroom.exports.codebook``).

Written with rustpy-xlsxwriter (Rust's rust_xlsxwriter underneath), several times faster
than openpyxl's write-only mode or XlsxWriter's constant-memory mode on the same rows
(``tests/load/bench_xlsx_writers.py`` compares them). Each sheet is written row by row in
constant memory, so a year of trials never sits in memory whole.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from rustpy_xlsxwriter import FastExcel, Format

from classroom.exports.cells import ILLEGAL_CHARACTERS_RE
from classroom.exports.columns import header_row, value_row

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from os import PathLike
    from typing import BinaryIO

    from classroom.exports.cells import Cell
    from classroom.exports.columns import Column
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
# The About sheet's columns: narrow names, wide wrapped meanings.
_ABOUT_WIDTHS: list[float] = [22, 28, 60, 22, 60]


def _text(value: Cell) -> Cell:
    # Control characters are not allowed in a cell; one stray one in a name must not break the
    # whole download. Text is always stored as text: "=2+3" never runs as a formula.
    return ILLEGAL_CHARACTERS_RE.sub("", value) if isinstance(value, str) else value


def _records(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> Iterator[dict[str, Cell]]:
    """Rows as the writer takes them (one dict per row, keyed by the unique headers). A sheet
    without rows still gets its header: a row of blanks writes the header and no cells."""
    rows = iter(rows)
    first = next(rows, None)
    if first is None:
        yield dict.fromkeys(header)
        return
    for row in chain((first,), rows):
        yield {name: _text(value) for name, value in zip(header, row, strict=True)}


def _counted(rows: Iterable[Any], progress: Callable[[int], None] | None) -> Iterator[Any]:
    count = 0
    for row in rows:
        yield row
        count += 1
        if progress is not None and count % 1000 == 0:
            progress(count)
    if progress is not None:
        progress(count)


def workbook_write(
    *,
    file: BinaryIO | PathLike[str] | str,
    trials: Iterable[TrialRow],
    summary: Iterable[SummaryRow] | Callable[[], Iterable[SummaryRow]],
    trial_columns: Sequence[Column[TrialRow]],
    summary_columns: Sequence[Column[SummaryRow]],
    about: Sequence[Sequence[str]],
    progress: Callable[[int], None] | None = None,
) -> None:
    """Write the workbook into ``file`` (a path or a binary file). ``about`` is the About
    sheet, header first; ``progress`` hears how many trial rows are written, every 1,000.
    ``summary`` may be a function, called once the trials are written."""
    bold = Format().set_bold().set_text_wrap()
    wrap = Format().set_text_wrap()
    trial_header = header_row(trial_columns)
    summary_header = header_row(summary_columns)
    trial_values = (value_row(trial_columns, row) for row in _counted(trials, progress))

    def summary_values() -> Iterator[list[Cell]]:
        # A generator: the summary is worked out when the writer reaches its sheet.
        rows = summary() if callable(summary) else summary
        for row in rows:
            yield value_row(summary_columns, row)

    writer = FastExcel(file).freeze(row=1)
    writer.sheet(
        _("Trials"),
        _records(trial_header, trial_values),
        column_widths=[float(column.width) for column in trial_columns],
        header_format=bold,
    )
    writer.sheet(
        _("Summary"),
        _records(summary_header, summary_values()),
        column_widths=[float(column.width) for column in summary_columns],
        header_format=bold,
    )
    writer.sheet(
        _("About"),
        _records(about[0], about[1:]),
        column_widths=_ABOUT_WIDTHS[: len(about[0])],
        column_formats=[wrap] * min(len(about[0]), len(_ABOUT_WIDTHS)),
        header_format=bold,
    )
    writer.save()
