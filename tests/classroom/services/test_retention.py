"""Retention: sessions over for more than N days go whole (seats, names, rosters, action log,
trials), by a service, a management command and the task worker's daily prune; sessions
within the limit stay whole."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from classroom.management.commands import tasks_worker
from classroom.models import ActionLogEntry, GameSession, Seat, Table, Trial
from classroom.services import retention
from classroom.services.retention import Pruned, sessions_prune
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_end, session_start

if TYPE_CHECKING:
    from collections.abc import Callable

NOW = timezone.now()


@pytest.fixture
def played(make_session: Callable[..., GameSession]) -> Callable[..., GameSession]:
    """A guest session played (a seat, a log entry, ``trials`` trials), then ended ``days``
    days before NOW (or, with ``ended=False``, started then and never ended)."""

    def make(days: float, *, trials: int = 1, ended: bool = True) -> GameSession:
        session = make_session()
        seat = seat_join_guest(session=session, nickname="Mo Real-Name")
        session_start(session=session)
        seat.refresh_from_db()
        assert seat.table is not None
        ActionLogEntry.objects.create(
            table=seat.table, seq=1, kind="act", seat_index=0, payload={"rt_ms": 420}, server_ms=0
        )
        for number in range(trials):
            Trial.objects.create(
                session=session,
                table=seat.table,
                seat=seat,
                log_seq=number + 1,
                game="palm_strike",
                kind="palm_strike.flip",
                rt_ms=420,
            )
        if ended:
            session_end(session=session)
        at = NOW - timedelta(days=days)
        GameSession.objects.filter(pk=session.pk).update(
            created_at=at, started_at=at, ended_at=at if ended else None
        )
        # auto_now_add columns: only an update can backdate them.
        ActionLogEntry.objects.filter(table__session=session).update(created_at=at)
        Trial.objects.filter(session=session).update(created_at=at)
        return session

    return make


def _sessions() -> set[int]:
    return set(GameSession.objects.values_list("pk", flat=True))


def _everything_of(session: GameSession) -> dict[str, int]:
    return {
        "tables": Table.objects.filter(session=session).count(),
        "seats": Seat.objects.filter(session=session).count(),
        "log": ActionLogEntry.objects.filter(table__session=session).count(),
        "trials": Trial.objects.filter(session=session).count(),
    }


NOTHING = {"tables": 0, "seats": 0, "log": 0, "trials": 0}


# --------------------------------------------------------------------------------------------
# The service


def test_prune_deletes_old_sessions_whole_and_keeps_recent_ones_whole(
    played: Callable[..., GameSession],
) -> None:
    old = [played(days, trials=2) for days in (31, 90, 400)]
    recent = [played(days) for days in (0, 1, 29)]
    kept_before = {session.pk: _everything_of(session) for session in recent}

    assert sessions_prune(older_than_days=30, now=NOW) == Pruned(sessions=3, trials=6)

    assert _sessions() == {session.pk for session in recent}
    for session in old:
        # Names (seats, rosters), reaction times (log payloads, trials): nothing is left.
        assert _everything_of(session) == NOTHING
    assert not Seat.objects.filter(session__in=old).exists()
    # A kept session keeps everything, so its tables still replay.
    assert {session.pk: _everything_of(session) for session in recent} == kept_before
    assert Table.objects.filter(session__in=recent).exclude(roster=[]).count() == 3


def test_prune_cuts_at_exactly_n_days(played: Callable[..., GameSession]) -> None:
    on_the_line = played(30)
    just_past = played(30 + 1 / 86400)
    assert sessions_prune(older_than_days=30, now=NOW).sessions == 1
    assert _sessions() == {on_the_line.pk}
    assert just_past.pk not in _sessions()


def test_prune_works_through_many_batches(
    played: Callable[..., GameSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "BATCH_SIZE", 2)
    old = played(40, trials=5)
    kept = played(1, trials=3)
    assert sessions_prune(older_than_days=30, now=NOW) == Pruned(sessions=1, trials=5)
    assert _everything_of(old) == NOTHING
    assert _everything_of(kept)["trials"] == 3


def test_a_session_never_ended_goes_once_nothing_was_played_in_it_for_n_days(
    played: Callable[..., GameSession],
) -> None:
    abandoned = played(40, ended=False)
    still_played = played(40, ended=False)
    ActionLogEntry.objects.create(
        table=Table.objects.get(session=still_played), seq=2, kind="tick", server_ms=5
    )
    assert sessions_prune(older_than_days=30, now=NOW).sessions == 1
    assert _sessions() == {still_played.pk}
    assert _everything_of(abandoned) == NOTHING


def test_prune_with_nothing_old_deletes_nothing(played: Callable[..., GameSession]) -> None:
    kept = played(2)
    assert sessions_prune(older_than_days=30, now=NOW) == Pruned(sessions=0, trials=0)
    assert _sessions() == {kept.pk}


def test_prune_defaults_to_the_current_time(played: Callable[..., GameSession]) -> None:
    played(8)
    kept = played(6)
    assert sessions_prune(older_than_days=7).sessions == 1
    assert _sessions() == {kept.pk}


@pytest.mark.parametrize("days", [0, -5])
def test_prune_refuses_fewer_than_one_day(played: Callable[..., GameSession], days: int) -> None:
    played(3)
    with pytest.raises(ValueError, match="at least 1"):
        sessions_prune(older_than_days=days, now=NOW)
    assert Trial.objects.count() == 1


# --------------------------------------------------------------------------------------------
# The command


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("trials_prune", *args, stdout=out)
    return out.getvalue()


def test_command_deletes_with_days_and_says_how_many(
    played: Callable[..., GameSession], settings: Any
) -> None:
    settings.TRIAL_RETENTION_DAYS = 365  # --days wins over the setting
    played(40)
    played(50, trials=2)
    kept = played(10)
    assert _run("--days", "30") == "Deleted 2 sessions (3 trials) over for more than 30 days.\n"
    assert _sessions() == {kept.pk}


def test_command_defaults_to_the_setting(played: Callable[..., GameSession], settings: Any) -> None:
    settings.TRIAL_RETENTION_DAYS = 30
    played(40)
    kept = played(10)
    assert _run() == "Deleted 1 session (1 trial) over for more than 30 days.\n"
    assert _sessions() == {kept.pk}


def test_command_refuses_without_days_or_setting(
    played: Callable[..., GameSession], settings: Any
) -> None:
    if hasattr(settings, "TRIAL_RETENTION_DAYS"):
        del settings.TRIAL_RETENTION_DAYS
    played(400)
    with pytest.raises(CommandError, match="pass --days N or set TRIAL_RETENTION_DAYS"):
        _run()
    settings.TRIAL_RETENTION_DAYS = None  # set, but to "keep everything"
    with pytest.raises(CommandError, match="pass --days N or set TRIAL_RETENTION_DAYS"):
        _run()
    assert Trial.objects.count() == 1


@pytest.mark.parametrize("args", [("--days", "0"), ("--days", "-3")])
def test_command_refuses_fewer_than_one_day(
    played: Callable[..., GameSession], args: tuple[str, ...]
) -> None:
    played(400)
    with pytest.raises(CommandError, match="at least 1"):
        _run(*args)
    assert Trial.objects.count() == 1


def test_command_refuses_a_setting_that_is_not_a_number(
    played: Callable[..., GameSession], settings: Any
) -> None:
    settings.TRIAL_RETENTION_DAYS = "30"
    played(400)
    with pytest.raises(CommandError, match="whole number"):
        _run()
    settings.TRIAL_RETENTION_DAYS = 0
    with pytest.raises(CommandError, match="at least 1"):
        _run()
    assert Trial.objects.count() == 1


def test_command_refuses_days_that_are_not_a_number(db: None) -> None:
    with pytest.raises(CommandError, match="invalid int value"):
        _run("--days", "soon")


# --------------------------------------------------------------------------------------------
# In the background: the task worker prunes when it starts and every day after


DATABASE_TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


def test_the_worker_prunes_old_sessions_when_it_starts(
    played: Callable[..., GameSession], settings: Any, transactional_db: None
) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.TRIAL_RETENTION_DAYS = 7
    played(8, trials=3)
    kept = played(6)
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--niceness", "0", "-v", "0")
    assert _sessions() == {kept.pk}
    assert Trial.objects.count() == 1
    result = DBTaskResult.objects.get(task_path="classroom.tasks.retention_prune")
    assert result.status == "SUCCESSFUL"
    assert result.return_value == {"sessions": 1, "trials": 3, "days": 7}


def test_without_a_retention_period_the_worker_queues_no_prune(
    played: Callable[..., GameSession], settings: Any, transactional_db: None
) -> None:
    settings.TASKS = DATABASE_TASKS
    settings.TRIAL_RETENTION_DAYS = None
    old = played(400)
    call_command("tasks_worker", "--batch", "--no-startup-delay", "--niceness", "0", "-v", "0")
    assert _sessions() == {old.pk}
    assert not DBTaskResult.objects.exists()


def test_the_prune_clock_asks_once_per_period_until_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int] = []
    monkeypatch.setattr(tasks_worker, "prune_ask", lambda: asked.append(1))
    monkeypatch.setattr(tasks_worker, "close_old_connections", lambda: None)

    class Ticks:
        """An Event whose waits time out twice, then report it set: no real waiting."""

        def __init__(self) -> None:
            self.waits: list[float] = []

        def wait(self, timeout: float) -> bool:
            self.waits.append(timeout)
            return len(self.waits) > 2

    ticks = Ticks()
    tasks_worker.prune_clock(ticks, every_s=86400.0)  # type: ignore[arg-type]
    assert asked == [1, 1]
    assert ticks.waits == [86400.0] * 3
