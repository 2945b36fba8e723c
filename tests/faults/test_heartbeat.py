"""The server's half of the heartbeat, against a real Daphne: a tablet that stops answering.

A Wi-Fi drop sends nothing, not even a TCP reset: the server only learns of it by the silence.
Here a tablet connects and keeps the heartbeat as table_socket.js does (it answers the server's
probes, and pings only when it hears nothing), then goes quiet with its socket
still open (it stops reading and sending). The server closes it, and the console says so.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.cluster.processes import embedded_site
from tests.faults.live import Tablet, kill_all, login_cookie, palm_strike, table_tablet
from tests.page_heartbeat import page_ping_every_s, page_quiet_ping_s

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.cluster.processes import Site

TAP = {"flip_pacing": "tap", "response_window_s": 1.0}
# The console must show the truth within this long of the tablet's last frame (the design:
# 4 s of silence, then Daphne's 1 s closing handshake with a peer that does not answer).
CONSOLE_TRUTH_S = 6.0


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, int]]:
    site = embedded_site(tmp_path_factory.mktemp("heartbeat"))
    port = site.start()
    yield site, port
    kill_all(site)


async def _keeping_heartbeat(tablet: Tablet, stop: asyncio.Event) -> None:
    """As table_socket.js does: each probe answered at once, a ping only after a quiet spell."""
    seq, read = 1000, 0
    every_s, quiet_s = page_ping_every_s(), page_quiet_ping_s()
    pinged_at = float("-inf")
    while not stop.is_set():
        probes = [r.frame for r in tablet.received[read:] if r.frame.get("type") == "probe"]
        for probe in probes:
            if not await tablet.try_send({"type": "ping", "seq": probe["seq"]}):
                return
        read = len(tablet.received)
        now = time.monotonic()
        heard_s = now - tablet.received[-1].at_ms / 1000 if tablet.received else quiet_s
        if heard_s >= quiet_s and now - pinged_at >= every_s:
            seq, pinged_at = seq + 1, now
            if not await tablet.try_send({"type": "ping", "seq": seq}):
                return
        await asyncio.sleep(0.05)


async def _connected_count(console: Tablet, count: int, after: int, timeout: float) -> float:
    """When (monotonic) the console first said ``count connected`` from frame ``after`` on."""
    await console.wait_for(
        lambda f: f["type"] == "html" and f"{count} connected" in f["html"],
        after=after,
        timeout=timeout,
    )
    return time.monotonic()


async def _one_goes_quiet(port: int, prepared: dict[str, Any], cookie: str) -> dict[str, Any]:
    code = prepared["code"]
    quiet, steady, silent_bot = (
        table_tablet(port, code, seat["token"]) for seat in prepared["seats"]
    )
    for page in (quiet, steady):
        page.url += "?heartbeat=1"  # as table_socket.js connects
    console = Tablet(
        url=f"ws://127.0.0.1:{port}/ws/sessions/{prepared['session']}/console/",
        cookie=cookie,
        origin=f"http://127.0.0.1:{port}",
    )
    await console.open()
    for tablet in (quiet, steady, silent_bot):
        await tablet.open()
        await tablet.wait_for(lambda f: f.get("type") == "state")
    await _connected_count(console, 3, 0, 10)
    stop = asyncio.Event()
    keepers = [asyncio.ensure_future(_keeping_heartbeat(t, stop)) for t in (quiet, steady)]
    await quiet.wait_for(lambda f: f.get("type") == "probe")
    # A script pings now and then: that alone does not hold it to the heartbeat.
    await silent_bot.send({"type": "ping", "seq": 1})
    await silent_bot.wait_for(lambda f: f.get("type") == "pong")
    # The Wi-Fi drops: the quiet tablet stops answering and it reads nothing more.
    keepers[0].cancel()
    went_quiet = time.monotonic()
    quiet.pause_reading()
    mark = len(console.received)
    shown = await _connected_count(console, 2, mark, CONSOLE_TRUTH_S + 4)
    # Long enough for a wrong close of the others to show too.
    await asyncio.sleep(1.5)
    stop.set()
    await asyncio.gather(*keepers[1:])
    result = {
        "truth_s": shown - went_quiet,
        "later": [r.frame["html"] for r in console.received[mark:] if r.frame["type"] == "html"],
        "steady_open": steady.open_now,
        "bot_open": silent_bot.open_now,
    }
    quiet.resume_reading()
    result["quiet_code"] = await quiet.wait_closed(10)
    for tablet in (steady, silent_bot, console):
        await tablet.close()
    return result


@pytest.mark.timeout(90)
def test_a_tablet_that_stops_answering_is_dropped_and_the_console_shows_it(
    served: tuple[Site, int],
) -> None:
    """Three tablets: two connect as table_socket.js does (?heartbeat=1) and keep the heartbeat
    as the page does, then one of them goes silent; the third is a script that pinged once. Only the
    silent page is closed (4001), and the console shows it disconnected within 6 s of its
    last frame."""
    site, port = served
    prepared = palm_strike(site, players=3, table_size=3, settings=TAP)
    cookie = login_cookie(site, prepared["teacher"])
    result = asyncio.run(_one_goes_quiet(port, prepared, cookie))

    print(f"console showed the silent tablet disconnected after {result['truth_s']:.2f} s")
    assert result["truth_s"] < CONSOLE_TRUTH_S, result["truth_s"]
    assert result["quiet_code"] == 4001
    assert result["steady_open"], "a tablet that kept the heartbeat was closed"
    assert result["bot_open"], "a script that did not ask was held to the heartbeat"
    assert not any("1 connected" in html for html in result["later"]), result["later"]
    assert "Traceback" not in site.log_tail()
