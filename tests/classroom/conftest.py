"""Fixtures of the site's tests."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession


@pytest.fixture
def started_session(make_session: Callable[..., GameSession]) -> GameSession:
    """A guest session of three at tables of two, started."""
    session = make_session(players_per_table=2)
    for name in ("Ava", "Ben", "Chen"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    return session
