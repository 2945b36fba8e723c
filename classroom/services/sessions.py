"""Creating a session and moving it through lobby → running ⇄ paused → ended."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from classroom.events import (
    LobbyChanged,
    SeatNextGame,
    SessionsDeleted,
    StandingsChanged,
    TablesControlled,
    event_publish,
)
from classroom.join_codes import join_code_generate
from classroom.models import GameSession, SchoolClass, Seat, SeatConnection, Table
from classroom.processes import processes_alive
from classroom.selectors.classes import classes_visible
from classroom.selectors.sessions import session_tables_current, sessions_visible
from classroom.selectors.standings import standings_for_tablets
from classroom.services.live_tables import table_roster_fix, tables_roster_fix
from classroom.services.run_flags import run_flags_record
from classroom.services.tables import tables_balance
from games.engine.settings import SettingError, config_to_values
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from django.contrib.auth.models import User

Status = GameSession.Status


def session_create(
    *,
    teacher: User,
    game: str,
    school_class: SchoolClass | None,
    players_per_table: int,
    settings: Mapping[str, Any],
    palette: str = GameSession.Palette.STANDARD,
    language: str = django_settings.LANGUAGE_CODE,
    leaderboard: str = GameSession.Leaderboard.ALWAYS,
    scoring: bool = True,
    late_join: bool = True,
    adaptive: bool = False,
    warmup: bool = False,
) -> GameSession:
    spec = game_get(game)
    if spec is None:
        raise ValidationError({"game": _("Choose one of the games in the list.")})
    _check_leaderboard(leaderboard)
    if palette not in GameSession.Palette.values:
        raise ValidationError({"palette": _("Choose one of the colour sets in the list.")})
    if language not in dict(django_settings.LANGUAGES):
        raise ValidationError({"language": _("Choose one of the languages in the list.")})
    if (
        school_class is not None
        and not classes_visible(teacher=teacher).filter(pk=school_class.pk).exists()
    ):
        raise ValidationError({"school_class": _("Choose one of your classes.")})
    if not spec.min_players <= players_per_table <= spec.max_players:
        raise ValidationError(
            {
                "players_per_table": _("%(game)s is played by %(min)d to %(max)d players.")
                % {"game": _(spec.name), "min": spec.min_players, "max": spec.max_players}
            }
        )
    try:
        config = spec.config(settings)
    except SettingError as error:
        raise ValidationError({error.setting: _(error.message) % error.params}) from error

    for _attempt in range(10):
        try:
            with transaction.atomic():
                return GameSession.objects.create(
                    teacher=teacher,
                    game=spec.slug,
                    school_class=school_class,
                    players_per_table=players_per_table,
                    settings=config_to_values(config),
                    code=join_code_generate(),
                    seed=secrets.randbits(63),
                    palette=palette,
                    language=language,
                    leaderboard=leaderboard,
                    scoring=scoring,
                    late_join=late_join,
                    adaptive=adaptive,
                    warmup=warmup,
                )
        except IntegrityError:
            continue  # a code clash: 31^6 codes make this rare, so just draw again
    raise ValidationError(_("Could not find a free session code. Please try again."))


def _check_leaderboard(leaderboard: str) -> None:
    if leaderboard not in GameSession.Leaderboard.values:
        raise ValidationError({"leaderboard": _("Choose one of the listed times.")})


def _require(session: GameSession, *allowed: str) -> None:
    if session.status not in allowed:
        raise ValidationError(
            _("The session is %(status)s, so that is not possible now.")
            % {"status": session.get_status_display().lower()}
        )


def _set_status(
    session: GameSession, status: str, table_status: str, *, command: str | None = None
) -> None:
    """``command``: what the session's running table hosts are told to do (pause, resume,
    end), once the change is committed."""
    session.status = status
    session.save(update_fields=["status", "started_at", "ended_at"])
    session.tables.exclude(status=Table.Status.ENDED).update(status=table_status)
    event_publish(event=LobbyChanged(session_id=session.pk))
    if command is not None:
        event_publish(event=TablesControlled(session_id=session.pk, command=command))


@transaction.atomic
def session_start(*, session: GameSession) -> GameSession:
    _require(session, Status.LOBBY)
    if not session.seats.filter(kicked_at__isnull=True).exists():
        raise ValidationError(_("Wait until at least one student has joined."))
    tables_balance(session=session)
    tables_roster_fix(session=session)
    session.started_at = timezone.now()
    _set_status(session, Status.RUNNING, Table.Status.RUNNING)
    return session


@transaction.atomic
def session_pause(*, session: GameSession) -> GameSession:
    _require(session, Status.RUNNING)
    _set_status(session, Status.PAUSED, Table.Status.PAUSED, command="pause")
    return session


@transaction.atomic
def session_resume(*, session: GameSession) -> GameSession:
    _require(session, Status.PAUSED)
    _set_status(session, Status.RUNNING, Table.Status.RUNNING, command="resume")
    return session


@transaction.atomic
def session_end(*, session: GameSession) -> GameSession:
    _require(session, Status.LOBBY, Status.RUNNING, Status.PAUSED)
    session.ended_at = timezone.now()
    _set_status(session, Status.ENDED, Table.Status.ENDED, command="end")
    run_flags_record(session=session)
    return session


@transaction.atomic
def session_play_again(
    *, session: GameSession, settings: Mapping[str, Any] | None = None
) -> GameSession:
    """Deal a new game on every table of the session: the same tables and players, the same
    settings or ``settings`` (the game's settings, validated like a new session's).

    Each table of the new game is a new row (``Table.game_number``), so the game before keeps
    its log, trials and replay; its hosts stop, and every seated tablet is told to load its
    new game (no code to type).
    """
    session = GameSession.objects.select_for_update().get(pk=session.pk)
    _require(session, Status.RUNNING, Status.PAUSED)
    spec = game_get(session.game)
    if spec is None:
        raise ValidationError(_("This game is not available any more."))
    old_config = spec.config(session.settings)
    new_values = session.settings
    if settings is not None:
        try:
            config = spec.config(settings)
        except SettingError as error:
            raise ValidationError({error.setting: _(error.message) % error.params}) from error
        if spec.single_table(config) != spec.single_table(old_config):
            raise ValidationError(
                _(
                    "Whole-class play cannot be switched on or off between games. "
                    "Start a new session for it."
                )
            )
        new_values = config_to_values(config)
    old_tables = list(session_tables_current(session=session))
    for table in old_tables:
        # The game before keeps the settings it was dealt with (its replay needs them).
        table.status = Table.Status.ENDED
        table.settings = session.settings if table.settings is None else table.settings
        table.save(update_fields=["status", "settings"])
    session.game_number += 1
    session.settings = new_values
    session.status = Status.RUNNING
    session.save(update_fields=["game_number", "settings", "status"])
    moved: list[int] = []
    for old in old_tables:
        if not old.seats.filter(kicked_at__isnull=True).exists():
            continue
        table = Table.objects.create(
            session=session,
            game_number=session.game_number,
            number=old.number,
            status=Table.Status.RUNNING,
        )
        seat_ids = list(old.seats.values_list("pk", flat=True))
        Seat.objects.filter(pk__in=seat_ids).update(table=table)
        table_roster_fix(session=session, table=table)
        moved.extend(seat_ids)
    event_publish(
        event=TablesControlled(
            session_id=session.pk, command="end", table_ids=tuple(table.pk for table in old_tables)
        )
    )
    for seat_id in moved:
        event_publish(event=SeatNextGame(seat_id=seat_id))
    event_publish(event=LobbyChanged(session_id=session.pk))
    return session


# A running (or paused) session with no tablet connected for this long ends by itself: the
# teacher forgot to press End, and a session left open keeps its code joinable.
IDLE_END_AFTER = timedelta(minutes=30)


def sessions_idle_end(*, now: datetime, teacher: User | None = None) -> list[int]:
    """End every open class session (that ``teacher`` may see, or all) that started play and
    has had no tablet connected since ``now - IDLE_END_AFTER``. Returns the ids it ended.

    "Connected" counts the socket rows of live processes (a process that died leaves its rows
    behind); the last time a tablet was seen is its seat's ``last_seen_at`` (set when a socket
    opens and closes).
    """
    cutoff = now - IDLE_END_AFTER
    sessions = GameSession.objects.all() if teacher is None else sessions_visible(teacher=teacher)
    open_sessions = sessions.filter(
        kind=GameSession.Kind.CLASS,
        status__in=(Status.RUNNING, Status.PAUSED),
        started_at__lt=cutoff,
    )
    ended = []
    for session in open_sessions:
        sockets = SeatConnection.objects.filter(seat__session=session)
        alive = processes_alive(sockets.values_list("process_id", flat=True).distinct())
        if sockets.filter(process_id__in=alive).exists():
            continue
        if session.seats.filter(last_seen_at__gte=cutoff).exists():
            continue
        try:
            session_end(session=session)
        except ValidationError:
            continue  # ended meanwhile (by the teacher, or another process)
        ended.append(session.pk)
    return ended


@transaction.atomic
def session_lock(*, session: GameSession, locked: bool) -> GameSession:
    """A locked lobby turns new students away; seated ones still come back after a reload."""
    _require(session, Status.LOBBY, Status.RUNNING, Status.PAUSED)
    session.lobby_locked = locked
    session.save(update_fields=["lobby_locked"])
    event_publish(event=LobbyChanged(session_id=session.pk))
    return session


@transaction.atomic
def session_rebalance(*, session: GameSession) -> GameSession:
    """Forget the teacher's hand placements and seat everyone evenly again (lobby only)."""
    _require(session, Status.LOBBY)
    session.seats.update(pinned=False)
    tables_balance(session=session)
    event_publish(event=LobbyChanged(session_id=session.pk))
    return session


@transaction.atomic
def session_controls_update(
    *,
    session: GameSession,
    leaderboard: str | None = None,
    scoring: bool | None = None,
    late_join: bool | None = None,
    sound: bool | None = None,
) -> GameSession:
    """Change what the class sees of points and ranks, or who may still join, mid-session.

    None leaves a control as it is. Every open page follows at once: the console and the
    projector re-render, and the tablets are told (they decide per view; see
    ``classroom.selectors.standings``).
    """
    _require(session, Status.LOBBY, Status.RUNNING, Status.PAUSED)
    changed = []
    if leaderboard is not None:
        _check_leaderboard(leaderboard)
        session.leaderboard = leaderboard
        changed.append("leaderboard")
    if scoring is not None:
        session.scoring = scoring
        changed.append("scoring")
    if late_join is not None:
        session.late_join = late_join
        changed.append("late_join")
    if sound is not None:
        session.sound = sound
        changed.append("sound")
    if not changed:
        return session
    session.save(update_fields=changed)
    event_publish(event=LobbyChanged(session_id=session.pk))
    if {"leaderboard", "scoring", "sound"} & set(changed):
        event_publish(
            event=StandingsChanged(
                session_id=session.pk, standings=standings_for_tablets(session=session)
            )
        )
    return session


# --------------------------------------------------------------------------------------------
# Deleting a session


@dataclass(frozen=True)
class SessionDeletion:
    """What ``session_delete`` would remove, for the confirmation page."""

    seats: int
    trials: int
    # Only an ended session can go: a running one has tables in memory writing to it.
    ended: bool


def session_delete_preview(*, session: GameSession) -> SessionDeletion:
    return SessionDeletion(
        seats=session.seats.count(),
        trials=session.trials.count(),
        ended=session.status == Status.ENDED,
    )


@transaction.atomic
def session_delete(*, session: GameSession) -> None:
    """Delete an ended session with everything of it: tables and their rosters, seats (the
    names typed or tapped), the action log and every trial. Refused (``ValidationError``)
    while it is open: end it first.

    At once the session is marked deleted, so no page, socket or code finds it; the task
    worker removes its rows in short batches (``sessions_purge``), since a big session's
    trials in one transaction would hold every class's writes back for seconds."""
    locked = GameSession.objects.select_for_update().get(pk=session.pk)
    if locked.status != Status.ENDED:
        raise ValidationError(
            _("Session %(code)s is still open. End it first, then delete it.")
            % {"code": locked.code}
        )
    locked.deleted_at = timezone.now()
    locked.save(update_fields=["deleted_at"])
    event_publish(event=SessionsDeleted())
