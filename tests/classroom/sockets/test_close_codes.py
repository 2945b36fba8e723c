"""The close codes are defined once and every page hands them to its scripts by name."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from classroom.asgi import application
from classroom.sockets.close_codes import CloseCode, close_codes_by_name

if TYPE_CHECKING:
    from django.test import Client

SCRIPT = re.compile(
    r'<script id="snapclass-close-codes" type="application/json">(?P<codes>.*?)</script>'
)


def test_the_codes_are_the_ones_the_tablets_know() -> None:
    assert close_codes_by_name() == {
        "SILENT": 4001,
        "POLICY": 4008,
        "SERVICE_RESTART": 4012,
        "TRY_AGAIN": 4013,
        "NEXT_GAME": 4100,
        "NO_SEAT": 4401,
        "FORBIDDEN": 4403,
        "REMOVED": 4403,
        "NOT_PLAYING": 4404,
        "REPLACED": 4409,
        "TOO_MANY_SOCKETS": 4429,
    }
    # Every code a socket may be closed with is one an application may send (autobahn).
    assert all(3000 <= code <= 4999 for code in CloseCode)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["join", "login"])
def test_every_page_carries_the_codes_for_its_scripts(client: Client, name: str) -> None:
    page = client.get(reverse(name)).content.decode()
    found = SCRIPT.search(page)
    assert found is not None
    assert json.loads(found["codes"]) == close_codes_by_name()


@pytest.mark.django_db
def test_a_teachers_page_carries_them_too(teacher_client: Client) -> None:
    found = SCRIPT.search(teacher_client.get(reverse("home")).content.decode())
    assert found is not None
    assert json.loads(found["codes"])["SERVICE_RESTART"] == CloseCode.SERVICE_RESTART


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/play/NOSUCH/table/", "/ws/play/NOSUCH/"])
async def test_a_socket_is_closed_with_a_plain_number(path: str) -> None:
    # Daphne's WebSocket layer refuses a close code that is not exactly an int (1011 instead).
    headers = [(b"host", b"127.0.0.1"), (b"origin", b"http://127.0.0.1")]
    socket = WebsocketCommunicator(application, path, headers=headers)
    assert (await socket.connect(timeout=3))[0]
    while (output := await socket.receive_output(timeout=3))["type"] != "websocket.close":
        pass
    assert output["code"] == CloseCode.NO_SEAT
    assert type(output["code"]) is int
