"""Retention: trials older than N days are deleted by a service and a management command."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from classroom.models import ActionLogEntry, Seat, Table, Trial
from classroom.services import retention
from classroom.services.retention import trials_prune
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from classroom.models import GameSession

NOW = timezone.now()


@pytest.fixture
def seat(guest_session: GameSession) -> Seat:
    seat = seat_join_guest(session=guest_session, nickname="Mo")
    seat.refresh_from_db()
    return seat


@pytest.fixture
def trial_at(seat: Seat) -> Callable[[datetime], Trial]:
    def make(created_at: datetime) -> Trial:
        assert seat.table is not None
        trial = Trial.objects.create(
            session=seat.session,
            table=seat.table,
            seat=seat,
            log_seq=Trial.objects.count() + 1,
            game="palm_strike",
            kind="palm_strike.flip",
        )
        # created_at is auto_now_add: only an update can backdate it.
        Trial.objects.filter(pk=trial.pk).update(created_at=created_at)
        return trial

    return make


def _left() -> set[int]:
    return set(Trial.objects.values_list("pk", flat=True))


# --------------------------------------------------------------------------------------------
# The service


def test_prune_deletes_old_trials_and_keeps_recent_ones(
    trial_at: Callable[[datetime], Trial], seat: Seat
) -> None:
    for days in (31, 90, 400):
        trial_at(NOW - timedelta(days=days))
    recent = [trial_at(NOW - timedelta(days=days)) for days in (0, 1, 29)]
    assert seat.table is not None
    ActionLogEntry.objects.create(table=seat.table, seq=1, kind="act", server_ms=0)

    assert trials_prune(older_than_days=30, now=NOW) == 3

    assert _left() == {trial.pk for trial in recent}
    # Only trials go: the session, its seats and the table's log stay.
    assert Seat.objects.filter(pk=seat.pk).exists()
    assert Table.objects.filter(pk=seat.table.pk).exists()
    assert ActionLogEntry.objects.count() == 1


def test_prune_cuts_at_exactly_n_days(trial_at: Callable[[datetime], Trial]) -> None:
    on_the_line = trial_at(NOW - timedelta(days=30))
    just_past = trial_at(NOW - timedelta(days=30, seconds=1))
    assert trials_prune(older_than_days=30, now=NOW) == 1
    assert _left() == {on_the_line.pk}
    assert not Trial.objects.filter(pk=just_past.pk).exists()


def test_prune_works_through_many_batches(
    trial_at: Callable[[datetime], Trial], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(retention, "BATCH_SIZE", 2)
    for days in range(40, 45):
        trial_at(NOW - timedelta(days=days))
    kept = trial_at(NOW)
    assert trials_prune(older_than_days=30, now=NOW) == 5
    assert _left() == {kept.pk}


def test_prune_with_nothing_old_deletes_nothing(trial_at: Callable[[datetime], Trial]) -> None:
    kept = trial_at(NOW - timedelta(days=2))
    assert trials_prune(older_than_days=30, now=NOW) == 0
    assert _left() == {kept.pk}


def test_prune_defaults_to_the_current_time(trial_at: Callable[[datetime], Trial]) -> None:
    trial_at(timezone.now() - timedelta(days=8))
    kept = trial_at(timezone.now() - timedelta(days=6))
    assert trials_prune(older_than_days=7) == 1
    assert _left() == {kept.pk}


@pytest.mark.parametrize("days", [0, -5])
def test_prune_refuses_fewer_than_one_day(trial_at: Callable[[datetime], Trial], days: int) -> None:
    trial_at(NOW - timedelta(days=3))
    with pytest.raises(ValueError, match="at least 1"):
        trials_prune(older_than_days=days, now=NOW)
    assert Trial.objects.count() == 1


# --------------------------------------------------------------------------------------------
# The command


def _run(*args: str) -> str:
    out = io.StringIO()
    call_command("trials_prune", *args, stdout=out)
    return out.getvalue()


def test_command_deletes_with_days_and_says_how_many(
    trial_at: Callable[[datetime], Trial], settings: Any
) -> None:
    settings.TRIAL_RETENTION_DAYS = 365  # --days wins over the setting
    trial_at(timezone.now() - timedelta(days=40))
    trial_at(timezone.now() - timedelta(days=50))
    kept = trial_at(timezone.now() - timedelta(days=10))
    assert _run("--days", "30") == "Deleted 2 trials older than 30 days.\n"
    assert _left() == {kept.pk}


def test_command_defaults_to_the_setting(
    trial_at: Callable[[datetime], Trial], settings: Any
) -> None:
    settings.TRIAL_RETENTION_DAYS = 30
    trial_at(timezone.now() - timedelta(days=40))
    kept = trial_at(timezone.now() - timedelta(days=10))
    assert _run() == "Deleted 1 trial older than 30 days.\n"
    assert _left() == {kept.pk}


def test_command_refuses_without_days_or_setting(
    trial_at: Callable[[datetime], Trial], settings: Any
) -> None:
    if hasattr(settings, "TRIAL_RETENTION_DAYS"):
        del settings.TRIAL_RETENTION_DAYS
    trial_at(timezone.now() - timedelta(days=400))
    with pytest.raises(CommandError, match="pass --days N or set TRIAL_RETENTION_DAYS"):
        _run()
    settings.TRIAL_RETENTION_DAYS = None  # set, but to "keep everything"
    with pytest.raises(CommandError, match="pass --days N or set TRIAL_RETENTION_DAYS"):
        _run()
    assert Trial.objects.count() == 1


@pytest.mark.parametrize("args", [("--days", "0"), ("--days", "-3")])
def test_command_refuses_fewer_than_one_day(
    trial_at: Callable[[datetime], Trial], args: tuple[str, ...]
) -> None:
    trial_at(timezone.now() - timedelta(days=400))
    with pytest.raises(CommandError, match="at least 1"):
        _run(*args)
    assert Trial.objects.count() == 1


def test_command_refuses_a_setting_that_is_not_a_number(
    trial_at: Callable[[datetime], Trial], settings: Any
) -> None:
    settings.TRIAL_RETENTION_DAYS = "30"
    trial_at(timezone.now() - timedelta(days=400))
    with pytest.raises(CommandError, match="whole number"):
        _run()
    settings.TRIAL_RETENTION_DAYS = 0
    with pytest.raises(CommandError, match="at least 1"):
        _run()
    assert Trial.objects.count() == 1


def test_command_refuses_days_that_are_not_a_number(db: None) -> None:
    with pytest.raises(CommandError, match="invalid int value"):
        _run("--days", "soon")
