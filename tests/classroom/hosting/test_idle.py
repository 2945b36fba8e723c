"""The idle-session watcher: a loop over an injected clock and sleep (no waiting)."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import timezone

from classroom.hosting import idle
from classroom.models import GameSession, Seat
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import IDLE_END_AFTER, session_start

if TYPE_CHECKING:
    from collections.abc import Callable


@pytest.mark.django_db(transaction=True)
async def test_the_watcher_ends_a_session_once_its_clock_passes_thirty_idle_minutes(
    make_session: Callable[..., GameSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels.db import database_sync_to_async

    def setup() -> GameSession:
        session = make_session()
        for name in ("Ann", "Ben"):
            seat_join_guest(session=session, nickname=name)
        session = session_start(session=GameSession.objects.get(pk=session.pk))
        seen = timezone.now()
        GameSession.objects.filter(pk=session.pk).update(started_at=seen)
        Seat.objects.filter(session=session).update(last_seen_at=seen)
        return session

    session = await database_sync_to_async(setup)()
    start = timezone.now()
    # Each look happens one minute later on the injected clock; the sleep returns at once.
    looks: list[Any] = []
    clock_at = iter([start + timedelta(minutes=1), start + IDLE_END_AFTER + timedelta(minutes=1)])

    def clock() -> Any:
        moment = next(clock_at)
        looks.append(moment)
        return moment

    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def status() -> str:
        return (await GameSession.objects.aget(pk=session.pk)).status

    await idle.idle_watch(clock=clock, sleep=sleep, rounds=1)
    assert await status() == GameSession.Status.RUNNING
    await idle.idle_watch(clock=clock, sleep=sleep, rounds=1)
    assert await status() == GameSession.Status.ENDED
    assert slept == [idle.LOOK_EVERY_S, idle.LOOK_EVERY_S]
    assert len(looks) == 2
