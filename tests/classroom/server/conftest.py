"""Fixtures of the server tests."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import channels.db
import django.db
import pytest
from django.db.backends.signals import connection_created

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The thread of each database connection opened meanwhile."""
    # Channels' communicators patch close_old_connections around every await; two of them
    # overlapping can leave the patch behind for the tests after: the real one here.
    monkeypatch.setattr(channels.db, "close_old_connections", django.db.close_old_connections)
    threads: list[int] = []

    def count(**kwargs: Any) -> None:
        threads.append(threading.get_ident())

    connection_created.connect(count)
    yield threads
    connection_created.disconnect(count)
