"""GET /_diagnostics/: off by default, loopback only, and honest figures when on."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace

import pytest
from django.test import AsyncClient, Client, override_settings
from django.urls import reverse


def test_diagnostics_are_off_by_default(client: Client) -> None:
    # The settings module reads SNAPCLASS_DIAGNOSTICS; unset (as in every test run) means off.
    response = client.get(reverse("diagnostics"))

    assert response.status_code == 404


@override_settings(SNAPCLASS_DIAGNOSTICS=False)
def test_diagnostics_switched_off_answer_404_even_from_loopback(client: Client) -> None:
    response = client.get(reverse("diagnostics"), REMOTE_ADDR="127.0.0.1")

    assert response.status_code == 404


@override_settings(SNAPCLASS_DIAGNOSTICS=True)
def test_diagnostics_report_this_process(client: Client) -> None:
    response = client.get(reverse("diagnostics"), REMOTE_ADDR="127.0.0.1")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    figures = response.json()
    assert figures["pid"] == os.getpid()
    assert figures["rss_bytes"] > 10 * 1024 * 1024  # Django alone is more than 10 MB
    assert figures["open_fds"] >= 3  # stdin, stdout, stderr at least
    assert 0 <= figures["socket_fds"] <= figures["open_fds"]
    assert figures["asyncio_tasks"] >= 1  # the view itself runs in a task
    assert figures["threads"] >= 1
    assert figures["live_tables"] == 0
    assert figures["table_listeners"] == 0
    # The in-memory layer (the embedded default) keeps no per-channel buffers of this kind.
    assert (figures["layer_buffers"], figures["layer_buffered_messages"]) == (0, 0)
    assert figures["teacher_page_stretch"] == 1.0  # no teacher page drawn here


@override_settings(SNAPCLASS_DIAGNOSTICS=True)
def test_diagnostics_count_what_waits_in_a_redis_layers_buffers(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    full, empty = asyncio.Queue[dict[str, str]](), asyncio.Queue[dict[str, str]]()
    full.put_nowait({"type": "table.reply"})
    full.put_nowait({"type": "table.reply"})
    layer = SimpleNamespace(receive_buffer={"specific.a!1": full, "specific.a!2": empty})
    monkeypatch.setattr("classroom.views.diagnostics.get_channel_layer", lambda: layer)
    figures = client.get(reverse("diagnostics"), REMOTE_ADDR="127.0.0.1").json()
    assert (figures["layer_buffers"], figures["layer_buffered_messages"]) == (2, 2)


@override_settings(SNAPCLASS_DIAGNOSTICS=True)
@pytest.mark.parametrize("address", ["10.0.0.7", "192.168.1.20", "2001:db8::1"])
def test_diagnostics_refuse_other_machines(client: Client, address: str) -> None:
    response = client.get(reverse("diagnostics"), REMOTE_ADDR=address)

    assert response.status_code == 404


@override_settings(SNAPCLASS_DIAGNOSTICS=True)
async def test_diagnostics_count_the_tasks_of_the_serving_loop() -> None:
    # Served in this test's own event loop: the count includes the tasks running here.
    sleepers = [asyncio.create_task(asyncio.sleep(30)) for _ in range(5)]
    try:
        response = await AsyncClient().get(reverse("diagnostics"), REMOTE_ADDR="127.0.0.1")
    finally:
        for sleeper in sleepers:
            sleeper.cancel()

    assert response.status_code == 200
    assert response.json()["asyncio_tasks"] >= 1 + len(sleepers)


@override_settings(SNAPCLASS_DIAGNOSTICS=True, TRUSTED_PROXIES=["127.0.0.1"])
def test_through_a_local_proxy_only_a_local_client_is_loopback(client: Client) -> None:
    # Behind a proxy on this machine every request comes from 127.0.0.1: the header decides.
    response = client.get(
        reverse("diagnostics"), REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="192.168.1.30"
    )
    assert response.status_code == 404
