"""The lobby sockets' database calls run on a thread of their own, which keeps its SQLite
connection, apart from the thread every other socket's calls share."""

from __future__ import annotations

import threading

import channels.db
import django.db
import pytest
from channels.db import database_sync_to_async
from django.db import connection, connections

from classroom.server.lobby_thread import lobby_database_call


def _where() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return threading.get_ident(), id(connection.connection)


@pytest.mark.django_db(transaction=True)
async def test_lobby_calls_share_one_thread_and_its_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Channels' communicators may have left their no-op patch behind: the real one here.
    monkeypatch.setattr(channels.db, "close_old_connections", django.db.close_old_connections)
    first = await lobby_database_call(_where)
    second = await lobby_database_call(_where)
    shared = await database_sync_to_async(threading.get_ident)()
    await lobby_database_call(connections.close_all)  # the test database is dropped later
    assert first == second  # the same thread, and the connection was not closed between
    assert first[0] not in (shared, threading.get_ident())


# The lobbies' thread may hold an earlier test's connection, which each call checks.
@pytest.mark.django_db(transaction=True)
async def test_a_lobby_call_passes_its_arguments_and_raises_what_it_raises() -> None:
    def divide(a: int, *, b: int) -> float:
        return a / b

    assert await lobby_database_call(divide, 6, b=3) == 2
    with pytest.raises(ZeroDivisionError):
        await lobby_database_call(divide, 1, b=0)
