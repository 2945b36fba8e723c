"""The pages' heartbeat as ``static/js/lib/heartbeat.js`` sets it, for scripts that stand in for
pages (the benchmarks' tablets, the heartbeat tests): read from the file, so they never drift
from what the pages do."""

from __future__ import annotations

import re
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[1] / "static" / "js" / "lib" / "heartbeat.js"


def _seconds(name: str) -> float:
    found = re.search(rf"export const {name} = (\d+);", _SCRIPT.read_text())
    if found is None:
        raise LookupError(f"no {name} in {_SCRIPT}")
    return int(found.group(1)) / 1000


def page_ping_every_s() -> float:
    """How often a live page pings its socket, in seconds (a table page: at most this often)."""
    return _seconds("PING_EVERY_MS")


def page_quiet_ping_s() -> float:
    """A table page (probed by the server) pings only after this long with nothing heard."""
    return _seconds("QUIET_PING_MS")
