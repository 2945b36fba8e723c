"""The spreadsheet formula guard catches full-width and look-alike starters too."""

from __future__ import annotations

import csv
import io
import re

import openpyxl
import pytest

from classroom.exports.cells import csv_text, looks_like_formula
from classroom.exports.columns import Column
from classroom.exports.workbook import workbook_write

SNEAKY = [
    "=1+1",
    "+1+1",
    "-1+1",
    "@SUM(A1)",
    "\t=1+1",
    "\r=1+1",
    "\n=1+1",
    "＝1+1",  # full-width equals: what a Chinese keyboard types
    "＋1+1",
    "－1+1",
    "＠SUM(A1)",
    "﹦1+1",  # small equals
    "⁼1+1",  # superscript equals
    "₊1",  # subscript plus
    "\u22121+1",  # minus sign
    " =1+1",  # after a space some spreadsheets trim
    "\u3000＝1+1",  # after an ideographic space
]
PLAIN = ["Ava", "陳小明", "Ava=Ben", "1+1", "", "—", "'quoted", "Zoë"]


@pytest.mark.parametrize("text", SNEAKY)
def test_formula_starters_and_their_look_alikes_are_caught(text: str) -> None:
    assert looks_like_formula(text)
    assert csv_text(text) == f"'{text}"


@pytest.mark.parametrize("text", PLAIN)
def test_plain_text_is_left_alone(text: str) -> None:
    assert not looks_like_formula(text)
    assert csv_text(text) == text


def test_formula_starters_stay_text_in_a_workbook() -> None:
    # Names as the workbook writes them: stored as text, shown exactly as typed, never run.
    names = [*SNEAKY, "a\x01b"]
    column: Column[str] = Column("Name", lambda name: name, 20)  # type: ignore[arg-type]
    buffer = io.BytesIO()
    workbook_write(
        file=buffer,
        trials=names,  # type: ignore[arg-type]
        summary=[],
        trial_columns=[column],  # type: ignore[list-item]
        summary_columns=[],
        about=[["Section"]],
    )
    sheet = openpyxl.load_workbook(io.BytesIO(buffer.getvalue())).worksheets[0]
    cells = [row[0] for row in sheet.iter_rows(min_row=2)]
    assert [cell.data_type for cell in cells] == ["s"] * len(names)
    # A control character would break the file: it is dropped, the rest kept. (A carriage
    # return is written as the standard escape _x000D_, which Excel reads back as one.)
    values = [re.sub("_x000D_", "\r", cell.value) for cell in cells]
    assert values == [*SNEAKY, "ab"]


def test_a_full_width_formula_in_a_csv_row_reads_back_as_text() -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerow([csv_text('＝HYPERLINK("x")')])
    assert next(csv.reader(io.StringIO(buffer.getvalue())))[0].startswith("'")
