"""CSV files, written in chunks so a long file never sits in memory as a whole."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from classroom.exports.cells import csv_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Sequence

    from classroom.exports.cells import Cell

# Excel reads a CSV file without one as the local code page and garbles 繁體中文 names.
BYTE_ORDER_MARK = "\ufeff"
ROWS_PER_CHUNK = 1000


def _csv_cell(value: Cell) -> str | int | float:
    if value is None:
        return ""
    if isinstance(value, bool):  # before int: a bool is an int
        return "TRUE" if value else "FALSE"
    if isinstance(value, str):
        return csv_text(value)
    return value


def csv_chunks(*, header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> Iterator[str]:
    """The file as text chunks of ``ROWS_PER_CHUNK`` rows: the byte order mark and header
    first, rows as they come from ``rows`` (which may be a database cursor)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    buffer.write(BYTE_ORDER_MARK)
    writer.writerow([csv_text(name) for name in header])
    for count, row in enumerate(rows, start=1):
        writer.writerow([_csv_cell(value) for value in row])
        if count % ROWS_PER_CHUNK == 0:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
