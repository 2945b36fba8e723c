"""Reads of flagged runs (``RunFlag``): which rows a run left out of trends covers, and what
the exports say of a flagged run."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext, gettext_noop

from classroom.analytics.validity import REASONS
from classroom.models import RunFlag

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass

FLAGGED_LEFT_OUT = gettext_noop("flagged, left out")
FLAGGED_KEPT = gettext_noop("flagged, kept")


def run_left_out() -> Exists:
    """True for a row (a trial, a tally) of a student's session whose run was flagged and
    not kept: trends, changes, norms and the class's summary leave such rows out."""
    return Exists(
        RunFlag.objects.filter(student=OuterRef("student"), session=OuterRef("session"), kept=False)
    )


def run_flag_text(*, flags: str, kept: bool) -> str:
    """A flagged run in the exports' words: its reasons, then whether it counts,
    "many taps before the card could be seen; flagged, left out"."""
    reasons = [gettext(REASONS[key]) for key in flags.split(",") if key in REASONS]
    return "; ".join([*reasons, gettext(FLAGGED_KEPT if kept else FLAGGED_LEFT_OUT)])


def session_run_flags(*, session: GameSession) -> dict[int, bool]:
    """The session's recorded flagged runs (recorded when it ends), by seat id: whether the
    teacher kept each."""
    return dict(RunFlag.objects.filter(session=session).values_list("seat_id", "kept"))


def class_runs_left_out(*, school_class: SchoolClass) -> Counter[tuple[int, str]]:
    """How many of each student's runs of each game are flagged and not kept, keyed
    (student id, game)."""
    return Counter(
        RunFlag.objects.filter(student__school_class=school_class, kept=False).values_list(
            "student_id", "session__game"
        )
    )
