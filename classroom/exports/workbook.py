"""The Excel workbook: a "Trials" and a "Summary" sheet with the CSV files' columns."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from classroom.exports.cells import looks_like_formula
from classroom.exports.columns import header_row, value_row

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import IO

    from openpyxl.worksheet._write_only import WriteOnlyWorksheet

    from classroom.exports.cells import Cell
    from classroom.exports.columns import Column
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_BOLD = Font(bold=True)


def _cell(sheet: WriteOnlyWorksheet, value: Cell) -> Any:
    if not isinstance(value, str):
        return value  # numbers, booleans and empty cells go in as they are
    # openpyxl refuses control characters; one stray one must not break the whole download.
    text = ILLEGAL_CHARACTERS_RE.sub("", value)
    if not looks_like_formula(text):
        return text
    # openpyxl would store "=…" as a formula. A cell typed as text never runs, and the name
    # still reads exactly as typed (the CSV file needs an apostrophe instead).
    cell = WriteOnlyCell(sheet, value=text)
    cell.data_type = "s"
    return cell


def _sheet_write(
    workbook: Workbook, *, title: str, columns: Sequence[Column[Any]], rows: Iterable[Any]
) -> None:
    sheet = workbook.create_sheet(title=title)
    # Write-only sheets take their layout before the first row.
    sheet.freeze_panes = "A2"
    for index, column in enumerate(columns, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = column.width
    header = []
    for name in header_row(columns):
        cell = WriteOnlyCell(sheet, value=name)
        cell.font = _BOLD
        header.append(cell)
    sheet.append(header)
    for row in rows:
        sheet.append([_cell(sheet, value) for value in value_row(columns, row)])


def workbook_write(
    *,
    file: IO[bytes],
    trials: Iterable[TrialRow],
    summary: Iterable[SummaryRow],
    trial_columns: Sequence[Column[TrialRow]],
    summary_columns: Sequence[Column[SummaryRow]],
) -> None:
    """Write the workbook into ``file``. Write-only mode keeps rows on disk, not in memory."""
    workbook = Workbook(write_only=True)
    _sheet_write(workbook, title=_("Trials"), columns=trial_columns, rows=trials)
    _sheet_write(workbook, title=_("Summary"), columns=summary_columns, rows=summary)
    workbook.save(file)
