"""GET /metrics: off by default, a bearer token when on; what the counting sites count."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import pytest
from django.test import AsyncClient, Client, override_settings
from django_tasks_db.models import DBTaskResult
from prometheus_client import REGISTRY

from classroom.hosting import table_hosts
from classroom.pages import render_budget
from classroom.server import metrics
from classroom.services.exports import export_prepare
from classroom.sockets.limits import SocketCap

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import GameSession


def _sample(name: str, labels: dict[str, str] | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


def test_metrics_are_off_unless_a_token_is_set(client: Client) -> None:
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404


@override_settings(METRICS_TOKEN="s3cret-scrape-token")
@pytest.mark.django_db
def test_metrics_need_the_bearer_token(client: Client) -> None:
    for header in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "s3cret"}):
        response = client.get("/metrics", headers=header)
        assert response.status_code == 401
        assert b"snapclass" not in response.content
    response = client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scrape-token")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    assert "no-cache" in response["Cache-Control"]
    text = response.content.decode()
    for name in (
        "snapclass_sockets_connected",
        "snapclass_live_tables",
        "snapclass_log_write_seconds_bucket",
        "snapclass_table_takeovers_total",
        "snapclass_flood_cutoffs_total",
        "snapclass_asyncio_tasks",
        'snapclass_background_tasks{state="queued"}',
        'snapclass_background_tasks{state="running"}',
        "snapclass_teacher_page_stretch",
        "snapclass_page_drawing_restarts_total",
    ):
        assert name in text


@override_settings(
    METRICS_TOKEN="s3cret-scrape-token",
    TASKS={"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}},
)
def test_background_tasks_queued_and_running_are_counted(
    client: Client, make_session: Callable[..., GameSession], teacher: User, settings: Any
) -> None:
    settings.EXPORTS_ROOT = "/nonexistent"  # nothing is built here: the tasks only wait
    exports = [
        export_prepare(owner=teacher, kind="workbook.xlsx", session=make_session())
        for _ in range(3)
    ]
    DBTaskResult.objects.filter(id=exports[0].task_id).update(status="RUNNING")
    client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret-scrape-token")
    assert _sample("snapclass_background_tasks", {"state": "queued"}) == 2
    assert _sample("snapclass_background_tasks", {"state": "running"}) == 1


async def test_open_sockets_are_counted_as_tablets_and_consoles() -> None:
    release = asyncio.Event()

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await release.wait()

    async def receive() -> dict[str, Any]:
        return {}

    async def send(message: dict[str, Any]) -> None:
        pass

    cap = SocketCap(app)
    scope = {"type": "websocket", "client": ("10.0.0.5", 5000), "headers": []}
    tablets = _sample("snapclass_sockets_connected", {"kind": "tablet"})
    consoles = _sample("snapclass_sockets_connected", {"kind": "console"})
    sockets = [
        asyncio.ensure_future(cap({**scope, "path": path}, receive, send))
        for path in ("/ws/play/ABC123/", "/ws/play/ABC123/table/", "/ws/sessions/4/console/")
    ]
    await asyncio.sleep(0)
    assert _sample("snapclass_sockets_connected", {"kind": "tablet"}) == tablets + 2
    assert _sample("snapclass_sockets_connected", {"kind": "console"}) == consoles + 1
    release.set()
    await asyncio.gather(*sockets)
    assert _sample("snapclass_sockets_connected", {"kind": "tablet"}) == tablets
    assert _sample("snapclass_sockets_connected", {"kind": "console"}) == consoles


async def test_each_log_commit_is_timed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_hosts, "action_log_append_many", lambda *, items: None)
    commits = _sample("snapclass_log_write_seconds_count")
    entries = _sample("snapclass_log_entries_written_total")
    writer = table_hosts.LogWriter()
    await writer._write(items=[(None, None, ()), (None, None, ())])  # type: ignore[list-item]
    assert _sample("snapclass_log_write_seconds_count") == commits + 1
    assert _sample("snapclass_log_entries_written_total") == entries + 2


def test_a_table_hosted_before_counts_as_a_takeover() -> None:
    before = _sample("snapclass_table_takeovers_total")
    metrics.table_taken_over(0)  # its first host ever
    assert _sample("snapclass_table_takeovers_total") == before
    metrics.table_taken_over(3)
    assert _sample("snapclass_table_takeovers_total") == before + 1


@pytest.mark.django_db(transaction=True)
@override_settings(METRICS_TOKEN="t")
async def test_live_tables_are_read_at_each_scrape() -> None:
    metrics.live_tables_from(lambda: 3)
    try:
        response = await AsyncClient().get("/metrics", headers={"Authorization": "Bearer t"})
    finally:
        metrics.live_tables_from(table_hosts.registry.running_count)
    assert "snapclass_live_tables 3.0" in response.content.decode()
    response = await AsyncClient().get("/metrics", headers={"Authorization": "Bearer t"})
    assert "snapclass_live_tables 0.0" in response.content.decode()  # none runs here


@override_settings(METRICS_TOKEN="t")
@pytest.mark.django_db
def test_the_teacher_pages_stretch_is_read_at_each_scrape(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    headers = {"Authorization": "Bearer t"}
    assert "snapclass_teacher_page_stretch 1.0" in client.get("/metrics", headers=headers).text
    monkeypatch.setattr(render_budget.teacher_render_budget, "_stretch", 2.5)
    assert "snapclass_teacher_page_stretch 2.5" in client.get("/metrics", headers=headers).text
