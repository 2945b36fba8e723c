"""Redis or PostgreSQL down for a while: what counts as an outage, and saying so calmly.

During an outage every socket, lease and heartbeat fails at once, many times a second. A
traceback for each would bury the one line that matters, so each kind of failure is logged as
a single warning line at most every OUTAGE_LOG_EVERY_S (with how many were left unsaid), and
the code that hit it waits or asks the tablet to come back (CloseCode.TRY_AGAIN) instead of
crashing.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from channels.exceptions import StopConsumer
from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from classroom.sockets.close_codes import CloseCode

logger = logging.getLogger(__name__)

# Failures that mean "a service is unreachable right now": trying again later may work.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    RedisConnectionError,
    RedisTimeoutError,
    OperationalError,
    InterfaceError,
    ConnectionError,
    TimeoutError,
)

OUTAGE_LOG_EVERY_S = 10.0

_last_logged: dict[str, float] = {}
_unsaid: dict[str, int] = {}


def outage_warning(what: str, error: BaseException, *, now: float | None = None) -> bool:
    """Log ``what`` failed because of ``error`` (one line, no traceback), at most once per
    OUTAGE_LOG_EVERY_S for the same ``what``; True if this call logged."""
    moment = time.monotonic() if now is None else now
    last = _last_logged.get(what)
    if last is not None and moment - last < OUTAGE_LOG_EVERY_S:
        _unsaid[what] = _unsaid.get(what, 0) + 1
        return False
    _last_logged[what] = moment
    unsaid = _unsaid.pop(what, 0)
    more = f" ({unsaid} more since the last warning)" if unsaid else ""
    logger.warning("%s: %s: %s%s", what, type(error).__name__, error, more)
    return True


class OutageCalmSocket:
    """A consumer mixin: a Redis or database outage while a socket connects, talks or leaves
    is one rate-limited warning, and a socket that could not be set up is closed with
    CloseCode.TRY_AGAIN (its tablet reconnects) rather than crashing with a traceback and 1011."""

    _accepted_here = False
    # How a socket that hit an outage is sent to reconnect: closed with this code (accepted
    # first if need be); None for pages whose htmx socket reconnects only on 1006/1011-1013,
    # which an application cannot send: their handshake is refused instead (the browser sees
    # 1006), and an open one is left open.
    try_again_code: int | None = CloseCode.TRY_AGAIN

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)  # type: ignore[misc]
        self._accepted_here = True

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_connect(message)  # type: ignore[misc]
        except OUTAGE_ERRORS as error:
            outage_warning(f"{type(self).__name__}: a socket could not connect", error)
            await self._try_again_later()

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_receive(message)  # type: ignore[misc]
        except OUTAGE_ERRORS as error:
            outage_warning(f"{type(self).__name__}: could not handle a frame", error)
            await self._try_again_later()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]
        except OUTAGE_ERRORS as error:
            outage_warning(f"{type(self).__name__}: could not tidy up a closed socket", error)
            raise StopConsumer from error

    async def _try_again_later(self) -> None:
        with contextlib.suppress(Exception):  # the socket may be gone already
            if self.try_again_code is None:
                if not self._accepted_here:
                    await self.close()  # type: ignore[attr-defined]
                return
            if not self._accepted_here:
                # Accepted first: a refused handshake reaches the browser as 1006, without
                # the reason.
                await self.accept()
            await self.close(code=self.try_again_code)  # type: ignore[attr-defined]
