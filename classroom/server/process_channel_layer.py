"""The embedded set-up's channel layer: Channels' in-memory layer, with its sweep rationed.

``InMemoryChannelLayer`` looks for expired messages and group memberships before every
``receive`` and every ``group_send``, walking every channel with a socket waiting on it and
every group. Each socket waits on the layer, so with a whole school connected each message
would pay for all of them, a cost that grows with the sockets
(``tests/load/bench_channel_layer.py``). Here the sweep runs at most once a second: a message
is still dropped once past its expiry (60 s), at most a second late, and a channel with an
expired message still leaves its groups.

A group send also puts the message straight into each member's queue instead of starting a
task per member (the send never waits: a full queue is skipped, as in Channels' layer).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from copy import deepcopy
from typing import TYPE_CHECKING, Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

if TYPE_CHECKING:
    from collections.abc import Callable

SWEEP_EVERY_S = 1.0


class ProcessChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    """``InMemoryChannelLayer`` that sweeps expired messages once a second, not per call."""

    def __init__(
        self,
        *,
        sweep_every_s: float = SWEEP_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.sweep_every_s = sweep_every_s
        self._clock = clock
        self._swept_at: float | None = None
        self.sweeps = 0  # how many sweeps ran (for tests and the bench)

    def _clean_expired(self) -> None:
        now = self._clock()
        if self._swept_at is not None and now - self._swept_at < self.sweep_every_s:
            return
        self._swept_at = now
        self.sweeps += 1
        super()._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue[tuple[float, dict[str, Any]]]:
        # dict.setdefault would build a new Queue on every call only to throw it away.
        queue: asyncio.Queue[tuple[float, dict[str, Any]]] | None = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(maxsize=self.get_capacity(channel))
        return queue

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        # Each receiver gets a copy of its own, as from the in-memory layer.
        try:
            self._queue(channel).put_nowait((time.time() + self.expiry, deepcopy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            _, message = await queue.get()
        finally:
            if queue.empty():
                self.channels.pop(channel, None)
        return message

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # A full channel misses this message; the others still get it.
            with contextlib.suppress(ChannelFull):
                self._put(channel, message)
