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


async def test_beats_go_at_once_then_every_interval_while_answered() -> None:
    """A table socket's probes (``beat``): the first at once, then every 2 s; each answer is a
    frame heard, so an answered socket is never taken for silent."""
    clock = _Clock()
    beats: list[float] = []
    calls: list[float] = []

    async def beat() -> None:
        beats.append(clock.now)
        if clock.now < 7.0:
            watchdog.heard()  # answered at once, until the tablet goes quiet after 6 s

    async def silent() -> None:
        calls.append(clock.now)

    watchdog = SilenceWatchdog(
        silent, limit_s=4.0, clock=clock, sleep=clock.sleep, beat=beat, beat_every_s=2.0
    )
    watchdog.arm()
    for _ in range(10):
        await _settle()
    assert beats == [0.0, 2.0, 4.0, 6.0, 8.0]
    # Last heard at 6 s (the answer to that beat): silent 4 s later, with no beat after it.
    assert calls == [10.0]
    assert clock.naps == [2.0, 2.0, 2.0, 2.0, 2.0]


async def test_a_failing_beat_is_logged_and_the_beats_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = _Clock()
    beats: list[float] = []

    async def beat() -> None:
        beats.append(clock.now)
        if len(beats) == 1:
            raise RuntimeError("socket busy")
        watchdog.heard()

    async def silent() -> None:
        pass

    watchdog = SilenceWatchdog(
        silent, limit_s=4.0, clock=clock, sleep=clock.sleep, beat=beat, beat_every_s=2.0
    )
    watchdog.arm()
    for _ in range(3):
        await _settle()
    watchdog.stop()
    assert beats[:3] == [0.0, 2.0, 4.0]
    assert "a heartbeat beat failed" in caplog.text
