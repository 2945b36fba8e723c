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
