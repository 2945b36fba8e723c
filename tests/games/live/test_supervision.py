"""Supervised tasks: a failure is logged with its traceback and the task starts again."""

from __future__ import annotations

import asyncio

import pytest

from games.live.supervision import BACKOFF_S, supervised


async def test_a_task_that_raises_is_logged_and_restarted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    runs: list[int] = []
    waits: list[float] = []

    async def run() -> None:
        runs.append(len(runs))
        if len(runs) <= 3:
            raise ConnectionError(f"failure {len(runs)}")

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    await supervised("test loop", run, sleep=sleep, clock=lambda: 0.0)
    assert runs == [0, 1, 2, 3]  # restarted after each failure, then returned
    assert waits == list(BACKOFF_S[:3])  # a growing backoff between restarts
    failures = [record for record in caplog.records if "test loop failed" in record.message]
    assert len(failures) == 3
    assert all(record.exc_info is not None for record in failures)  # with the traceback
    assert "failure 2" in caplog.text


async def test_the_backoff_starts_afresh_after_a_healthy_run() -> None:
    now = [0.0]
    waits: list[float] = []
    runs = 0

    async def run() -> None:
        nonlocal runs
        runs += 1
        if runs == 3:
            now[0] += 60.0  # this run was healthy for a minute before it failed
        if runs < 5:
            raise RuntimeError("boom")

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    await supervised("loop", run, sleep=sleep, clock=lambda: now[0])
    assert waits == [BACKOFF_S[0], BACKOFF_S[1], BACKOFF_S[0], BACKOFF_S[1]]


async def test_cancelling_a_supervised_task_stops_it() -> None:
    started = asyncio.Event()

    async def run() -> None:
        started.set()
        await asyncio.Event().wait()

    task = asyncio.ensure_future(supervised("forever", run))
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
