"""What an export is of: a session or a class, as the rows, games and names its files need."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from classroom.exports.codebook import About, codebook_rows
from classroom.exports.columns import summary_columns, trial_columns
from classroom.exports.summary_rows import class_summary_rows, session_summary_rows
from classroom.exports.trial_rows import ReadInDays, class_export_trials, session_export_trials
from classroom.selectors.analytics import class_games
from classroom.selectors.exports import exported_games

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from datetime import datetime

    from django.db.models import QuerySet

    from classroom.exports.columns import Column
    from classroom.exports.summary_rows import SummaryRow
    from classroom.exports.trial_rows import TrialRow
    from classroom.models import GameSession, SchoolClass, Trial


@dataclass(frozen=True)
class ExportSource:
    # The file names' middle part: snapclass-<stem>-<kind>.
    stem: str
    # What the codebook says the file is of.
    subject: str
    trials: QuerySet[Trial]
    summary: Callable[[], list[SummaryRow]]
    games: Sequence[str]
    # A class's trials are read a day at a time (a year of them is a million).
    days: ReadInDays | None = None

    def trial_columns(self) -> tuple[Column[TrialRow], ...]:
        """Each game's own columns (``GameSite``), for the games in the file; headers in the
        active language."""
        return trial_columns(self.games)

    def summary_columns(self) -> tuple[Column[SummaryRow], ...]:
        return summary_columns(self.games)

    def codebook(self, *, exported_at: datetime | None = None) -> list[list[str]]:
        about = About(
            subject=self.subject,
            exported_at=exported_at or timezone.now(),
            games=exported_games(trials=self.trials),
        )
        return codebook_rows(
            about=about,
            trial_columns=self.trial_columns(),
            summary_columns=self.summary_columns(),
        )


def class_file_stem(*, school_class: SchoolClass) -> str:
    # Unicode slugs keep 三年甲班 readable; a name of symbols only still needs a file name.
    return slugify(school_class.name, allow_unicode=True) or f"class-{school_class.pk}"


def session_source(*, session: GameSession) -> ExportSource:
    return ExportSource(
        stem=session.code,
        subject=_("Session %(code)s") % {"code": session.code},
        trials=session_export_trials(session=session),
        summary=lambda: session_summary_rows(session=session),
        games=[session.game],
    )


def class_source(*, school_class: SchoolClass) -> ExportSource:
    games = class_games(school_class=school_class)
    return ExportSource(
        stem=class_file_stem(school_class=school_class),
        subject=_("Class %(name)s, every session") % {"name": school_class.name},
        trials=class_export_trials(school_class=school_class),
        summary=lambda: class_summary_rows(school_class=school_class),
        games=games,
        days=ReadInDays(
            games=games,
            students=list(school_class.students.order_by("pk").values_list("pk", flat=True)),
        ),
    )
