"""The silence watchdog on a virtual clock: frames keep a socket open, silence closes it once."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from games.live.heartbeat import SilenceWatchdog

if TYPE_CHECKING:
    import pytest


class _Clock:
    """Time that moves only when the watchdog sleeps (or a test says so)."""

    def __init__(self) -> None:
        self.now = 0.0
        self.naps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.naps.append(seconds)
        self.now += seconds
        await asyncio.sleep(0)


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


async def test_silence_past_the_limit_calls_once() -> None:
    clock = _Clock()
    calls: list[float] = []

    async def silent() -> None:
        calls.append(clock.now)

    watchdog = SilenceWatchdog(silent, limit_s=4.0, clock=clock, sleep=clock.sleep)
    watchdog.heard()
    watchdog.arm()
    watchdog.arm()  # arming twice starts one watch
    await _settle()
    assert calls == [4.0]
    assert clock.naps == [4.0]


async def test_frames_push_the_deadline_back() -> None:
    clock = _Clock()
    calls: list[float] = []
    frames = [2.0, 5.0]  # when frames come in

    async def sleep(seconds: float) -> None:
        clock.naps.append(seconds)
        wake = clock.now + seconds
        while frames and frames[0] < wake:
            clock.now = frames.pop(0)
            watchdog.heard()
        clock.now = wake
        await asyncio.sleep(0)

    async def silent() -> None:
        calls.append(clock.now)

    watchdog = SilenceWatchdog(silent, limit_s=4.0, clock=clock, sleep=sleep)
    watchdog.arm()
    await _settle()
    # Called 4 s after the last frame (at 5 s), with one wake-up per deadline, none per frame.
    assert calls == [9.0]
    assert clock.naps == [4.0, 2.0, 3.0]


async def test_not_armed_is_never_called_and_stop_cancels() -> None:
    clock = _Clock()
    calls: list[float] = []

    async def silent() -> None:
        calls.append(clock.now)

    idle = SilenceWatchdog(silent, limit_s=1.0, clock=clock, sleep=clock.sleep)
    clock.now = 100.0
    await _settle()
    assert not idle.armed
    stopped = SilenceWatchdog(silent, limit_s=1.0, clock=clock, sleep=asyncio.sleep)
    stopped.arm()
    stopped.stop()
    await _settle()
    assert calls == []


async def test_a_failing_close_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    clock = _Clock()

    async def silent() -> None:
        raise RuntimeError("socket already gone")

    watchdog = SilenceWatchdog(silent, limit_s=1.0, clock=clock, sleep=clock.sleep)
    watchdog.arm()
    await _settle()
    assert "closing a silent socket failed" in caplog.text
