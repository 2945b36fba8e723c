"""A student practising alone on a tablet: a one-table session of their own, always adaptive.

A practice game is a session like any other (so the live tables, the game pages and the
analytics serve it unchanged), of kind ``practice``: nobody joins it by its code, the
teacher's session list leaves it out, and its trials appear in the student's progress,
marked as practice.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.events import TablesControlled, event_publish
from classroom.gamesite import game_sites
from classroom.gamesite.contract import PRACTICE_SOLO, PRACTICE_WITH_BOTS
from classroom.join_codes import join_code_generate
from classroom.models import Assignment, GameSession, Seat, Table
from classroom.services.live_tables import table_roster_fix
from classroom.services.run_flags import run_flags_record
from classroom.services.student_seats import student_seat_new
from games.engine.settings import config_to_values
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.models import PracticeSignIn, Student

SOLO = PRACTICE_SOLO
WITH_BOTS = PRACTICE_WITH_BOTS
# Practice opponents are patient: slower and kinder than the bots that fill class tables.
PRACTICE_BOT_LEVEL = "gentle"

# What practice changes from a game's defaults (the ladder then sets the difficulty).
_MODE_SETTINGS: dict[tuple[str, str], Mapping[str, object]] = {
    (site.slug, mode): settings
    for site in game_sites()
    for mode, settings in site.practice_settings.items()
}


def practice_modes(*, game: str) -> list[str]:
    """The ways a game can be practised (some also alone)."""
    return [mode for slug, mode in _MODE_SETTINGS if slug == game]


def _check_assignment(assignment: Assignment, *, student: Student, game: str) -> None:
    mine = assignment.student_id == student.pk or (
        assignment.student_id is None and assignment.school_class_id == student.school_class_id
    )
    if not mine or assignment.game != game:
        raise ValidationError(_("That practice was not set for you."))


def _practice_end(session: GameSession) -> None:
    session.status = GameSession.Status.ENDED
    session.ended_at = timezone.now()
    session.save(update_fields=["status", "ended_at"])
    session.tables.update(status=Table.Status.ENDED)
    run_flags_record(session=session)
    event_publish(event=TablesControlled(session_id=session.pk, command="end"))


def _create_session(
    *, student: Student, game: str, settings: dict[str, object], assignment: Assignment | None
) -> GameSession:
    spec = game_get(game)
    assert spec is not None
    school_class = student.school_class
    for _attempt in range(10):
        try:
            with transaction.atomic():
                return GameSession.objects.create(
                    teacher_id=school_class.teacher_id,
                    school_class=school_class,
                    game=game,
                    settings=config_to_values(spec.config(settings)),
                    players_per_table=1,
                    code=join_code_generate(),
                    seed=secrets.randbits(63),
                    kind=GameSession.Kind.PRACTICE,
                    assignment=assignment,
                    adaptive=True,
                    warmup=student.practice_warmup,
                    lobby_locked=True,
                    status=GameSession.Status.RUNNING,
                    started_at=timezone.now(),
                    palette=(
                        GameSession.Palette.OKABE_ITO
                        if student.colour_safe
                        else GameSession.Palette.STANDARD
                    ),
                )
        except IntegrityError:
            continue  # a code clash: draw again
    raise ValidationError(_("Could not start a practice game. Please try again."))


@transaction.atomic
def practice_start(
    *,
    student: Student,
    game: str,
    mode: str = WITH_BOTS,
    assignment: Assignment | None = None,
    language: str = "en",
    sign_in: PracticeSignIn | None = None,
) -> Seat:
    """Start a practice game for ``student`` and return their seat (its token signs the
    tablet in, as a class seat's does). A practice game left open is ended first.

    ``sign_in`` is the tablet's practice sign-in: the seat stays tied to it, so a new badge
    or a closed class code stops the game (classroom.services.practice_access)."""
    if game_get(game) is None:
        raise ValidationError(_("Choose one of the games."))
    settings = _MODE_SETTINGS.get((game, mode))
    if settings is None:
        raise ValidationError(_("That game cannot be practised that way."))
    if assignment is not None:
        _check_assignment(assignment, student=student, game=game)
    for left_open in GameSession.objects.select_for_update().filter(
        kind=GameSession.Kind.PRACTICE,
        seats__student=student,
        status=GameSession.Status.RUNNING,
    ):
        _practice_end(left_open)
    session = _create_session(
        student=student, game=game, settings=dict(settings), assignment=assignment
    )
    if language != session.language:
        session.language = language
        session.save(update_fields=["language"])
    table = Table.objects.create(session=session, number=1, status=Table.Status.RUNNING)
    seat = student_seat_new(
        session=session,
        table=table,
        student=student,
        options=dict(student.game_options.get(game, {})),
        practice_sign_in=sign_in,
        via_badge=sign_in is not None and sign_in.via == sign_in.Via.BADGE,
    )
    seat.save()
    table_roster_fix(
        session=session, table=table, bots=0 if mode == SOLO else 1, bot_level=PRACTICE_BOT_LEVEL
    )
    return seat


@transaction.atomic
def practice_finish(*, seat: Seat) -> GameSession:
    """The student is done: the practice game ends (its trials are already stored)."""
    session = GameSession.objects.select_for_update().get(pk=seat.session_id)
    if not session.is_practice:
        raise ValidationError(_("Only a practice game can be finished from the tablet."))
    if session.status != GameSession.Status.ENDED:
        _practice_end(session)
    return session
