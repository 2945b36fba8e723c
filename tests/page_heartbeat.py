"""The pages' heartbeat as ``static/js/heartbeat.js`` sets it, for scripts that stand in for
pages (the benchmarks' tablets, the heartbeat tests): read from the file, so they never drift
from what the pages do."""

from __future__ import annotations

import re
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[1] / "static" / "js" / "heartbeat.js"


def page_ping_every_s() -> float:
    """How often a live page pings its socket, in seconds."""
    found = re.search(r"var PING_EVERY_MS = (\d+);", _SCRIPT.read_text())
    if found is None:
        raise LookupError(f"no PING_EVERY_MS in {_SCRIPT}")
    return int(found.group(1)) / 1000
