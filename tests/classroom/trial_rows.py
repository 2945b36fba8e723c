"""Trials written straight into the database, for analytics tests with hand-checked numbers."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.utils import timezone

from classroom.models import GameSession, Seat, Table, Trial

if TYPE_CHECKING:
    from collections.abc import Sequence

    from classroom.models import Student


def played_session(
    *,
    session: GameSession,
    students: Sequence[Student],
    started: datetime | None = None,
    game: str | None = None,
) -> dict[int, Seat]:
    """Mark the session as played (of ``game``, if given) at one table by these students;
    their seats by student."""
    started = started or timezone.now()
    GameSession.objects.filter(pk=session.pk).update(
        status=GameSession.Status.ENDED,
        started_at=started,
        ended_at=started,
        game=game or session.game,
    )
    table = Table.objects.create(session=session, number=1, roster=[], seed=1)
    seats = {}
    for student in students:
        seats[student.pk] = Seat.objects.create(
            session=session,
            table=table,
            student=student,
            name=student.display_name,
            name_key=student.display_name.casefold(),
            token=f"token-{session.pk}-{student.pk}",
        )
    return seats


def trial_add(
    *,
    seat: Seat,
    target: bool,
    responded: bool,
    rt_ms: int | None = None,
    level: str = "beginner",
    congruent: bool | None = False,
    plausible: bool = True,
    at: datetime | None = None,
    flip: int = 1,
) -> Trial:
    """One normal-mode Palm Strike trial: right when the response matches the target."""
    correct = target == responded
    trial = Trial.objects.create(
        session_id=seat.session_id,
        table_id=seat.table_id,
        seat=seat,
        student_id=seat.student_id,
        log_seq=flip,
        game="palm_strike",
        kind="palm_strike.flip",
        level=level,
        target=target,
        responded=responded,
        congruent=congruent,
        rt_ms=rt_ms if responded else None,
        correct=correct,
        plausible=plausible,
        data={
            "flip": flip,
            "level": level,
            "public": {"bg": "red", "word": "blue", "ink": "green"},
            "target": target,
            "responded": responded,
            "congruent": congruent,
            "response": "slap" if responded else "none",
            "rt_ms": rt_ms if responded else None,
            "plausible": plausible,
            "correct": correct,
            "first": False,
            "bot": False,
        },
    )
    if at is not None:
        Trial.objects.filter(pk=trial.pk).update(created_at=at)
    return trial


def worked_example(seat: Seat, *, at: datetime | None = None) -> None:
    """8 hits, 2 misses, 2 false alarms, 8 correct rejections (the issue's example).

    Hit RTs 400..750 ms step 50 (4 congruent: 400-550, 4 incongruent: 600-750); the false
    alarms at 300 and 350 ms. Hand results: accuracy 16/20 = 80 %, d' = 1.496, c = 0,
    median correct RT (400..750) = 575 ms, mean 575 ms, IES = 575 / 0.8 = 718.75 ms,
    interference = median(600..750) - median(400..550) = 675 - 475 = 200 ms.
    """
    step = timedelta(seconds=3)
    start = at or timezone.now()
    flip = 0

    def when() -> datetime:
        return start + flip * step

    for index in range(8):
        flip += 1
        trial_add(
            seat=seat, target=True, responded=True, rt_ms=400 + 50 * index,
            congruent=index < 4, at=when(), flip=flip,
        )  # fmt: skip
    for _ in range(2):
        flip += 1
        trial_add(seat=seat, target=True, responded=False, at=when(), flip=flip)
    for rt in (300, 350):
        flip += 1
        trial_add(seat=seat, target=False, responded=True, rt_ms=rt, at=when(), flip=flip)
    for _ in range(8):
        flip += 1
        trial_add(seat=seat, target=False, responded=False, at=when(), flip=flip)


# Riff Raff's two kinds of trial (see games.riff_raff.trials): a falling piece caught or
# missed (with a reaction time), and a placement that stayed on board or caused a fall (none).
RIFF_RAFF_LEVEL = "wave_5"


def _riff_raff_trial_add(
    *,
    seat: Seat,
    kind: str,
    target: bool | None,
    responded: bool,
    correct: bool,
    rt_ms: int | None,
    at: datetime | None,
    seq: int,
) -> Trial:
    trial = Trial.objects.create(
        session_id=seat.session_id,
        table_id=seat.table_id,
        seat=seat,
        student_id=seat.student_id,
        log_seq=seq,
        game="riff_raff",
        kind=kind,
        level=RIFF_RAFF_LEVEL,
        target=target,
        responded=responded,
        congruent=None,
        rt_ms=rt_ms,
        correct=correct,
        plausible=True,
        data={
            "level": RIFF_RAFF_LEVEL,
            "area": 0,
            "piece": seq,
            "shape": "crate",
            "round": 1,
            "bot": False,
            "congruent": None,
            "target": target,
            "responded": responded,
            "correct": correct,
            "rt_ms": rt_ms,
            "plausible": True,
        },
    )
    if at is not None:
        Trial.objects.filter(pk=trial.pk).update(created_at=at)
    return trial


def riff_raff_played(
    seat: Seat,
    *,
    catch_rts: Sequence[int | None] = (),
    stayed: Sequence[bool] = (),
    at: datetime | None = None,
) -> None:
    """One Riff Raff session of a seat: a catch per entry of ``catch_rts`` (caught at that
    RT, or missed for None) and a placement per entry of ``stayed`` (stayed on board or not)."""
    seq = 0
    for rt in catch_rts:
        seq += 1
        caught = rt is not None
        _riff_raff_trial_add(
            seat=seat, kind="riff_raff.catch", target=True, responded=caught, correct=caught,
            rt_ms=rt, at=at, seq=seq,
        )  # fmt: skip
    for stays in stayed:
        seq += 1
        _riff_raff_trial_add(
            seat=seat, kind="riff_raff.placement", target=None, responded=True, correct=stays,
            rt_ms=None, at=at, seq=seq,
        )  # fmt: skip
