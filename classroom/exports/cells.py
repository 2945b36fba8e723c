"""What one exported cell may hold, and how a cell is kept from running as a formula."""

from __future__ import annotations

import re
import unicodedata

Cell = str | int | float | bool | None

# A spreadsheet runs a text cell that starts with one of these as a formula (OWASP's "CSV
# injection" list). Names are typed by teachers and children, so "=HYPERLINK(…)" is possible.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r", "\n")
# Spreadsheets also read look-alikes as these: the full-width forms a Chinese keyboard types
# (U+FF1D, U+FF0B, U+FF0D, U+FF20), small and superscript signs (U+FE66, U+207C, U+208A): NFKC
# folds all of them; the minus sign U+2212 it keeps, so it is listed.
_MINUS_SIGN = "\u2212"
# Spaces some spreadsheets trim before they look for a formula.
_LEADING_SPACES = " \u00a0\u3000"


# Control characters a cell of an .xlsx file may not hold (tab, line feed and carriage return
# may): the same set openpyxl refuses.
ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")


def looks_like_formula(text: str) -> bool:
    if text.startswith(FORMULA_TRIGGERS):
        return True
    head = unicodedata.normalize("NFKC", text.lstrip(_LEADING_SPACES)[:1])
    return head.startswith((*FORMULA_TRIGGERS, _MINUS_SIGN))


def csv_text(text: str) -> str:
    """The text as a CSV cell: a leading apostrophe makes spreadsheets show it as text."""
    return f"'{text}" if looks_like_formula(text) else text


def rounded(value: float | None, places: int) -> float | int | None:
    """``None`` stays empty; whole milliseconds come out as integers, not ``412.0``."""
    if value is None:
        return None
    if places == 0:
        return round(value)
    return round(value, places)
