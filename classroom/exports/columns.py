"""The columns of every export, in one place for the CSV files and the workbook alike.

Headers are translated when a file is written (English source strings); values are raw data
(levels, colours and responses as the game records them) so files from either language
can be pooled. Rounding: two decimals, reaction times in whole milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from classroom.exports.cells import rounded
from classroom.gamesite import game_site

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from django_stubs_ext import StrPromise

    from classroom.exports.cells import Cell
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow
    from classroom.gamesite.contract import Measure

R = TypeVar("R")


@dataclass(frozen=True)
class Column(Generic[R]):
    header: StrPromise
    value: Callable[[R], Cell]
    width: int  # in characters, for the workbook


def header_row(columns: Sequence[Column[Any]]) -> list[str]:
    """The headers in the active language (resolve before streaming starts)."""
    return [str(column.header) for column in columns]


def value_row(columns: Sequence[Column[R]], row: R) -> list[Cell]:
    return [column.value(row) for column in columns]


# --------------------------------------------------------------------------------------------
# Trials: one row per human response opportunity


def _session_date(row: TrialRow) -> str:
    # A session is dated by its start; one that never started by when it was made.
    return timezone.localdate(row.session_started_at or row.session_created_at).isoformat()


def _data(key: str) -> Callable[[TrialRow], Cell]:
    def value(row: TrialRow) -> Cell:
        found = row.data.get(key)
        return found if isinstance(found, str | int | float | bool) else None

    return value


def _adaptive_level(row: TrialRow) -> Cell:
    """The adaptive ladder's rung, counted from 1 as pages show it (blank when not adaptive)."""
    rung = row.data.get("rung")
    return rung + 1 if isinstance(rung, int) and not isinstance(rung, bool) else None


SHARED_TRIAL_COLUMNS: tuple[Column[TrialRow], ...] = (
    Column(_("Session"), lambda row: row.session_code, 10),
    Column(_("Session date"), _session_date, 12),
    Column(_("Game"), lambda row: row.game, 12),
    Column(_("Table"), lambda row: row.table_number, 7),
    Column(_("Name"), lambda row: row.name, 20),
    Column(_("Level"), lambda row: row.level, 13),
    Column(_("Practice"), lambda row: row.session_kind == "practice", 9),
    Column(_("Adaptive level"), _adaptive_level, 9),
    # "colour_safe": played on the colour-vision-safe palette (classroom.people.colour_vision).
    Column(_("Accommodation"), _data("accommodation"), 13),
)
LAST_TRIAL_COLUMNS: tuple[Column[TrialRow], ...] = (
    Column(_("Plausible"), lambda row: row.plausible, 10),
    Column(
        _("Recorded at"),
        lambda row: timezone.localtime(row.created_at).isoformat(timespec="milliseconds"),
        30,
    ),
)


def _of_game(slug: str, value: Callable[[R], Cell]) -> Callable[[R], Cell]:
    # A class file pools games: a game's own column is blank on another game's rows.
    def of_game(row: R) -> Cell:
        return value(row) if getattr(row, "game", None) == slug else None

    return of_game


def _cell(found: object) -> Cell:
    return found if isinstance(found, str | int | float | bool) else None


def _trial_cell(value: Callable[[TrialRow], object], row: TrialRow) -> Cell:
    return _cell(value(row))


def trial_columns(games: Sequence[str]) -> tuple[Column[TrialRow], ...]:
    """The shared columns, each game's own (``GameSite.trial_columns``), then plausibility."""
    own: list[Column[TrialRow]] = []
    for slug in games:
        for column in game_site(slug).trial_columns:
            own.append(
                Column(
                    column.label,
                    _of_game(slug, partial(_trial_cell, column.value)),
                    column.width,
                )
            )
    return (*SHARED_TRIAL_COLUMNS, *own, *LAST_TRIAL_COLUMNS)


# --------------------------------------------------------------------------------------------
# Summary: one row per player overall ("all") and per level


SHARED_SUMMARY_COLUMNS: tuple[Column[SummaryRow], ...] = (
    Column(_("Name"), lambda row: row.name, 20),
    Column(_("Game"), lambda row: row.game, 12),
    Column(_("Level"), lambda row: row.level, 13),
)


def _header(measure: Measure) -> StrPromise:
    label = measure.export_label or measure.label
    if measure.unit == "%":
        return format_lazy("{} (%)", label)
    if measure.unit == "ms":
        return format_lazy("{} (ms)", label)
    if measure.unit == "pts":
        return format_lazy("{} ({})", label, _("percentage points"))
    return label


def summary_columns(games: Sequence[str]) -> tuple[Column[SummaryRow], ...]:
    """Name, game and level, then each game's own measures (``GameSite.measures``) with
    two decimals (times in whole ms); a game's columns are blank on another game's rows."""
    own: list[Column[SummaryRow]] = []
    for slug in games:
        for measure in game_site(slug).measures:
            own.append(
                Column(
                    _header(measure),
                    _of_game(slug, partial(_summary_cell, measure)),
                    10,
                )
            )
    return (*SHARED_SUMMARY_COLUMNS, *own)


def _summary_cell(measure: Measure, row: SummaryRow) -> Cell:
    value = measure.value(row.measures)
    if value is None:
        return None
    if measure.unit == "ms":  # reaction times in whole milliseconds
        return rounded(value, 0)
    return rounded(100 * value if measure.unit in {"%", "pts"} else value, 2)
