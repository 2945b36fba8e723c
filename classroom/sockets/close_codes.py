"""The WebSocket close codes this site sends, defined once, and handed to the pages' scripts.

Daphne's WebSocket layer (autobahn) lets an application close only with 1000 or 3000-4999,
so the protocol's own codes are mirrored in the application range (4001 for 1001, 4008 for
1008, 4012 for 1012, 4013 for 1013), and the site's own refusals sit beside the HTTP status
they resemble (4401, 4403, 4404, 4409, 4429). ``templates/base.html`` writes the table into
every page (``json_script``, id ``snapclass-close-codes``), so the scripts name the codes
instead of repeating their numbers.

This module imports nothing of the site: the page drawing and the table router, which pick a
code for a socket they close, import it without reaching the consumers.
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from django.http import HttpRequest


class CloseCode(enum.IntEnum):
    # A socket held to the heartbeat went silent (games.live.heartbeat): mirrors 1001.
    SILENT = 4001
    # Sustained flooding: mirrors 1008 (policy violation); the tablet stops.
    POLICY = 4008
    # The table's host stopped here: mirrors 1012; the page reconnects to whichever runs next.
    SERVICE_RESTART = 4012
    # A service (Redis, the database) is down: mirrors 1013; the tablet reconnects.
    TRY_AGAIN = 4013
    # The seat's table deals a new game (Play again): the tablet loads its new game's page.
    NEXT_GAME = 4100
    # The tablet holds no seat in the session (any more).
    NO_SEAT = 4401
    # Not this user's session or table, or the seat was taken back by the teacher.
    FORBIDDEN = 4403
    REMOVED = 4403
    # The seat's table is not playing.
    NOT_PLAYING = 4404
    # The seat was opened on another tablet (or tab): the tablet says so and stays put.
    REPLACED = 4409
    # Too many sockets from one client address (classroom.sockets.limits): retried later.
    TOO_MANY_SOCKETS = 4429


def close_codes_by_name() -> dict[str, int]:
    """Every name of a code (aliases too) and its number."""
    return {name: int(code) for name, code in CloseCode.__members__.items()}


def close_codes(request: HttpRequest) -> dict[str, dict[str, int]]:
    """Context processor: ``close_codes`` for ``templates/base.html`` to hand to the scripts."""
    return {"close_codes": close_codes_by_name()}
