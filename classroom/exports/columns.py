"""The columns of every export, in one place for the CSV files and the workbook alike.

Headers are translated when a file is written (English source strings); values are raw data
(levels, colours and responses as the game records them) so files from either language
can be pooled. Rounding: two decimals, reaction times in whole milliseconds.

Each column also says what it means and its unit or values: the codebook and the workbook's
About sheet (``classroom.exports.codebook``) are written from here and from each game's
``GameSite`` (its ``trial_columns`` and ``measures``), never from a second list.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from classroom.analytics.intervals import median_interval
from classroom.exports.cells import rounded
from classroom.gamesite import game_site
from classroom.gamesite.labels import game_name
from classroom.selectors.certainty import RESAMPLES, kept_rts, share_interval
from classroom.selectors.class_change import RATE, SPEED
from classroom.selectors.run_flags import run_flag_text

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator, Sequence

    from django_stubs_ext import StrPromise

    from classroom.analytics.following import Following
    from classroom.exports.cells import Cell
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow
    from classroom.gamesite.contract import Measure
    from classroom.selectors.verdicts import SkillVerdict

R = TypeVar("R")


@dataclass(frozen=True)
class Column(Generic[R]):
    header: StrPromise
    value: Callable[[R], Cell]
    width: int  # in characters, for the workbook
    # For the codebook: what the column holds, its unit or values, and (for a measure) how it
    # is computed, with its source.
    meaning: StrPromise | str = ""
    unit: StrPromise | str = ""
    formula: str = ""


def header_row(columns: Sequence[Column[Any]]) -> list[str]:
    """The headers in the active language (resolve before streaming starts)."""
    return [str(column.header) for column in columns]


def value_row(columns: Sequence[Column[R]], row: R) -> list[Cell]:
    return [column.value(row) for column in columns]


# --------------------------------------------------------------------------------------------
# Trials: one row per human response opportunity


def _device_screen(row: TrialRow) -> Cell:
    if row.device_screen_width is None:
        return None
    return f"{row.device_screen_width}x{row.device_screen_height}"


def _session_date(row: TrialRow) -> str:
    # A session is dated by its start; one that never started by when it was made.
    return timezone.localdate(row.session_started_at or row.session_created_at).isoformat()


def _cell(found: object) -> Cell:
    """A value a file can hold as it is (text, a number, a yes or no); anything else is blank."""
    return found if isinstance(found, str | int | float | bool) else None


def _data(key: str) -> Callable[[TrialRow], Cell]:
    def value(row: TrialRow) -> Cell:
        return _cell(row.data.get(key))

    return value


def _adaptive_level(row: TrialRow) -> Cell:
    """The adaptive ladder's rung, counted from 1 as pages show it (blank when not adaptive)."""
    rung = row.data.get("rung")
    return rung + 1 if isinstance(rung, int) and not isinstance(rung, bool) else None


_YES_NO = _("TRUE or FALSE")

SHARED_TRIAL_COLUMNS: tuple[Column[TrialRow], ...] = (
    Column(
        _("Session"),
        lambda row: row.session_code,
        10,
        meaning=_("The session's join code: one lesson"),
        unit=_("text"),
    ),
    Column(
        _("Session date"),
        _session_date,
        12,
        meaning=_("The day the session started (or was made, if it never started)"),
        unit="YYYY-MM-DD",
    ),
    Column(
        _("Game"),
        lambda row: row.game,
        12,
        meaning=_("Which game the trial was played in"),
        unit=_("the game's code name"),
    ),
    Column(
        _("Game number"),
        lambda row: row.game_number,
        8,
        meaning=_(
            "Which game of the session: 1 for the first, 2 after the first Play again, and so on"
        ),
        unit=_("count"),
    ),
    Column(
        _("Table"),
        lambda row: row.table_number,
        7,
        meaning=_("The table the child sat at in that game"),
        unit=_("count"),
    ),
    Column(
        _("Name"),
        lambda row: row.name,
        20,
        meaning=_("The child's first name or nickname as the class list or the tablet had it"),
        unit=_("text"),
    ),
    Column(
        _("Level"),
        lambda row: row.level,
        13,
        meaning=_("The game's difficulty level the trial was played at"),
        unit=_("the game's level name"),
    ),
    Column(
        _("Practice"),
        lambda row: row.session_kind == "practice",
        9,
        meaning=_("Played alone in practice, not in a class session"),
        unit=_YES_NO,
    ),
    Column(
        _("Adaptive level"),
        _adaptive_level,
        9,
        meaning=_(
            "The rung of the adaptive ladder, from 1 (three right in a row: up one; a mistake: "
            "down one); blank when difficulty was not adaptive"
        ),
        unit=_("count"),
    ),
    # "colour_safe": played on the colour-vision-safe palette (classroom.people.colour_vision).
    Column(
        _("Accommodation"),
        _data("accommodation"),
        13,
        meaning=_(
            "colour_safe: played on the colour-vision-safe palette, so its times answer other "
            "colours than the class's; blank otherwise"
        ),
        unit="colour_safe",
    ),
    # Extra time (classroom.people.extra_time): the child's own, longer response window.
    Column(
        _("Extra time"),
        _data("extra_time"),
        10,
        meaning=_(
            "The child's own response window: x1.5 or x2 the table's, or untimed: no speed "
            "scoring (in a game with no window to lengthen, extra time is always this); blank "
            "for the table's window. Such trials stay out of the school's norms, and an "
            "untimed trial's time is not scored"
        ),
        unit="x1.5, x2, untimed",
    ),
)
LAST_TRIAL_COLUMNS: tuple[Column[TrialRow], ...] = (
    Column(
        _("Plausible"),
        lambda row: row.plausible,
        10,
        meaning=_(
            "FALSE when the server found the reaction time impossible (faster than a human or "
            "longer than the stimulus had been shown): left out of every time measure"
        ),
        unit=_YES_NO,
    ),
    Column(
        _("Run flag"),
        lambda row: (
            None
            if row.run_flags is None
            else run_flag_text(flags=row.run_flags, kept=bool(row.run_kept))
        ),
        30,
        meaning=_(
            "Why the run this trial is part of (the child's play in one session) did not look "
            "like real play, then whether it is left out of trends, norms and the class "
            "summary or the teacher kept it; blank for a valid run or a session not yet ended"
        ),
        unit=_("text"),
    ),
    Column(
        _("Screen"),
        _device_screen,
        11,
        meaning=_(
            "The tablet's screen in CSS pixels, width x height, as its page reported it; "
            "blank when it did not report"
        ),
        unit=_("pixels"),
    ),
    Column(
        _("Frame interval (ms)"),
        lambda row: (
            None if row.device_frame_interval_ms is None else float(row.device_frame_interval_ms)
        ),
        10,
        meaning=_(
            "How often the tablet's display draws a frame, measured in the page (the median "
            "gap between requestAnimationFrame callbacks); a card's onset is known to a frame"
        ),
        unit="ms",
    ),
    Column(
        _("Browser"),
        lambda row: row.device_user_agent or None,
        30,
        meaning=_(
            "The user agent of the tablet's browser: its make and system, for device effects"
        ),
        unit=_("text"),
    ),
    Column(
        _("Recorded at"),
        lambda row: timezone.localtime(row.created_at).isoformat(timespec="milliseconds"),
        30,
        meaning=_("When the server recorded the trial, with its offset from UTC"),
        unit="ISO 8601",
    ),
)


def _of_game(slug: str, value: Callable[[R], Cell]) -> Callable[[R], Cell]:
    # A class file pools games: a game's own column is blank on another game's rows.
    def of_game(row: R) -> Cell:
        return value(row) if getattr(row, "game", None) == slug else None

    return of_game


def _trial_cell(value: Callable[[TrialRow], object], row: TrialRow) -> Cell:
    return _cell(value(row))


def _games_columns(
    games: Sequence[str],
    shared: Sequence[Column[R]],
    own_columns: Callable[[str], Iterable[Column[R]]],
) -> list[Column[R]]:
    """Each game's own columns (``own_columns(slug)``), blank on another game's rows. In a
    file of several games, a header that another column already has (two games may both have
    a "Round") names its game, so every header of a file is unique (statistics packages need
    unique variable names)."""
    taken = {str(column.header) for column in shared}
    own: list[Column[R]] = []
    for slug in games:
        for column in own_columns(slug):
            header = column.header
            if len(games) > 1 and str(header) in taken:
                header = format_lazy("{} ({})", header, game_name(slug))
            taken.add(str(header))
            own.append(replace(column, header=header, value=_of_game(slug, column.value)))
    return own


def _game_trial_columns(slug: str) -> Iterator[Column[TrialRow]]:
    for column in game_site(slug).trial_columns:
        yield Column(
            column.label,
            partial(_trial_cell, column.value),
            column.width,
            meaning=column.meaning,
            unit=column.unit,
        )


def trial_columns(games: Sequence[str]) -> tuple[Column[TrialRow], ...]:
    """The shared columns, each game's own (``GameSite.trial_columns``), then plausibility."""
    shared = (*SHARED_TRIAL_COLUMNS, *LAST_TRIAL_COLUMNS)
    own = _games_columns(games, shared, _game_trial_columns)
    return (*SHARED_TRIAL_COLUMNS, *own, *LAST_TRIAL_COLUMNS)


# --------------------------------------------------------------------------------------------
# Summary: one row per player overall ("all") and per level


SHARED_SUMMARY_COLUMNS: tuple[Column[SummaryRow], ...] = (
    Column(
        _("Name"),
        lambda row: row.name,
        20,
        meaning=_("The child's first name or nickname"),
        unit=_("text"),
    ),
    Column(
        _("Game"),
        lambda row: row.game,
        12,
        meaning=_("The game these measures are of (games are never pooled)"),
        unit=_("the game's code name"),
    ),
    Column(
        _("Level"),
        lambda row: row.level,
        13,
        meaning=_("all: every trial of the child in that game; else the trials at one level"),
        unit=_("all, or the game's level name"),
    ),
)


# Code references in a docstring (``classroom.analytics.signal.dprime``) mean nothing to a
# reader of the codebook: the formula and its sources stay, the references go.
_CODE_REFERENCE = re.compile(r",?\s*(?:see\s+)?``[^`]+``")


def measure_formula(measure: Measure) -> str:
    """How ``measure`` is computed, with its source: its value function's docstring (where the
    site module writes both), without references to code."""
    text = inspect.getdoc(measure.value) or ""
    text = _CODE_REFERENCE.sub("", text)
    text = re.sub(r"\(\s*\)", "", text)
    return re.sub(r"\s+", " ", text).replace(" )", ")").replace("( ", "(").strip()


def _unit(measure: Measure) -> StrPromise | str:
    if measure.unit == "%":
        return _("percent")
    if measure.unit == "pts":
        return _("percentage points")
    return measure.unit


def _header(measure: Measure) -> StrPromise:
    label = measure.export_label or measure.label
    if measure.unit == "%":
        return format_lazy("{} (%)", label)
    if measure.unit == "ms":
        return format_lazy("{} (ms)", label)
    if measure.unit == "pts":
        return format_lazy("{} ({})", label, _("percentage points"))
    return label


def _game_summary_columns(slug: str) -> Iterator[Column[SummaryRow]]:
    site = game_site(slug)
    for measure in site.measures:
        yield Column(
            _header(measure),
            partial(_summary_cell, measure),
            10,
            meaning=measure.meaning,
            unit=_unit(measure),
            formula=measure_formula(measure),
        )
    for measure in (site.headline_measure, site.speed_measure):
        yield from _interval_columns(measure, speed=measure is site.speed_measure)


_WILSON = (
    "Wilson score interval of the proportion over the trials it is a share of (Wilson 1927, "
    "JASA 22, 209-212)"
)
_BOOTSTRAP = (
    "Percentile bootstrap over the child's trials: 1,000 resamples of the plausible correct "
    "RTs (anticipations left out) from a seeded generator, the 2.5th and 97.5th percentiles "
    "of their medians (Efron & Tibshirani 1993, An Introduction to the Bootstrap, ch. 13)"
)


def _interval_columns(measure: Measure, *, speed: bool) -> Iterator[Column[SummaryRow]]:
    """The low and high ends of the measure's 95 % interval (Wilson for a share, a bootstrap
    of the median for the speed measure), in the measure's unit."""
    if not speed and measure.of is None:
        return
    label = measure.export_label or measure.label
    ends = (
        (_("low"), 0, _("the lower end of its 95 percent interval")),
        (_("high"), 1, _("the upper end of its 95 percent interval")),
    )
    for end, index, meaning in ends:
        yield Column(
            format_lazy("{} 95 % {} ({})", label, end, "ms" if speed else "%"),
            partial(_interval_cell, measure, speed, index),
            10,
            meaning=format_lazy("{}: {}", label, meaning),
            unit=_unit(measure),
            formula=_BOOTSTRAP if speed else _WILSON,
        )


def _interval_cell(measure: Measure, speed: bool, index: int, row: SummaryRow) -> Cell:
    m = row.measures
    if speed:
        interval = median_interval(kept_rts(m.correct_rts), resamples=RESAMPLES)
        return None if interval is None else rounded((interval.low, interval.high)[index], 0)
    found, _trials = share_interval(measure, m)
    return None if found is None else rounded(100 * (found.low, found.high)[index], 2)


RUN_FLAGS_COLUMN: Column[SummaryRow] = Column(
    _("Run flags"),
    lambda row: row.flags or None,
    30,
    meaning=_(
        "Why a session's run may not show how the child plays (many taps before the card could "
        "be seen, answers at chance, too few taps, many missed in a row, a long time with no "
        "taps), that they may retake it, and whether it is left out or the teacher kept it; "
        "empty for a valid run. In the class summary: how many of the child's flagged runs, "
        "not kept, are left out of its figures"
    ),
    unit=_("text"),
)


NEEDS_MORE_PLAY_COLUMN: Column[SummaryRow] = Column(
    _("Needs more play"),
    lambda row: row.short or None,
    30,
    meaning=_(
        "In a session's summary, the headline and speed figures whose child played fewer "
        "trials than the measure needs for a reliability of .70 among the session's players "
        "(split-half, Spearman-Brown), with how many they played and need; empty when there "
        "are enough, and in the class summary, which pools sessions"
    ),
    unit=_("text"),
)


DECISION_COLUMNS: tuple[Column[SummaryRow], ...] = (
    Column(
        _("Warm-up RT (ms)"),
        lambda row: row.simple_rt_ms,
        12,
        meaning=_(
            "The session's warm-up (tap when the card appears, 20 cards): the median of the "
            "taps from 100 to 1,500 ms, with at least 10 of them; blank without a warm-up"
        ),
        unit="ms",
        formula="median of the kept simple RTs (100-1500 ms, at least 10); Whelan (2008)",
    ),
    Column(
        _("Decision time (ms)"),
        lambda row: row.decision_ms,
        12,
        meaning=_(
            "The game's median RT less the warm-up RT: the time spent deciding, apart from "
            "seeing and tapping on that tablet; blank without both"
        ),
        unit="ms",
        formula="median RT - warm-up RT; Donders' subtraction method (Donders 1868/1969)",
    ),
)


_PERCENTILE_FORMULA = (
    "Percentile rank among the reference's children (their latest valid session at the "
    "same game and level, no accommodation; ties count half). Interval: the child's own "
    "97.5 % interval (bootstrap of the median, or Wilson) mapped through the reference, each "
    "end widened by a 97.5 % Wilson interval of the count of children below it; together at "
    "least 95 % (Bonferroni). Bands at the 25th and 50th percentiles, as ROAR's risk scores "
    "(Yeatman et al. 2021, Scientific Reports 11, 6396)"
)


def _verdict_of(row: SummaryRow, skill: str) -> SkillVerdict | None:
    return next((v for v in row.verdicts if v.skill == skill), None)


def _verdict_band(skill: str, row: SummaryRow) -> Cell:
    found = _verdict_of(row, skill)
    return found.band_text if found else None


def _verdict_percentile(skill: str, index: int, row: SummaryRow) -> Cell:
    found = _verdict_of(row, skill)
    percentiles = found.percentiles if found else None
    return percentiles[index] if percentiles else None


def _verdict_columns() -> Iterator[Column[SummaryRow]]:
    for skill, word in ((SPEED, _("speed")), (RATE, _("rate"))):
        yield Column(
            format_lazy("{} ({})", _("Verdict"), word),
            partial(_verdict_band, skill),
            14,
            meaning=format_lazy(
                "{} {}",
                _(
                    "The child's verdict on this skill at the level of their latest class "
                    "session: on track, keep an eye on, may need support, or not sure yet "
                    "(the interval reaches into two bands, too few answers or children, or "
                    "played with extra time); in the class summary's rows of all levels, else "
                    "empty. Skill:"
                ),
                word,
            ),
            unit=_("text"),
            formula=_PERCENTILE_FORMULA,
        )
        for index, what in (
            (0, _("percentile")),
            (1, _("percentile 95 % low")),
            (2, _("percentile 95 % high")),
        ):
            yield Column(
                format_lazy("{} ({}): {}", _("Verdict"), word, what),
                partial(_verdict_percentile, skill, index),
                10,
                meaning=_(
                    "The percentile on which the verdict rests (the share of the children "
                    "compared with that this child does better than), or an end of its 95 "
                    "percent interval"
                ),
                unit=_("percentile (0-100)"),
                formula=_PERCENTILE_FORMULA,
            )


VERDICT_COLUMNS: tuple[Column[SummaryRow], ...] = (
    Column(
        _("Year group"),
        lambda row: row.year_group or None,
        8,
        meaning=_("The child's year group as the class page or the class list file set it"),
        unit=_("PK, K or 1 to 12; empty when not set"),
    ),
    *_verdict_columns(),
    Column(
        _("Verdict compared with"),
        lambda row: "; ".join(dict.fromkeys(v.compared_with for v in row.verdicts)) or None,
        30,
        meaning=_(
            "Whom the verdicts compare the child with: the school's children of the same year "
            "group at the same game and level once at least 30 of them have played it (the "
            "school: every class on this Snapclass), else the child's class"
        ),
        unit=_("text"),
    ),
    Column(
        _("Verdict notes"),
        lambda row: " ".join(dict.fromkeys(v.sentence for v in row.verdicts)) or None,
        40,
        meaning=_("The plain sentence of each verdict, speed first"),
        unit=_("text"),
    ),
)


def _share(count: int, of: int) -> Cell:
    return rounded(100 * count / of, 2) if of else None


def _following_end(index: int, row: SummaryRow) -> Cell:
    found = row.following
    interval = None if found is None else found.difference_interval
    return None if interval is None else rounded(100 * (interval.low, interval.high)[index], 2)


_FOLLOWING_FORMULA = (
    "followed / flips after another's slap, and false slaps / flips alone, on the flips whose "
    "card did not match the child's; the difference's interval by Newcombe's hybrid score "
    "method (Newcombe 1998, Statistics in Medicine 17, 873-890, method 10); why others' "
    "actions may pull a response: Sebanz, Knoblich & Prinz 2003 (Cognition 88, B11-B21), "
    "Brass, Bekkering & Prinz 2001 (Acta Psychologica 106, 3-22)"
)


def _following_pair(
    header: StrPromise,
    meaning: StrPromise,
    count_header: StrPromise,
    count_meaning: StrPromise,
    counts: Callable[[Following], tuple[int, int]],
) -> tuple[Column[SummaryRow], Column[SummaryRow]]:
    """A share of following others (or of false slaps alone) and the flips it is of."""

    def share(row: SummaryRow) -> Cell:
        return None if row.following is None else _share(*counts(row.following))

    def flips(row: SummaryRow) -> Cell:
        return None if row.following is None else counts(row.following)[1]

    return (
        Column(header, share, 10, meaning=meaning, unit=_("percent"), formula=_FOLLOWING_FORMULA),
        Column(count_header, flips, 10, meaning=count_meaning, unit=_("count")),
    )


# A measure only a live table gives (``classroom.analytics.following``), in a game that has it.
FOLLOWING_COLUMNS: tuple[Column[SummaryRow], ...] = (
    *_following_pair(
        _("Following others (%)"),
        _(
            "Of the flips whose card did not match the child's and on which another child "
            "slapped first, the share on which the child slapped 0.1 to 0.6 s after that slap; "
            "blank in other games and in the class summary"
        ),
        _("Flips after another's slap"),
        _("The flips the share following others is of"),
        lambda found: (found.followed, found.exposed),
    ),
    *_following_pair(
        _("False slaps alone (%)"),
        _(
            "Of the flips whose card did not match the child's and on which no other child "
            "slapped, the share on which the child slapped"
        ),
        _("Flips alone"),
        _("The flips the share of false slaps alone is of"),
        lambda found: (found.alone_false, found.alone),
    ),
    Column(
        _("Following minus alone, 95 % low (points)"),
        partial(_following_end, 0),
        10,
        meaning=_(
            "The lower end of the 95 percent interval of following others less false slaps "
            "alone: above 0, the child slaps after others more than on their own"
        ),
        unit=_("percentage points"),
        formula=_FOLLOWING_FORMULA,
    ),
    Column(
        _("Following minus alone, 95 % high (points)"),
        partial(_following_end, 1),
        10,
        meaning=_("The upper end of that interval"),
        unit=_("percentage points"),
        formula=_FOLLOWING_FORMULA,
    ),
)


def summary_columns(games: Sequence[str]) -> tuple[Column[SummaryRow], ...]:
    """Name, game and level, then each game's own measures (``GameSite.measures``) with
    two decimals (times in whole ms), then the 95 % intervals of its headline and speed
    measures; a game's columns are blank on another game's rows. Then, with a game that has
    it (``GameSite.following_kind``), following others (a session's only), the session's
    warm-up and decision time, the figures short of their minimum and the run's flags; then
    the year group and the verdicts (class summary only)."""
    own = _games_columns(games, SHARED_SUMMARY_COLUMNS, _game_summary_columns)
    return (
        *SHARED_SUMMARY_COLUMNS,
        *own,
        *(FOLLOWING_COLUMNS if any(game_site(game).following_kind for game in games) else ()),
        *DECISION_COLUMNS,
        NEEDS_MORE_PLAY_COLUMN,
        RUN_FLAGS_COLUMN,
        *VERDICT_COLUMNS,
    )


def _summary_cell(measure: Measure, row: SummaryRow) -> Cell:
    value = measure.value(row.measures)
    if value is None:
        return None
    if measure.unit == "ms":  # reaction times in whole milliseconds
        return rounded(value, 0)
    return rounded(100 * value if measure.unit in {"%", "pts"} else value, 2)
