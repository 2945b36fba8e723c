"""The silence watchdogs on virtual time: frames keep a socket open, silence closes it once,
beats go out on time, and every watchdog of a loop shares one task."""

from __future__ import annotations

import asyncio
import itertools
import logging

import pytest

from games.live.heartbeat import ROUND_EVERY_S, TIMER_SLACK_S, SilenceWatchdog, heartbeats
from tests.games.live.virtual_time import loop_outlives

pytestmark = pytest.mark.virtual_time


def _now() -> float:
    return asyncio.get_running_loop().time()


async def _until_idle() -> None:
    """Until the loop's watchdogs are all gone (silent or stopped) and their task is done."""
    while len(heartbeats()):
        await asyncio.sleep(1.0)
    await asyncio.sleep(ROUND_EVERY_S * 2)


async def test_silence_past_the_limit_calls_once() -> None:
    calls: list[float] = []

    async def silent() -> None:
        calls.append(_now())

    began = _now()
    watchdog = SilenceWatchdog(silent, limit_s=4.0)
    watchdog.heard()
    watchdog.arm()
    watchdog.arm()  # arming twice keeps one watch
    assert len(heartbeats()) == 1
    await _until_idle()
    assert calls == [pytest.approx(began + 4.0)]


async def test_frames_push_the_deadline_back() -> None:
    calls: list[float] = []

    async def silent() -> None:
        calls.append(_now())

    began = _now()
    watchdog = SilenceWatchdog(silent, limit_s=4.0)
    watchdog.arm()
    loop = asyncio.get_running_loop()
    for after in (2.0, 5.0):  # when frames come in
        loop.call_at(began + after, watchdog.heard)
    await _until_idle()
    # 4 s after the last frame (at 5 s).
    assert calls == [pytest.approx(began + 9.0)]


async def test_not_armed_is_never_called_and_stop_ends_the_watch() -> None:
    calls: list[float] = []

    async def silent() -> None:
        calls.append(_now())

    idle = SilenceWatchdog(silent, limit_s=1.0)
    stopped = SilenceWatchdog(silent, limit_s=1.0)
    stopped.arm()
    stopped.stop()
    await _until_idle()
    await asyncio.sleep(5.0)
    assert not idle.armed
    assert stopped.stopped
    assert calls == []
    assert len(heartbeats()) == 0


async def test_a_failing_close_is_logged_not_raised(caplog: pytest.LogCaptureFixture) -> None:
    async def silent() -> None:
        raise RuntimeError("socket already gone")

    SilenceWatchdog(silent, limit_s=1.0).arm()
    await _until_idle()
    assert "closing a silent socket failed" in caplog.text


async def test_beats_go_at_once_then_every_interval_while_answered() -> None:
    """A table socket's probes (``beat``): the first at once, then every 2 s; each answer is a
    frame heard, so an answered socket is never taken for silent."""
    beats: list[float] = []
    calls: list[float] = []
    began = _now()

    async def beat() -> None:
        beats.append(_now() - began)
        if _now() - began < 7.0:
            watchdog.heard()  # answered at once, until the tablet goes quiet after 6 s

    async def silent() -> None:
        calls.append(_now() - began)

    watchdog = SilenceWatchdog(silent, limit_s=4.0, beat=beat, beat_every_s=2.0)
    watchdog.arm()
    await _until_idle()
    assert beats == pytest.approx([0.0, 2.0, 4.0, 6.0, 8.0])
    # Last heard at 6 s (the answer to that beat): silent 4 s later, with no beat after it.
    assert calls == pytest.approx([10.0])


async def test_a_failing_beat_is_logged_and_the_beats_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    beats: list[float] = []
    began = _now()

    async def beat() -> None:
        beats.append(_now() - began)
        if len(beats) == 1:
            raise RuntimeError("socket busy")
        watchdog.heard()

    async def silent() -> None:
        pass

    watchdog = SilenceWatchdog(silent, limit_s=4.0, beat=beat, beat_every_s=2.0)
    watchdog.arm()
    await asyncio.sleep(5.0)
    watchdog.stop()
    await _until_idle()
    assert beats == pytest.approx([0.0, 2.0, 4.0])
    assert "a heartbeat beat failed" in caplog.text


async def test_a_watchdog_armed_while_the_others_sleep_beats_at_once() -> None:
    """A page's watchdog (no beat) is next due in 4 s; a tablet joining meanwhile is probed at
    once, not when the page's watch comes round."""
    beats: list[float] = []

    async def silent() -> None:
        pass

    async def beat() -> None:
        beats.append(_now())

    SilenceWatchdog(silent, limit_s=4.0).arm()
    await asyncio.sleep(1.0)
    joined = _now()
    tablet = SilenceWatchdog(silent, limit_s=4.0, beat=beat)
    tablet.arm()
    await asyncio.sleep(0.5)
    assert beats == [pytest.approx(joined)]
    tablet.stop()
    await _until_idle()


async def test_a_school_of_sockets_shares_one_task_and_wakes_the_loop_in_rounds() -> None:
    """1,000 tablets joining over 2 s, probed every 2 s for 10 s: one task for them all, about
    one wake-up every ROUND_EVERY_S instead of one per probe, and no probe late by more than
    a round."""
    sockets, every_s, seconds = 1000, 2.0, 10.0
    beats: dict[int, list[float]] = {number: [] for number in range(sockets)}
    watchdogs: list[SilenceWatchdog] = []

    def tablet(number: int) -> SilenceWatchdog:
        async def beat() -> None:
            beats[number].append(_now())
            watchdogs[number].heard()  # answered at once

        async def silent() -> None:
            raise AssertionError("an answering tablet was taken for silent")

        return SilenceWatchdog(silent, limit_s=4.0, beat=beat, beat_every_s=every_s)

    began = _now()
    for number in range(sockets):
        watchdogs.append(tablet(number))
        watchdogs[number].arm()
        await asyncio.sleep(every_s / sockets)
    tasks_while_armed = {task.get_name() for task in asyncio.all_tasks()}
    await asyncio.sleep(began + seconds - _now())
    for watchdog in watchdogs:
        watchdog.stop()
    await _until_idle()

    assert "socket-heartbeats" in tasks_while_armed
    assert len(tasks_while_armed) <= 2  # the test's own and the heartbeats'
    gaps = [b - a for times in beats.values() for a, b in itertools.pairwise(times)]
    assert len(gaps) >= sockets * 3
    assert min(gaps) >= every_s - TIMER_SLACK_S
    assert max(gaps) <= every_s + ROUND_EVERY_S + TIMER_SLACK_S
    rounds = {round(time, 6) for times in beats.values() for time in times[1:]}
    assert len(rounds) <= seconds / ROUND_EVERY_S + 1
    assert sum(len(times) for times in beats.values()) > 4 * len(rounds)


async def test_a_silent_socket_is_closed_while_the_others_beat_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """One tablet stops answering among answering ones: it alone is closed, 4 s after its last
    answer, and the others' probes go on."""
    closed: list[tuple[str, float]] = []
    beats: list[str] = []
    began = _now()

    def tablet(name: str, answers_until_s: float) -> SilenceWatchdog:
        async def beat() -> None:
            beats.append(name)
            if _now() - began < answers_until_s:
                watchdog.heard()

        async def silent() -> None:
            closed.append((name, _now() - began))

        watchdog = SilenceWatchdog(silent, limit_s=4.0, beat=beat, beat_every_s=2.0)
        return watchdog

    quiet, busy = tablet("quiet", 3.0), tablet("busy", 60.0)
    quiet.arm()
    busy.arm()
    with caplog.at_level(logging.WARNING):
        await asyncio.sleep(13.0)
    busy.stop()
    await _until_idle()
    assert [name for name, _ in closed] == ["quiet"]
    assert closed[0][1] == pytest.approx(6.0)  # its last answer was at 2 s
    assert beats.count("busy") == 7  # 0, 2, ... 12 s
    assert not caplog.records


def test_a_loop_that_ended_is_not_kept_alive_by_its_watchdogs() -> None:
    """The loop's watchdogs are kept in a map that holds the loop weakly: nothing of theirs
    may hold it strongly, or every test's loop would live on."""

    async def silent() -> None:
        pass

    async def play() -> None:
        watchdog = SilenceWatchdog(silent, beat=silent)
        watchdog.arm()
        await asyncio.sleep(1.0)
        watchdog.stop()
        await _until_idle()

    assert not loop_outlives(play)
