"""How long a thread of a server process may keep the GIL while another waits: 1 ms, not
CPython's 5 ms.

A flip is sent once its log entry is committed, by the log writer's thread, and each of that
thread's SQLite statements lets the GIL go and must win it back from the event loop and the
thread that renders pages and answers requests. At CPython's 5 ms that wait is a large part of
a flip's tail under load, and a shorter interval lets one process hold more students
(``tests/load/bench_capacity.py --switch-interval S`` compares them; docs/benchmarks.md).
"""

from __future__ import annotations

import os
import sys

SWITCH_INTERVAL_S = 0.001


def gil_switch_interval_set() -> float:
    """Call once per server process; ``SNAPCLASS_SWITCH_INTERVAL_S`` overrides the interval
    (a benchmark comparing them). Returns the interval now in force."""
    interval = float(os.environ.get("SNAPCLASS_SWITCH_INTERVAL_S", SWITCH_INTERVAL_S))
    sys.setswitchinterval(interval)
    return sys.getswitchinterval()
