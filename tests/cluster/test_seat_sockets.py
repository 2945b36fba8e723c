"""One live socket per seat across processes: a seat opened on process B closes its socket
on process A (through the channel layer), with the "replaced" frame and 4409."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.cluster.processes import cluster_site, drop_database, palm_strike_session
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path

    from tests.cluster.processes import Site


async def _frame(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        frame = json.loads(await asyncio.wait_for(socket.recv(), timeout=10))
        if frame["type"] == kind:
            return dict(frame)
    raise AssertionError(f"no {kind} frame")


async def _closed(socket: Any) -> None:
    for _ in range(50):
        try:
            await asyncio.wait_for(socket.recv(), timeout=10)
        except ConnectionClosed:
            return
    raise AssertionError("the older socket stayed open")


def _open(port: int, code: str, token: str) -> Any:
    return connect(
        f"ws://127.0.0.1:{port}/ws/play/{code}/table/",
        additional_headers={"Cookie": f"seat_{code}={token}"},
        origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
        open_timeout=10,
    )


async def _scenario(site: Site, prepared: dict[str, Any]) -> None:
    port_a, port_b = list(site.processes)
    code, token = prepared["code"], prepared["seats"][0]["token"]
    async with _open(port_a, code, token) as first:
        await _frame(first, "state")
        async with _open(port_b, code, token) as second:
            await _frame(second, "state")
            error = await _frame(first, "error")
            assert error["code"] == "replaced"
            await _closed(first)
            assert first.close_code == 4409
            # The newer socket plays on.
            await second.send(json.dumps({"type": "sync", "seq": 7}))
            assert (await _frame(second, "state"))["view"]["game"] == "palm_strike"


@pytest.mark.timeout(120)
def test_a_seat_opened_on_another_process_closes_the_older_socket(tmp_path: Path) -> None:
    require("redis")
    require("postgres")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    try:
        prepared = palm_strike_session(site, players=2, settings={"flip_pacing": "tap"})
        site.start()
        site.start()
        try:
            asyncio.run(_scenario(site, prepared))
        except AssertionError as error:
            raise AssertionError(f"{error}\n{site.log_tail()}") from error
    finally:
        site.stop_all()
        if site.postgres_db:
            drop_database(POSTGRES_URL, site.postgres_db)
