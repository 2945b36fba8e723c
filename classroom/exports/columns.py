"""The columns of every export, in one place for the CSV files and the workbook alike.

Headers are translated when a file is written (English source strings); values are raw data
(levels, colours and responses as the game records them) so files from either language
can be pooled. Rounding: two decimals, reaction times in whole milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from classroom.exports.cells import rounded

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from django_stubs_ext import StrPromise

    from classroom.exports.cells import Cell
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow

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


def _public(row: TrialRow, part: str) -> Cell:
    card = row.data.get("public")
    if not isinstance(card, dict):
        return None
    value = card.get(part)
    return value if isinstance(value, str) else None


def _response(row: TrialRow) -> Cell:
    # The game names the response ("slap"/"none"); older rows only have the yes/no column.
    recorded = row.data.get("response")
    if isinstance(recorded, str):
        return recorded
    if row.responded is None:
        return None
    return "slap" if row.responded else "none"


def _data(key: str) -> Callable[[TrialRow], Cell]:
    def value(row: TrialRow) -> Cell:
        found = row.data.get(key)
        return found if isinstance(found, str | int | float | bool) else None

    return value


def _adaptive_level(row: TrialRow) -> Cell:
    """The adaptive ladder's rung, counted from 1 as pages show it (blank when not adaptive)."""
    rung = row.data.get("rung")
    return rung + 1 if isinstance(rung, int) and not isinstance(rung, bool) else None


TRIAL_COLUMNS: tuple[Column[TrialRow], ...] = (
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
    Column(_("Flip"), _data("flip"), 7),
    Column(_("Public card word"), lambda row: _public(row, "word"), 11),
    Column(_("Public card ink"), lambda row: _public(row, "ink"), 11),
    Column(_("Public card background"), lambda row: _public(row, "bg"), 11),
    Column(_("Target"), lambda row: row.target, 8),
    Column(_("Congruent"), lambda row: row.congruent, 10),
    Column(_("Response"), _response, 10),
    Column(_("RT (ms)"), lambda row: row.rt_ms, 9),
    Column(_("Correct"), lambda row: row.correct, 9),
    Column(_("First"), _data("first"), 7),
    Column(_("Plausible"), lambda row: row.plausible, 10),
    Column(
        _("Recorded at"),
        lambda row: timezone.localtime(row.created_at).isoformat(timespec="milliseconds"),
        30,
    ),
)


# --------------------------------------------------------------------------------------------
# Summary: one row per player overall ("all") and per level


def _points(proportion: float | None) -> Cell:
    # Error interference is a proportion in the measures; points read like accuracy (%).
    return rounded(None if proportion is None else 100 * proportion, 2)


SUMMARY_COLUMNS: tuple[Column[SummaryRow], ...] = (
    Column(_("Name"), lambda row: row.name, 20),
    Column(_("Level"), lambda row: row.level, 13),
    Column(_("Trials"), lambda row: row.measures.trials, 8),
    Column(_("Hits"), lambda row: row.measures.signal.hits, 7),
    Column(_("Misses"), lambda row: row.measures.signal.misses, 8),
    Column(_("False alarms"), lambda row: row.measures.signal.false_alarms, 8),
    Column(_("Correct rejections"), lambda row: row.measures.signal.correct_rejections, 11),
    Column(_("Accuracy (%)"), lambda row: rounded(row.measures.accuracy_percent, 2), 10),
    Column(_("d′ (sensitivity)"), lambda row: rounded(row.measures.dprime, 2), 8),  # noqa: RUF001
    Column(_("c (response bias)"), lambda row: rounded(row.measures.criterion, 2), 8),
    Column(_("Median correct RT (ms)"), lambda row: rounded(row.measures.rt.median, 0), 10),
    Column(_("Mean correct RT (ms)"), lambda row: rounded(row.measures.rt.mean, 0), 10),
    Column(
        _("Trimmed mean correct RT (ms)"), lambda row: rounded(row.measures.rt.trimmed_mean, 0), 10
    ),
    Column(_("Anticipations"), lambda row: row.measures.rt.anticipations, 10),
    Column(_("IES (ms)"), lambda row: rounded(row.measures.inverse_efficiency_ms, 0), 9),
    Column(_("BIS"), lambda row: rounded(row.measures.balanced_integration, 2), 7),
    Column(_("Interference (ms)"), lambda row: rounded(row.measures.interference_ms, 0), 10),
    Column(
        _("Error interference (percentage points)"),
        lambda row: _points(row.measures.error_interference),
        12,
    ),
)
