"""Flood: one tablet at 1,000 frames/s is throttled and closed (4008); the class plays on.

Real Daphne serves 40 students in 10 auto-flipping Palm Strike tables of 4: one process (the
embedded default), and a cluster of two on PostgreSQL and Redis with each table's tablets
alternating between the processes (so every flip also crosses Redis). Every tablet
measures, for each flip, the time from the server beginning it (the frame's ``at_ms``, the
machine's monotonic clock) to the frame arriving, in windows of three kinds:

- quiet: no flood (the baseline);
- flood: one student's tablet (another process, like another device) floods its socket at
  1,000 frames/s; each time it is closed it comes back half a second later (the first step
  of table_socket.js's backoff, as a page that ignored the final 4008 would) and floods
  again, so the flood recurs through the whole window;
- storm: the same, but reconnecting at once (refused at once too: a few hundred handshakes a
  second).

At 1,000 frames/s a socket is closed about 70 ms after it opens (30 frames of bucket, then
40 refusals), so without coming back the flood would be over before the first flip.

Quiet and flood windows alternate (quiet, flood, quiet, flood), so that load from elsewhere
on this shared machine, which comes and goes over tens of seconds, falls on both alike.
"""

from __future__ import annotations

import asyncio
import gc
import json
import statistics
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from tests.cluster.processes import (
    LAYOUTS,
    ROOT,
    embedded_site,
    layout_site,
    layout_start,
    site_discard,
)
from tests.faults.live import Tablet, kill_all, now_ms, palm_strike, table_tablet

if TYPE_CHECKING:
    from pathlib import Path

STUDENTS = 40
TABLE_SIZE = 4
AUTO_FLIP_S = 2.0
SETTINGS = {"flip_pacing": "auto", "auto_flip_s": AUTO_FLIP_S, "response_window_s": 1.5}
# Two quiet and two flood windows of this length: ~230 flips seen by the 39 for each kind.
WINDOW_S = 6.0
STORM_S = 8.0
FLOOD_RATE = 1000
CLOSE_POLICY = 4008
# classroom.sockets.base.FLOOD_STRIKES_TO_CLOSE, plus one: the frame that closes the socket.
FLOOD_STRIKES = 41
# p99 with the flood <= 1.5 x p99 without it + 5 ms. With ~200 flips per window a p99 is the
# worst two or three of them, and on a shared 2-core machine (Daphne, the tablets and the
# flooder on the same two cores) those are set by whatever else ran at that instant, so a
# pure ratio of few-millisecond p99s would fail on noise; 5 ms is far below what a child could
# notice and far below what an unthrottled flood does. For the same reason a failed comparison
# is measured once more (quiet, flood, quiet, flood again) and the second one decides: a real
# regression fails both, a stray spike from elsewhere on the machine rarely hits twice.
P99_RATIO = 1.5
P99_FLOOR_MS = 5.0
ATTEMPTS = 2
# The storm is beyond what the issue promises: the refused reconnects come back at once, a few
# hundred handshakes a second, and that does show (p99 2-3x the quiet one here). Play must
# still go on: no tablet dropped, no flip lost, and no stall, judged against the quiet p99
# measured just before the storm, with the same second chance as the flood. An absolute bound
# (250 ms until stop 30) failed in CI on a spike: 379 ms, while one quiet window of the
# same run had 264 ms.
STORM_P99_RATIO = 4.0
STORM_P99_FLOOR_MS = 20.0


@dataclass
class Window:
    start_ms: float
    end_ms: float


def _flip_latencies(tablet: Tablet, window: Window) -> list[float]:
    """For each flip the tablet first saw inside the window: arrival - server start (ms).

    The view a socket gets on joining is not a flip being broadcast, so it is left out.
    """
    latencies = []
    seen = None
    for received in tablet.received:
        frame = received.frame
        if frame.get("type") != "state":
            continue
        flip = int(frame["view"].get("flip") or 0)
        if seen is not None and flip > seen and window.start_ms <= received.at_ms < window.end_ms:
            latencies.append(received.at_ms - frame["at_ms"])
        seen = flip if seen is None else max(seen, flip)
    return latencies


def _p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


async def _quiet(seconds: float) -> Window:
    window = Window(now_ms(), now_ms() + seconds * 1000)
    await asyncio.sleep(seconds)
    return window


async def _flood(
    port: int, code: str, token: str, *, seconds: float, pause: float
) -> tuple[Window, dict[str, Any]]:
    """Run the flooder for a window; the window starts once it is flooding."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.faults.flooder",
        f"ws://127.0.0.1:{port}/ws/play/{code}/table/", f"seat_{code}={token}",
        f"http://127.0.0.1:{port}", str(seconds + 0.3), str(FLOOD_RATE), str(pause),
        cwd=ROOT, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    ready = await asyncio.wait_for(process.stdout.readline(), timeout=15)
    assert ready.strip() == b"ready", ready
    window = Window(now_ms(), now_ms() + seconds * 1000)
    output, _ = await asyncio.wait_for(process.communicate(), timeout=seconds + 20)
    assert process.returncode == 0
    return window, json.loads(output.decode().strip().splitlines()[-1])


async def _run(ports: list[int], prepared: dict[str, Any]) -> dict[str, Any]:
    code = prepared["code"]
    flooder, *others = prepared["seats"]
    port = ports[0]  # the flooder's process
    # In a cluster the seats alternate between the processes, so each table spans both.
    tablets = [
        await table_tablet(ports[(n + 1) % len(ports)], code, seat["token"]).open()
        for n, seat in enumerate(others)
    ]
    # Every table running and flipping before anything is measured.
    for tablet in tablets:
        await tablet.wait_for(
            lambda frame: frame.get("type") == "state" and frame["view"]["flip"] >= 1, timeout=10
        )

    def latencies(windows: list[Window]) -> list[float]:
        return [lat for t in tablets for w in windows for lat in _flip_latencies(t, w)]

    attempts: list[dict[str, Any]] = []
    floods: list[dict[str, Any]] = []
    windows: list[Window] = []
    for _attempt in range(ATTEMPTS):
        quiet, flooded = [], []
        for _round in range(2):
            quiet.append(await _quiet(WINDOW_S))
            window, flood = await _flood(port, code, flooder["token"], seconds=WINDOW_S, pause=0.5)
            flooded.append(window)
            floods.append(flood)
        windows += quiet + flooded
        attempt = {"quiet": _summary(latencies(quiet)), "flood": _summary(latencies(flooded))}
        attempts.append(attempt)
        if _within(attempt):
            break
    # The storm against the quiet windows just before it: the flood's at first, then its own.
    storms: list[dict[str, Any]] = []
    stormers: list[dict[str, Any]] = []
    before = quiet
    for _attempt in range(ATTEMPTS):
        if storms:
            before = [await _quiet(STORM_S)]
            windows += before
        storm_window, stormer = await _flood(port, code, flooder["token"], seconds=STORM_S, pause=0)
        windows.append(storm_window)
        stormers.append(stormer)
        storm = {"quiet": _summary(latencies(before)), "storm": _summary(latencies([storm_window]))}
        storms.append(storm)
        if _storm_within(storm):
            break
    dropped = [
        (n, others[n]["table"], tablet.close_code)
        for n, tablet in enumerate(tablets)
        if not tablet.open_now
    ]
    for tablet in tablets:
        await tablet.close()
    return {
        "attempts": attempts,
        "storms": storms,
        "floods": floods,
        "stormers": stormers,
        # The fewest flips any tablet saw in any window.
        "fewest_flips": min(len(_flip_latencies(t, w)) for t in tablets for w in windows),
        "dropped": dropped,
    }


def _p99_within(
    measured: dict[str, float], quiet: dict[str, float], ratio: float, floor_ms: float
) -> bool:
    return measured["p99"] <= ratio * quiet["p99"] + floor_ms


def _within(attempt: dict[str, Any]) -> bool:
    return _p99_within(attempt["flood"], attempt["quiet"], P99_RATIO, P99_FLOOR_MS)


def _storm_within(storm: dict[str, Any]) -> bool:
    return _p99_within(storm["storm"], storm["quiet"], STORM_P99_RATIO, STORM_P99_FLOOR_MS)


def _summary(latencies: list[float]) -> dict[str, float]:
    return {
        "n": len(latencies),
        "p50": round(statistics.median(latencies), 2),
        "p99": round(_p99(latencies), 2),
    }


def _check_flooder(result: dict[str, Any]) -> None:
    """Throttled first (slow_down), then closed with 4008: every socket, every time."""
    closed = [code for code in result["codes"] if code != -1]  # -1: open when time was up
    assert result["heard"].get("slow_down", 0) > 0, result
    assert closed, result
    assert all(code == CLOSE_POLICY for code in closed), result["codes"]
    # Coming back it was closed again: at once while the cooldown after a flood close lasts
    # (10 s, so a later flood window may meet only that), and it never stopped trying.
    assert len(closed) >= 2, result["codes"]


@pytest.mark.timeout(180)
@pytest.mark.alone
@pytest.mark.parametrize("layout", LAYOUTS)
def test_a_flooding_tablet_is_closed_and_the_others_play_on_unhurt(
    tmp_path: Path, layout: str
) -> None:
    """The flooder gets slow_down errors, then every one of its sockets is closed with 4008;
    the other 39 tablets stay connected and get every flip; with the flood their
    flip-to-tablet p99 stays within 1.5 times (+5 ms) of the quiet p99; a storm of instant
    reconnects drops nobody, loses no flip and keeps that p99 within 4 times (+20 ms)."""
    site = layout_site(layout, tmp_path)
    prepared = palm_strike(site, players=STUDENTS, table_size=TABLE_SIZE, settings=SETTINGS)
    assert len({seat["table"] for seat in prepared["seats"]}) == STUDENTS // TABLE_SIZE
    flooder_table = prepared["seats"][0]["table"]
    ports = layout_start(site, layout)
    # This process measures: a full garbage collection of the test runner's heap (Django,
    # pytest: ~100k objects) stalls every measuring tablet for ~100 ms and would be counted as
    # server latency. Frozen objects are never scanned, so collections stay small.
    gc.collect()
    gc.freeze()
    try:
        result = asyncio.run(_run(ports, prepared))
    except AssertionError as error:
        raise AssertionError(f"{error}\n{site.log_tail()}") from error
    finally:
        gc.unfreeze()
        site_discard(site)

    report = {
        "attempts": result["attempts"],
        "storms": result["storms"],
        "flood_sockets": sum(len(flood["codes"]) for flood in result["floods"]),
        "storm_sockets": [len(stormer["codes"]) for stormer in result["stormers"]],
        "storm_frames": [stormer["sent"] for stormer in result["stormers"]],
    }
    print(report)
    for flood in [*result["floods"], *result["stormers"]]:
        _check_flooder(flood)
    assert not result["dropped"], (result["dropped"], flooder_table, report)
    # Every flip reached every other tablet (a window may cut one off at each edge).
    assert result["fewest_flips"] >= int(WINDOW_S / AUTO_FLIP_S) - 1, report
    last = result["attempts"][-1]
    assert last["quiet"]["n"] >= 150, report
    assert last["flood"]["n"] >= 150, report
    assert _within(last), report
    assert _storm_within(result["storms"][-1]), report


async def _deaf_flooder(port: int, prepared: dict[str, Any]) -> dict[str, Any]:
    code = prepared["code"]
    flooder, mate = (table_tablet(port, code, seat["token"]) for seat in prepared["seats"])
    for tablet in (flooder, mate):
        await tablet.open()
        await tablet.wait_for(lambda frame: frame.get("type") == "state")
    # The flooder stops reading: it never sees (or answers) the server's close, which stays
    # in its closing handshake until autobahn gives up (up to about a second), and it keeps
    # sending syncs; the bucket refills a token every 67 ms, so some would pass it again.
    flooder.pause_reading()
    for seq in range(30 + FLOOD_STRIKES):
        await flooder.send({"type": "ping", "seq": seq})
    sent_after = 0
    for seq in range(100):
        await asyncio.sleep(0.02)
        if not await flooder.try_send({"type": "sync", "seq": seq}):
            break  # the server gave up on the handshake and dropped the connection
        sent_after += 1
    flooder.resume_reading()
    await flooder.wait_closed()
    await asyncio.sleep(0.3)
    result: dict[str, Any] = {"mate_close": mate.close_code, "sent_after": sent_after}
    if mate.open_now:
        # The table-mate is still at a running table: its host answers it.
        mark = len(mate.received)
        await mate.send({"type": "sync", "seq": 1})
        await mate.wait_for(lambda frame: frame.get("type") == "state", after=mark)
        await mate.send({"type": "ping", "seq": 2})
        await mate.wait_for(lambda frame: frame == {"type": "pong", "seq": 2}, after=mark)
    result["mate_open"] = mate.open_now
    await flooder.close()
    await mate.close()
    return result


@pytest.mark.timeout(90)
def test_a_closed_flooder_that_keeps_sending_does_not_stop_its_table(tmp_path: Path) -> None:
    """Regression: once a socket is closed for flooding, nothing more it sends is read.

    Found by the test above: frames that still arrived while the server's 4008 close waited
    for the tablet's answer passed the (by then refilled) bucket, the host answered them on
    the closing socket, Daphne raised, and the exception stopped the table's host: every
    table-mate was closed with 4012 and the table restarted from its log.
    """
    site = embedded_site(tmp_path)
    prepared = palm_strike(site, players=2, table_size=2, settings={"flip_pacing": "tap"})
    port = site.start()
    try:
        result = asyncio.run(_deaf_flooder(port, prepared))
    except AssertionError as error:
        raise AssertionError(f"{error}\n{site.log_tail()}") from error
    finally:
        kill_all(site)
    assert result["sent_after"] >= 1, result  # it did keep talking into the closing socket
    assert result["mate_open"], result
    assert result["mate_close"] is None, result
