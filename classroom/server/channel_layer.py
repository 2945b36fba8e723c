"""The cluster's channel layer: channels_redis, waiting through a Redis outage.

channels_redis raises out of ``receive`` when Redis cannot be reached. That ends every
consumer of the process ("Exception inside application", close 1011, a traceback per socket)
and the table router's receiving loop with them. Here ``receive`` waits and tries again, so
sockets stay open and calm through a blip and play resumes when Redis is back.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.core import RedisChannelLayer

from classroom.server.outages import OUTAGE_ERRORS, outage_warning

RETRY_FIRST_S = 0.05
RETRY_MAX_S = 0.5


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
