"""The HTTP handler runs a sync page's middleware and view in one thread hop, and still serves
async views, errors and every middleware's headers as Django's own handler does."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import SyncToAsync
from channels.testing import HttpCommunicator
from django.core.handlers.asgi import ASGIHandler

from classroom.server.http_handler import OneHopASGIHandler
from classroom.views import health
from classroom.web.no_store import NoStoreMiddleware

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse, HttpResponseBase


async def _get(handler: ASGIHandler, path: str) -> dict[str, Any]:
    communicator = HttpCommunicator(handler, "GET", path, headers=[(b"host", b"testserver")])
    return await communicator.get_response(timeout=10)


async def _hops_for(handler: ASGIHandler, path: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times the request entered ``sync_to_async`` (each is a hand-off to a thread)."""
    hops = 0
    original = SyncToAsync.__call__

    async def counted(self: SyncToAsync[Any, Any], *args: Any, **kwargs: Any) -> Any:
        nonlocal hops
        hops += 1
        return await original(self, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(SyncToAsync, "__call__", counted)
        response = await _get(handler, path)
    assert response["status"] == 200
    return hops


async def test_a_sync_page_takes_far_fewer_thread_hops_than_djangos_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ours = await _hops_for(OneHopASGIHandler(), "/healthz", monkeypatch)
    djangos = await _hops_for(ASGIHandler(), "/healthz", monkeypatch)
    # Ours: the chain, and Django's request_finished close; Django's own: one per middleware hook.
    assert ours <= 3, (ours, djangos)
    assert djangos >= 3 * ours, (ours, djangos)


async def test_the_middleware_and_the_view_run_on_one_thread_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: dict[str, int] = {}
    plain = health._plain
    process_response = NoStoreMiddleware.process_response

    def view_answer(text: str, status: int) -> HttpResponse:
        threads["view"] = threading.get_ident()
        return plain(text, status)

    def middleware_hook(
        self: NoStoreMiddleware, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        threads["middleware"] = threading.get_ident()
        return process_response(self, request, response)

    monkeypatch.setattr(health, "_plain", view_answer)
    monkeypatch.setattr(NoStoreMiddleware, "process_response", middleware_hook)
    response = await _get(OneHopASGIHandler(), "/healthz")
    assert response["body"] == b"ok\n"
    assert threads["view"] == threads["middleware"] != threading.get_ident()


async def test_every_middleware_still_sets_its_headers() -> None:
    response = await _get(OneHopASGIHandler(), "/healthz")
    headers = {name.decode().lower(): value.decode() for name, value in response["headers"]}
    assert "no-store" in headers["cache-control"]
    assert headers["x-frame-options"] == "DENY"
    assert "content-security-policy" in headers
    assert headers["x-content-type-options"] == "nosniff"


async def test_an_unknown_address_gets_the_sites_not_found_page() -> None:
    response = await _get(OneHopASGIHandler(), "/no-such-page/")
    assert response["status"] == 404
    assert b"<html" in response["body"].lower()


@pytest.mark.django_db(transaction=True)
async def test_an_async_view_still_answers() -> None:
    response = await _get(OneHopASGIHandler(), "/readyz")
    assert response["status"] in (200, 503)
    assert b"database ok" in response["body"]


async def test_a_thread_still_running_an_abandoned_view_is_lent_to_no_other_request(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A client that goes away leaves its view running on the request's thread (Django cancels
    the task, not the thread); the next request must not queue behind it."""
    import asyncio

    from asgiref.testing import ApplicationCommunicator

    from classroom.server.request_threads import RequestThreads

    release = threading.Event()
    plain = health._plain
    calls = 0

    def slow_once(text: str, status: int) -> HttpResponse:
        nonlocal calls
        calls += 1
        if calls == 1:
            release.wait(timeout=30)
        return plain(text, status)

    monkeypatch.setattr(health, "_plain", slow_once)
    handler = OneHopASGIHandler()
    handler.request_threads = RequestThreads(keep=1, wait_s=0.05)
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/healthz",
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
    }
    abandoned = ApplicationCommunicator(handler, scope)
    await abandoned.send_input({"type": "http.request", "body": b"", "more_body": False})
    await asyncio.sleep(0.2)  # the view is running (and waiting) on the one kept thread
    await abandoned.send_input({"type": "http.disconnect"})
    await abandoned.wait(timeout=5)
    try:
        # Answered while the abandoned view still holds the kept thread.
        response = await _get(handler, "/healthz")
        assert response["status"] == 200
        assert not release.is_set()
    finally:
        release.set()
    # Once idle, the kept thread is back in the pool, and the next request has it.
    for _ in range(250):
        if handler.request_threads._free:
            break
        await asyncio.sleep(0.02)
    assert handler.request_threads.made == 1
    assert len(handler.request_threads._free) == 1
