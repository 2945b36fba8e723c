"""The cluster's channel layer: channels_redis, waiting through a Redis outage.

channels_redis raises out of ``receive`` when Redis cannot be reached. That ends every
consumer of the process ("Exception inside application", close 1011, a traceback per socket)
and the table router's receiving loop with them. Here ``receive`` waits and tries again, so
sockets stay open and calm through a blip and play resumes when Redis is back.

After each message it takes, channels_redis clears the message's backup copy in a task of its
own that nobody awaits; if Redis goes away at that moment, the task's error surfaces only as
asyncio's "Task exception was never retrieved" with a traceback in the server's log
(`tests/cluster/test_redis_outage.py` can meet it). Here that clearing is tried a few times,
then given up with one outage warning. The copy left behind is delivered again at the next receive,
which is harmless: a table's input carries its tablet's id and a repeat is never applied, and
a view or notice received twice draws the same.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.core import RedisChannelLayer

from classroom.server.outages import OUTAGE_ERRORS, outage_warning

RETRY_FIRST_S = 0.05
RETRY_MAX_S = 0.5
BACKUP_CLEAR_TRIES = 3


class SteadyRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]
    """RedisChannelLayer whose ``receive`` outlasts Redis outages."""

    # How many times receiving came back after failing (the table router re-joins then).
    recoveries = 0

    async def receive(self, channel: str) -> dict[str, Any]:
        delay = RETRY_FIRST_S
        failed = False
        while True:
            try:
                message: dict[str, Any] = await super().receive(channel)
            except OUTAGE_ERRORS as error:
                failed = True
                outage_warning("channel layer: could not receive (Redis down?)", error)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_S)
                continue
            if failed:
                self.recoveries += 1
            return message

    async def _clean_receive_backup(self, index: int, channel: str) -> None:
        delay = RETRY_FIRST_S
        for attempt in range(1, BACKUP_CLEAR_TRIES + 1):
            try:
                await super()._clean_receive_backup(index, channel)
            except OUTAGE_ERRORS as error:
                if attempt == BACKUP_CLEAR_TRIES:
                    outage_warning("channel layer: could not clear a received message", error)
                    return
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX_S)
            else:
                return
