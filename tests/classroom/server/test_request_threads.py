"""HTTP requests run on kept threads whose SQLite connections outlive them (CONN_MAX_AGE is
0: every other connection still closes after its use); a burst past the kept threads waits a
moment for one to come back, then gets threads of its own."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import channels.db
import django.db
import pytest
from channels.testing import HttpCommunicator
from django.db import connection, connections
from django.http import HttpRequest, HttpResponse
from django.urls import path

from classroom.server.http_handler import OneHopASGIHandler
from classroom.server.request_threads import RequestThreads
from classroom.urls import urlpatterns as site_urls

seen: list[tuple[int, int]] = []  # (thread, connection) of each request
release = threading.Event()


def _where(request: HttpRequest) -> HttpResponse:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    seen.append((threading.get_ident(), id(connection.connection)))
    if request.GET.get("hold"):
        release.wait(10)
    return HttpResponse("here")


urlpatterns = [path("where/", _where), *site_urls]


async def _get(handler: OneHopASGIHandler, query: str = "") -> dict[str, Any]:
    communicator = HttpCommunicator(
        handler, "GET", f"/where/{query}", headers=[(b"host", b"testserver")]
    )
    response: dict[str, Any] = await communicator.get_response(timeout=10)
    await communicator.wait(timeout=10)  # the request is over: its thread is given back
    return response


@pytest.fixture
def where(settings: Any, monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    settings.ROOT_URLCONF = __name__
    seen.clear()
    release.clear()
    assert connection.settings_dict["CONN_MAX_AGE"] == 0  # the site's setting
    # Channels' communicators patch this around every await; two of them overlapping, as
    # here, can leave the patch behind for the tests after: put it back afterwards.
    monkeypatch.setattr(channels.db, "close_old_connections", django.db.close_old_connections)
    return seen


async def _close(handler: OneHopASGIHandler) -> None:
    """End the kept threads' connections (the test database is dropped after the run)."""
    threads = handler.request_threads
    for executor in [await threads.take() for _ in range(threads.made)]:
        executor.submit(connections.close_all).result()
        executor.shutdown()


@pytest.mark.django_db(transaction=True)
async def test_requests_one_after_another_share_a_thread_and_its_connection(where: Any) -> None:
    handler = OneHopASGIHandler()
    for _ in range(3):
        assert (await _get(handler))["status"] == 200
    await _close(handler)
    assert len(set(where)) == 1, where
    assert handler.request_threads.made == 1


@pytest.mark.django_db(transaction=True)
async def test_past_the_kept_threads_a_request_waits_for_one_to_come_back(
    where: Any, opened: list[int]
) -> None:
    handler = OneHopASGIHandler()
    handler.request_threads = RequestThreads(keep=1, wait_s=10)
    held = asyncio.ensure_future(_get(handler, "?hold=1"))
    while not where:  # the kept thread is lent to the held request
        await asyncio.sleep(0.01)
    waiting = asyncio.ensure_future(_get(handler))
    while not handler.request_threads.waiting:
        await asyncio.sleep(0.01)
    assert len(where) == 1  # it made no thread of its own
    release.set()
    assert (await held)["status"] == 200
    assert (await waiting)["status"] == 200
    await _close(handler)
    (held_thread, held_connection), (next_thread, next_connection) = where
    assert (next_thread, next_connection) == (held_thread, held_connection)
    assert handler.request_threads.made == 1
    assert len(opened) == 1, opened


@pytest.mark.django_db(transaction=True)
async def test_a_request_that_waited_long_enough_gets_a_thread_of_its_own(where: Any) -> None:
    handler = OneHopASGIHandler()
    handler.request_threads = RequestThreads(keep=1, wait_s=0.05)
    held = asyncio.ensure_future(_get(handler, "?hold=1"))
    while not where:
        await asyncio.sleep(0.01)
    assert (await _get(handler))["status"] == 200  # not waiting for the held one to end
    release.set()
    assert (await held)["status"] == 200
    await _close(handler)
    (kept_thread, _), (extra_thread, _) = where
    assert kept_thread != extra_thread
    assert handler.request_threads.made == 1


async def test_a_thread_given_back_goes_to_the_longest_waiting_request_still_there() -> None:
    threads = RequestThreads(keep=1, wait_s=10)
    lent = await threads.take()
    first = asyncio.ensure_future(threads.take())
    second = asyncio.ensure_future(threads.take())
    third = asyncio.ensure_future(threads.take())
    await asyncio.sleep(0)
    first.cancel()  # its request went away while it waited
    await asyncio.sleep(0)
    await threads.give_back(lent)
    assert await second is lent
    assert not third.done()
    third.cancel()
    await threads.give_back(lent)
    assert await threads.take() is lent  # nobody waits now: it was free again
    assert threads.made == 1
    lent.shutdown()


async def test_a_thread_given_to_a_request_that_went_away_goes_on_to_the_next() -> None:
    threads = RequestThreads(keep=1, wait_s=10)
    lent = await threads.take()
    gone = asyncio.ensure_future(threads.take())
    after = asyncio.ensure_future(threads.take())
    await asyncio.sleep(0)
    await threads.give_back(lent)  # to ``gone``, which is cancelled before it runs
    gone.cancel()
    assert await after is lent
    assert threads.made == 1
    lent.shutdown()


@pytest.mark.django_db(transaction=True)
async def test_a_one_off_thread_closes_its_connection(where: Any, opened: list[int]) -> None:
    handler = OneHopASGIHandler()
    handler.request_threads = RequestThreads(keep=0, wait_s=0)
    for _ in range(2):
        assert (await _get(handler))["status"] == 200
    (thread_1, _), (thread_2, _) = where
    assert opened == [thread_1, thread_2]  # a new connection each time


@pytest.mark.django_db(transaction=True)
async def test_kept_connections_are_opened_once(where: Any, opened: list[int]) -> None:
    handler = OneHopASGIHandler()
    for _ in range(3):
        assert (await _get(handler))["status"] == 200
    await _close(handler)
    assert len(opened) == 1, opened
