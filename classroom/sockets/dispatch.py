"""A socket's messages, from the browser and from the channel layer, handed to its handlers one
at a time, without a task and a wait per message.

Channels' own loop (``channels.utils.await_many_dispatch``) creates a task for the next
message of each source and an ``asyncio.wait`` over them after every message: at a school's
load, thousands of tasks and waits a second on the one event loop, and young objects that
feed the collector. Here each source has one task for the socket's life, which takes a
message, waits its turn and hands it on, so a socket still handles one message at a time,
and each source's in the order it sent them.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    Message = dict[str, Any]


async def dispatch_each(
    sources: Sequence[Callable[[], Awaitable[Message]]],
    dispatch: Callable[[Message], Awaitable[None]],
) -> None:
    """Hand every message of ``sources`` to ``dispatch``, one at a time, until a handler
    raises; that exception (Channels' ``StopConsumer`` after a disconnect) ends the loop and
    is raised here, and the other sources stop listening."""
    turn = asyncio.Lock()

    async def pump(source: Callable[[], Awaitable[Message]]) -> None:
        while True:
            message = await source()
            async with turn:
                await dispatch(message)

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        done, _ = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for finished in done:
            finished.result()
    finally:
        for task in pumps:
            task.cancel()
        # Cancelled pumps finish before the consumer does (as Channels' own loop waits).
        await asyncio.gather(*pumps, return_exceptions=True)
