"""Long-lived tasks that never die in silence: logged with their traceback and restarted.

A process has a few tasks that everything else waits on (the log writer, the table router's
loops, the lease keepers, the presence heartbeat). One of them ending on an exception would
freeze every table of the process while its sockets stay open, so each runs under
:func:`supervised`: an exception is logged with its traceback and the task starts again after
a short backoff. Cancelling it (shutdown) still stops it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

logger = logging.getLogger(__name__)

# Waits before each restart in a row (the last one repeats): quick for a one-off failure,
# calm for one that keeps failing (a service that is down).
BACKOFF_S: tuple[float, ...] = (0.1, 0.2, 0.5, 1.0, 2.0)
# A run that lasted this long counts as healthy: the next failure starts the backoff afresh.
HEALTHY_AFTER_S = 30.0


async def supervised(
    name: str,
    run: Callable[[], Awaitable[None]],
    *,
    backoff_s: Sequence[float] = BACKOFF_S,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Run ``run()`` until it returns; restart it whenever it raises."""
    failures = 0
    while True:
        began = clock()
        try:
            await run()
        except asyncio.CancelledError:
            raise
        except Exception:
            if clock() - began >= HEALTHY_AFTER_S:
                failures = 0
            delay = backoff_s[min(failures, len(backoff_s) - 1)]
            failures += 1
            logger.exception("%s failed (%d in a row); restarting in %.1f s", name, failures, delay)
            await sleep(delay)
        else:
            return


def supervised_task(name: str, run: Callable[[], Awaitable[None]]) -> asyncio.Task[None]:
    """Start ``run`` as a supervised task of the running loop (keep a reference to it)."""
    return asyncio.get_running_loop().create_task(supervised(name, run), name=name)
