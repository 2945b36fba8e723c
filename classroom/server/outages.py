"""Redis or PostgreSQL down for a while: what counts as an outage, and saying so calmly.

During an outage every socket, lease and heartbeat fails at once, many times a second. A
traceback for each would bury the one line that matters, so each kind of failure is logged as
a single warning line at most every OUTAGE_LOG_EVERY_S (with how many were left unsaid), and
the code that hit it waits or asks the tablet to come back (a socket: see
``classroom.sockets.outage_calm``) instead of crashing.
"""

from __future__ import annotations

import logging
import time

from django.db import InterfaceError, OperationalError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

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
