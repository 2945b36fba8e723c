"""Time xlsx writers on the same rows: 120,000 trial rows of the Trials sheet's 22 columns.

    python tests/load/bench_xlsx_writers.py [--rows 120000]

Each writer runs in a process of its own (so its peak memory is its own) and writes a bold,
frozen header and the rows, as the workbook does. A writer that is not installed is listed as
such (only rustpy-xlsxwriter and openpyxl are Snapclass's own packages; `pip install xlsxwriter
pyexcelerate lxml` to time the others). Prints one JSON line per writer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

HEADER = [
    "Session", "Session date", "Game", "Game number", "Table", "Name", "Level", "Practice",
    "Adaptive level", "Accommodation", "Flip", "Public card word", "Public card ink",
    "Public card background", "Target", "Congruent", "Response", "RT (ms)", "Correct", "First",
    "Plausible", "Recorded at",
]  # fmt: skip
COLOURS = ["red", "yellow", "blue", "green", "purple"]


def rows(count: int) -> Iterator[list[Any]]:
    rng = random.Random(1)
    names = [f"Student {n}" for n in range(30)]
    for n in range(count):
        target = rng.random() < 0.5
        yield [
            "ABC123", "2026-11-30", "palm_strike", 1, rng.randint(1, 8), names[n % 30],
            "beginner", False, None, None, n % 200, rng.choice(COLOURS), rng.choice(COLOURS),
            rng.choice(COLOURS), target, rng.random() < 0.5, "slap" if target else "none",
            rng.randint(250, 1500) if target else None, True, False, True,
            f"2026-11-30T10:{n // 60 % 60:02d}:{n % 60:02d}.123+00:00",
        ]  # fmt: skip


def _rustpy(path: str, count: int) -> None:
    from rustpy_xlsxwriter import FastExcel, Format

    records = (dict(zip(HEADER, row, strict=True)) for row in rows(count))
    FastExcel(path).freeze(row=1).sheet("Trials", records, header_format=Format().set_bold()).save()


def _openpyxl(path: str, count: int) -> None:
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Font

    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet("Trials")
    sheet.freeze_panes = "A2"
    header = []
    for name in HEADER:
        cell = WriteOnlyCell(sheet, value=name)
        cell.font = Font(bold=True)
        header.append(cell)
    sheet.append(header)
    for row in rows(count):
        sheet.append(row)
    workbook.save(path)


def _xlsxwriter(path: str, count: int) -> None:
    import xlsxwriter

    workbook = xlsxwriter.Workbook(path, {"constant_memory": True})
    sheet = workbook.add_worksheet("Trials")
    sheet.freeze_panes(1, 0)
    sheet.write_row(0, 0, HEADER, workbook.add_format({"bold": True}))
    for number, row in enumerate(rows(count), start=1):
        sheet.write_row(number, 0, row)
    workbook.close()


def _pyexcelerate(path: str, count: int) -> None:
    from pyexcelerate import Workbook

    workbook = Workbook()
    workbook.new_sheet("Trials", data=[HEADER, *rows(count)])
    workbook.save(path)


WRITERS = {
    "rustpy-xlsxwriter": ("rustpy_xlsxwriter", _rustpy),
    "openpyxl write-only": ("openpyxl", _openpyxl),
    "xlsxwriter constant_memory": ("xlsxwriter", _xlsxwriter),
    "pyexcelerate": ("pyexcelerate", _pyexcelerate),
}


def _one(name: str, count: int) -> dict[str, Any]:
    module, write = WRITERS[name]
    try:
        __import__(module)
    except ImportError:
        return {"writer": name, "installed": False}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "bench.xlsx")
        cpu, wall = time.process_time(), time.perf_counter()
        write(path, count)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        size = os.path.getsize(path)
    result = {
        "writer": name,
        "rows": count,
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
        "size_kb": size // 1024,
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }
    if module == "openpyxl":
        import openpyxl.xml

        result["lxml"] = bool(openpyxl.xml.LXML)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=120_000)
    parser.add_argument("--writer", choices=sorted(WRITERS))
    args = parser.parse_args()
    if args.writer:
        print(json.dumps(_one(args.writer, args.rows)))
        return
    for name in WRITERS:
        subprocess.run(
            [sys.executable, __file__, "--rows", str(args.rows), "--writer", name], check=True
        )


if __name__ == "__main__":
    main()
