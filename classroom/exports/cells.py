"""What one exported cell may hold, and how a cell is kept from running as a formula."""

from __future__ import annotations

Cell = str | int | float | bool | None

# A spreadsheet runs a text cell that starts with one of these as a formula (OWASP's "CSV
# injection" list). Names are typed by teachers and children, so "=HYPERLINK(…)" is possible.
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def looks_like_formula(text: str) -> bool:
    return text.startswith(FORMULA_TRIGGERS)


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
