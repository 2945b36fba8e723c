"""GET /healthz and /readyz: no login, no redirect, no cache; /readyz names the part that fails."""

from __future__ import annotations

import asyncio
import contextlib

import pytest
from django.test import AsyncClient, Client, override_settings

from classroom.hosting import table_hosts
from classroom.views import health


def test_healthz_answers_ok_without_the_database(client: Client) -> None:
    # No django_db mark: any query here would raise.
    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "no-cache" in response["Cache-Control"]
    assert not response.cookies  # nothing about anyone


@pytest.mark.django_db(transaction=True)
async def test_readyz_answers_ok_when_every_part_answers() -> None:
    response = await AsyncClient().get("/readyz")

    assert response.status_code == 200
    assert response.content.decode().splitlines() == [
        "database ok",
        "channel_layer ok",
        "log_writer ok",
    ]
    assert "no-cache" in response["Cache-Control"]


async def _hangs() -> None:
    await asyncio.sleep(60)


async def _fails() -> None:
    raise ConnectionError("could not connect to server at 10.0.0.5 as user snapclass")


@pytest.mark.django_db(transaction=True)
async def test_readyz_says_503_and_which_part_hangs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(health, "PART_WITHIN_S", 0.05)
    monkeypatch.setitem(health.READY_PARTS, "channel_layer", _hangs)

    response = await AsyncClient().get("/readyz")

    assert response.status_code == 503
    lines = response.content.decode().splitlines()
    assert lines == ["database ok", "channel_layer timed out", "log_writer ok"]


@pytest.mark.django_db(transaction=True)
async def test_readyz_names_a_failure_without_its_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(health.READY_PARTS, "database", _fails)

    response = await AsyncClient().get("/readyz")

    assert response.status_code == 503
    text = response.content.decode()
    assert "database failed (ConnectionError)" in text
    assert "10.0.0.5" not in text
    assert "snapclass" not in text


@pytest.mark.django_db(transaction=True)
async def test_readyz_fails_when_the_log_writer_task_has_died() -> None:
    writer = table_hosts.log_writer
    dead = asyncio.ensure_future(asyncio.sleep(0))
    dead.cancel()  # as if the writer's task had died
    with contextlib.suppress(asyncio.CancelledError):
        await dead
    saved = writer._task, writer._loop
    writer._task, writer._loop = dead, asyncio.get_running_loop()
    try:
        response = await AsyncClient().get("/readyz")
    finally:
        writer._task, writer._loop = saved

    assert response.status_code == 503
    assert "log_writer failed (RuntimeError)" in response.content.decode()


@override_settings(SECURE_SSL_REDIRECT=True, ALLOWED_HOSTS=["school.example"])
def test_health_checks_are_not_redirected_to_https(client: Client) -> None:
    # The proxy checks over plain HTTP; every other page still goes to HTTPS.
    assert client.get("/healthz", HTTP_HOST="school.example").status_code == 200
    assert client.get("/", HTTP_HOST="school.example").status_code == 301
