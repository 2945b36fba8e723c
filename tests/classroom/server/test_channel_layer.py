"""The cluster's channel layer waits through a Redis outage instead of ending every consumer."""

from __future__ import annotations

from typing import Any

import pytest
from channels_redis.core import RedisChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

from classroom.server import channel_layer, outages
from classroom.server.channel_layer import SteadyRedisChannelLayer


async def test_receive_waits_through_an_outage_and_counts_the_recovery(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    outages._last_logged.clear()
    answers: list[Any] = [RedisConnectionError("Error 111"), RedisConnectionError("Error 111")]
    answers.append({"type": "table.frame"})

    async def receive(self: RedisChannelLayer, channel: str) -> dict[str, Any]:
        answer = answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return dict(answer)

    monkeypatch.setattr(RedisChannelLayer, "receive", receive)
    monkeypatch.setattr(channel_layer, "RETRY_FIRST_S", 0.001)
    layer = SteadyRedisChannelLayer(hosts=["redis://127.0.0.1:1"])
    assert await layer.receive("specific.x!y") == {"type": "table.frame"}
    assert layer.recoveries == 1
    lines = [record for record in caplog.records if "could not receive" in record.message]
    assert len(lines) == 1  # once per outage, not per try
    assert lines[0].exc_info is None


async def test_other_failures_still_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    async def receive(self: RedisChannelLayer, channel: str) -> dict[str, Any]:
        raise ValueError("a bug")

    monkeypatch.setattr(RedisChannelLayer, "receive", receive)
    layer = SteadyRedisChannelLayer(hosts=["redis://127.0.0.1:1"])
    with pytest.raises(ValueError, match="a bug"):
        await layer.receive("specific.x!y")


def test_outage_warnings_are_rate_limited(caplog: pytest.LogCaptureFixture) -> None:
    outages._last_logged.clear()
    outages._unsaid.clear()
    error = RedisConnectionError("down")
    said = [outages.outage_warning("thing", error, now=at) for at in (0.0, 1.0, 2.0, 11.0)]
    assert said == [True, False, False, True]
    assert "(2 more since the last warning)" in caplog.records[-1].message


async def test_clearing_a_messages_backup_is_tried_again_then_given_up_calmly(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """channels_redis clears a received message's backup in a task nobody awaits: an outage
    there must not end as "Task exception was never retrieved" with a traceback."""
    outages._last_logged.clear()
    calls: list[str] = []
    failures = [RedisConnectionError("reset"), RedisConnectionError("reset")]

    async def clean(self: RedisChannelLayer, index: int, channel: str) -> None:
        calls.append(channel)
        if failures:
            raise failures.pop(0)

    monkeypatch.setattr(RedisChannelLayer, "_clean_receive_backup", clean)
    monkeypatch.setattr(channel_layer, "RETRY_FIRST_S", 0.001)
    layer = SteadyRedisChannelLayer(hosts=["redis://127.0.0.1:1"])
    await layer._clean_receive_backup(0, "specific.x!y")
    assert calls == ["specific.x!y"] * 3  # two resets, then cleared
    assert not [record for record in caplog.records if "could not clear" in record.message]

    failures.extend(RedisConnectionError("down") for _ in range(channel_layer.BACKUP_CLEAR_TRIES))
    calls.clear()
    await layer._clean_receive_backup(0, "specific.x!y")  # gives up without raising
    assert len(calls) == channel_layer.BACKUP_CLEAR_TRIES
    lines = [record for record in caplog.records if "could not clear" in record.message]
    assert len(lines) == 1
    assert lines[0].exc_info is None
