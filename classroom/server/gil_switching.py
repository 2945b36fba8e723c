"""How long a thread of a server process may keep the GIL while another waits: 1 ms, not
CPython's 5 ms.

A flip is sent once its log entry is committed, by the log writer's thread, and each of that
thread's SQLite statements lets the GIL go and must win it back from the event loop and the
thread that renders pages and answers requests. With CPython's 5 ms that wait was about half
of the flip p99 under load (log commits p99 45 to 57 ms at 330 students); at 1 ms, 24 to 31. The
capacity ramp (``tests/load/bench_capacity.py --modes embedded --timings``, one process, its
teacher pages open) held 210 to 360 students in six runs at 5 ms and 450 to 750 in three at
1 ms, on one machine on 2026-12-03 (the README has the figures).
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
