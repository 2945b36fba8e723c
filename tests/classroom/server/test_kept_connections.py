"""SQLite connections stay open on the threads marked to keep them (the kept HTTP request
threads, the lobbies' thread); every other connection closes after its use (CONN_MAX_AGE 0),
the one thread every other socket's database calls share included."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from classroom.server.kept_connections import connection_keep_on_kept_thread
from classroom.server.lobby_thread import lobby_database_call
from classroom.server.request_threads import RequestThreads


@pytest.mark.django_db(transaction=True)
async def test_the_shared_database_thread_still_closes_its_connection(
    opened: list[int],
) -> None:
    assert connection.settings_dict["CONN_MAX_AGE"] == 0  # the site's setting

    def query() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    for _ in range(2):
        await database_sync_to_async(query)()
    assert len(opened) == 2, opened


def _on_a_request_thread(call: Any) -> None:
    thread = asyncio.run(RequestThreads(keep=1).take())
    thread.submit(call).result()
    thread.shutdown()


def _on_the_lobby_thread(call: Any) -> None:
    asyncio.run(lobby_database_call(call))


def _on_the_shared_thread(call: Any) -> None:
    asyncio.run(database_sync_to_async(call)())


def _on_this_thread(call: Any) -> None:
    call()


# The lobbies' thread may hold an earlier test's connection, which each call checks.
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("vendor", "run", "close_at"),
    [
        ("sqlite", _on_a_request_thread, None),
        ("sqlite", _on_the_lobby_thread, None),
        ("sqlite", _on_the_shared_thread, 123.0),
        ("sqlite", _on_this_thread, 123.0),
        ("postgresql", _on_a_request_thread, 123.0),
        ("postgresql", _on_the_lobby_thread, 123.0),
    ],
)
def test_only_sqlite_connections_of_the_kept_threads_are_kept(
    vendor: str, run: Any, close_at: float | None
) -> None:
    wrapper = SimpleNamespace(vendor=vendor, close_at=123.0)
    run(lambda: connection_keep_on_kept_thread(connection=wrapper))
    assert wrapper.close_at == close_at
