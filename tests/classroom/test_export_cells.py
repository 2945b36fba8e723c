"""The spreadsheet formula guard catches full-width and look-alike starters too."""

from __future__ import annotations

import csv
import io

import pytest
from openpyxl import Workbook

from classroom.exports.cells import csv_text, looks_like_formula
from classroom.exports.workbook import _cell

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


def test_a_full_width_formula_stays_text_in_a_workbook() -> None:
    sheet = Workbook(write_only=True).create_sheet()
    cell = _cell(sheet, "＝1+1")
    assert getattr(cell, "data_type", None) == "s"
    assert cell.value == "＝1+1"


def test_a_full_width_formula_in_a_csv_row_reads_back_as_text() -> None:
    buffer = io.StringIO()
    csv.writer(buffer).writerow([csv_text('＝HYPERLINK("x")')])
    assert next(csv.reader(io.StringIO(buffer.getvalue())))[0].startswith("'")
