"""The codebook of an export: what a school psychologist or a researcher needs to use the data
without asking. The same rows are the CSV files' ``codebook.csv`` and the workbook's "About"
sheet.

Every column's meaning and unit comes from where the column is defined (``columns`` for the
shared ones, each game's ``GameSite`` for its own and its measures, whose formulas and sources
are the docstrings of their value functions); the settings from the game's ``Config``; the
rules every time measure follows from ``classroom.analytics``.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.analytics.speed import ANTICIPATION_FLOOR_MS, OUTLIER_SD_CUTOFF
from classroom.gamesite import game_site_get
from classroom.gamesite.labels import game_name
from games.engine.settings import config_settings

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from datetime import datetime

    from classroom.exports.columns import Column
    from classroom.models import GameSession
    from classroom.selectors.exports import ExportedGame


@dataclass(frozen=True)
class About:
    """What an export is of, and when it was made."""

    # "Session 4KGUDX" or the class's name.
    subject: str
    exported_at: datetime
    games: Sequence[ExportedGame]


def snapclass_version() -> str:
    try:
        return version("snapclass")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


def _header() -> list[str]:
    return [
        _("Section"),
        _("Item"),
        _("Value or meaning"),
        _("Unit or values"),
        _("Formula and source"),
    ]


def _export_rows(about: About) -> Iterator[list[str]]:
    section = _("This file")
    yield [section, _("Made by"), f"Snapclass {snapclass_version()}", "", ""]
    yield [section, _("Of"), about.subject, "", ""]
    exported = timezone.localtime(about.exported_at).isoformat(timespec="seconds")
    yield [section, _("Exported at"), exported, "ISO 8601", ""]
    yield [section, _("Time zone of the times"), str(django_settings.TIME_ZONE), "", ""]
    yield [
        section,
        _("Files"),
        _(
            "trials: one row per response opportunity of a child (bots left out); summary: one "
            "row per child and game over all their trials (level all), then one per level"
        ),
        "",
        "",
    ]
    yield [
        section,
        _("Values"),
        _(
            "Levels, colours and responses are written as the game records them, whatever the "
            "language of the headers, so files from either language can be pooled; an empty "
            "cell means not applicable or no value. A name starting with = + - or @ gets a "
            "leading apostrophe in the CSV files, so a spreadsheet does not run it."
        ),
        "",
        "",
    ]


def _column_rows(section: str, columns: Sequence[Column[Any]]) -> Iterator[list[str]]:
    for column in columns:
        yield [section, str(column.header), str(column.meaning), str(column.unit), column.formula]


def _rule_rows() -> Iterator[list[str]]:
    section = _("How the measures are computed")
    floor = f"{ANTICIPATION_FLOOR_MS:g}"
    cutoff = f"{OUTLIER_SD_CUTOFF:g}"
    yield [
        section,
        _("Reaction times"),
        _(
            "Time measures use correct responses only, and leave out anticipations (under "
            "%(floor)s ms) and times the server found implausible (Plausible = FALSE)."
        )
        % {"floor": floor},
        "ms",
        "Ratcliff, R. (1993). Methods for dealing with reaction time outliers. "
        "Psychological Bulletin 114, 510-532.",
    ]
    yield [
        section,
        _("Trimmed mean"),
        _("Times beyond %(cutoff)s SD of the child's own mean are left out of the trimmed mean.")
        % {"cutoff": cutoff},
        "ms",
        "Ratcliff (1993)",
    ]
    yield [
        section,
        _("Hit and false-alarm rates"),
        _(
            "d′ and c use the log-linear correction: 0.5 is added to the hits and false alarms "  # noqa: RUF001
            "and 1 to the signal and noise trial counts, so no rate is 0 or 1."
        ),
        "",
        "Hautus, M. J. (1995). Corrections for extreme proportions and their biasing effects "
        "on estimated values of d′. Behavior Research Methods, Instruments, & Computers 27, "  # noqa: RUF001
        "46-51; Macmillan, N. A. & Creelman, C. D. (2005). Detection Theory: A User's Guide.",
    ]
    yield [
        section,
        _("Groups"),
        _(
            "BIS standardises within the children of the file who played that game (per level "
            "on the level rows), so it compares children of one file only."
        ),
        "",
        "Liesefeld, H. R. & Janczyk, M. (2019). Behavior Research Methods 51, 40-60.",
    ]
    yield [
        section,
        _("Extra time"),
        _(
            "A child with extra time (the Extra time column) had a response window of their "
            "own, 1.5 or 2 times the table's, while the others kept the table's; untimed: the "
            "x2 window and no speed scoring. Their trials are kept and counted in their own "
            "figures, left out of the school's norms, and an untimed child's times are shown "
            "as not scored."
        ),
        "x1.5, x2, untimed",
        "",
    ]
    yield [
        section,
        _("Verdicts"),
        _(
            "Each child's latest class session at a level is placed among the other children's "
            "latest valid sessions at the same game and level: the school's children of the "
            "same year group (every class on this Snapclass) once at least 30 contribute, else "
            "the class. Runs flagged and not kept, and runs with extra time or the colour-safe "
            "palette, stay out of the comparison. Below the 25th percentile may need support, "
            "25th to 50th keep an eye on, from the 50th on track; a band only when the whole "
            "95 percent interval of the percentile lies in it, else not sure yet. On track but "
            "reliably below their own earlier sessions at the level: keep an eye on."
        ),
        _("percentile (0-100)"),
        "ROAR risk bands: Yeatman, J. D. et al. (2021). Rapid online assessment of reading "
        "ability. Scientific Reports 11, 6396. Wilson (1927), JASA 22, 209-212. Newcombe, "
        "R. G. (1998). Statistics in Medicine 17, 873-890 (own change of a rate).",
    ]


def _setting_value(value: object, choices: Sequence[tuple[Any, str]]) -> str:
    for choice, label in choices:
        if choice == value:
            return _(label)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _session_controls(session: GameSession) -> Iterator[tuple[str, str]]:
    yield _("Kind"), session.get_kind_display()
    yield _("Players per table"), str(session.players_per_table)
    for name in ("adaptive", "scoring", "late_join", "sound"):
        yield _field_label(session, name), _setting_value(getattr(session, name), ())
    yield _field_label(session, "leaderboard"), session.get_leaderboard_display()
    yield _field_label(session, "palette"), session.get_palette_display()
    yield _field_label(session, "language"), session.language


def _field_label(session: GameSession, name: str) -> str:
    field = session._meta.get_field(name)
    return str(getattr(field, "verbose_name", name))


def _settings_rows(games: Sequence[ExportedGame]) -> Iterator[list[str]]:
    for game in games:
        session = game.session
        section = _("Settings of session %(code)s, game %(number)s (%(date)s)") % {
            "code": session.code,
            "number": game.game_number,
            "date": timezone.localdate(game.date).isoformat(),
        }
        yield [section, _("Game"), game_name(session.game), session.game, ""]
        for label, value in _session_controls(session):
            yield [section, label, value, "", ""]
        site = game_site_get(session.game)
        if site is None:
            continue
        for info in config_settings(site.spec.config_cls):
            value = game.settings.get(info.name, info.default)
            yield [section, _(info.spec.label), _setting_value(value, info.spec.choices), "", ""]


def codebook_rows(
    *,
    about: About,
    trial_columns: Sequence[Column[Any]],
    summary_columns: Sequence[Column[Any]],
) -> list[list[str]]:
    """The codebook, header first: the file, every column of both files, how the measures
    are computed, and the settings of every game the trials come from."""
    return [
        _header(),
        *_export_rows(about),
        *_column_rows(_("Trials file columns"), trial_columns),
        *_column_rows(_("Summary file columns"), summary_columns),
        *_rule_rows(),
        *_settings_rows(about.games),
    ]
