"""Flagged runs: recording which seats' runs of a session did not look like real play, and
the teacher's choice to keep one in trends and norms all the same."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from classroom.models import GameSession, RunFlag, Seat
from classroom.selectors.run_validity import session_run_validity


@transaction.atomic
def run_flags_record(*, session: GameSession) -> dict[int, RunFlag]:
    """Judge every seat's run of ``session`` and keep a row for each flagged one (by seat
    id). A run judged again keeps the teacher's choice; a run no longer flagged loses its row."""
    validity = session_run_validity(session=session)
    flagged = {seat_id: found for seat_id, found in validity.items() if not found.valid}
    RunFlag.objects.filter(session=session).exclude(seat_id__in=flagged).delete()
    students = dict(Seat.objects.filter(pk__in=flagged).values_list("pk", "student_id"))
    recorded = {}
    for seat_id, found in flagged.items():
        recorded[seat_id], _created = RunFlag.objects.update_or_create(
            seat_id=seat_id,
            defaults={
                "session": session,
                "student_id": students.get(seat_id),
                "flags": ",".join(found.flags),
            },
        )
    return recorded


@transaction.atomic
def run_keep(*, seat: Seat, kept: bool) -> RunFlag:
    """Keep a flagged run in trends and norms (or leave it out again). A run that was not
    flagged has nothing to keep: ``ValidationError``, nothing changes."""
    flag = RunFlag.objects.select_for_update().filter(seat=seat).first()
    if flag is None:
        raise ValidationError(_("This run was not flagged, so it already counts."))
    flag.kept = kept
    flag.save(update_fields=["kept"])
    return flag
