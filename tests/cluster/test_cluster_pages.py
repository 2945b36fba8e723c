"""Teacher pages in a cluster: the console and the ship watch on a process that does not host
the table still show it live (views travel with each change; watch frames through the
table's public group)."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

import pytest
from websockets.asyncio.client import connect

from tests.cluster.processes import cluster_site, drop_database, palm_strike_session
from tests.cluster.tablets import ScriptedTablet
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path

    from tests.cluster.processes import Site

LOGIN = """
from django.contrib.auth.models import User
from django.test import Client
client = Client()
client.force_login(User.objects.get(username="faults-teacher"))
print(json.dumps({"sessionid": client.cookies["sessionid"].value}))
"""


async def _frames_until(socket: Any, wanted: Any, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            text = await asyncio.wait_for(socket.recv(), timeout=0.5)
        except TimeoutError:
            continue
        if wanted(text):
            return str(text)
    raise AssertionError("the page never showed it")


async def _scenario(site: Site, prepared: dict[str, Any], session_cookie: str) -> None:
    port_a, port_b = list(site.processes)
    tablets = [
        ScriptedTablet(f"t{n}", prepared["code"], seat["token"], lambda: [port_a])
        for n, seat in enumerate(prepared["seats"])
    ]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(tablet.run(stop)) for tablet in tablets]  # A hosts the table
    deadline = time.monotonic() + 20
    while not any(tablet.acknowledged for tablet in tablets):
        assert time.monotonic() < deadline, "play did not start"
        await asyncio.sleep(0.05)
    headers = {"Cookie": f"sessionid={session_cookie}"}
    origin = f"http://127.0.0.1:{port_b}"
    session, table = prepared["session"], prepared["seats"][0]["table"]
    console_url = f"ws://127.0.0.1:{port_b}/ws/sessions/{session}/console/"
    async with connect(console_url, additional_headers=headers, origin=origin) as console:  # type: ignore[arg-type]
        # A live tile names its flip: a view from process A reached process B's console.
        await _frames_until(console, lambda text: "Flip " in text, 15)
    watch_url = f"ws://127.0.0.1:{port_b}/ws/sessions/{session}/tables/{table}/watch/"
    async with connect(watch_url, additional_headers=headers, origin=origin) as watch:  # type: ignore[arg-type]
        first = json.loads(await _frames_until(watch, lambda t: '"type":"state"' in t, 10))
        assert first["view"]["you"] is None  # the public view: no seat's hand
        later = json.loads(
            await _frames_until(
                watch,
                lambda t: '"type":"state"' in t and json.loads(t)["version"] > first["version"],
                15,
            )
        )
        assert later["epoch"] == first["epoch"]
    stop.set()
    await asyncio.gather(*tasks)


@pytest.mark.timeout(120)
def test_a_console_on_another_process_shows_the_table_live(tmp_path: Path) -> None:
    require("redis")
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    try:
        prepared = palm_strike_session(
            site, players=2, settings={"flip_pacing": "tap", "response_window_s": 1.0}
        )
        cookie = site.python(LOGIN)["sessionid"]
        site.start()
        site.start()
        try:
            asyncio.run(_scenario(site, prepared, cookie))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)
