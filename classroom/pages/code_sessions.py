"""Which session a join code opened, as this process last saw it: a hint, never an answer.

A tablet's lobby socket knows only the code in its address. Knowing the session too, it can
join the session's group before its one database call (which then finds the seat and also
draws the first lobby, one hop to the sockets' shared database thread instead of two) and
still miss no change. The call checks the hint against the seat it finds; a wrong one (a
code deleted and given out again) costs only the two hops of before.
"""

from __future__ import annotations

from collections import OrderedDict

# A school's codes of a few weeks; past that the oldest are forgotten.
REMEMBERED = 4096

_sessions: OrderedDict[str, int] = OrderedDict()


def code_session_hint(code: str) -> int | None:
    return _sessions.get(code)


def code_session_remember(code: str, session_id: int) -> None:
    _sessions[code] = session_id
    _sessions.move_to_end(code)
    while len(_sessions) > REMEMBERED:
        _sessions.popitem(last=False)
