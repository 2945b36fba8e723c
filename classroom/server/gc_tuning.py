"""Garbage-collector settings for a server process: fewer, cheaper collections.

Every live table allocates small objects on each flip (views, frames, copied states), so with
CPython's defaults (a young collection every 700 allocations) the collector runs constantly and
a full collection walks every object the process ever loaded: pauses of up to 25 ms at 570
students (``make bench-capacity --timings``), which every tablet of the moment waits out.
Freezing what start-up loaded (modules, settings, templates) takes it out of every later
collection.

A young collection is due when allocations outnumber deallocations by the threshold, but old
objects dying count too: under a steady load (states, frames and timers replaced every flip)
the count creeps up slowly while the young generation fills with everything made since the
last collection that still lives. At 20,000 each young collection at 1,440-1,560 students
looked at 124,000-134,000 objects and held the event loop 59-100 ms, about once a 20-s window
(the loop's worst lag in those windows 100-161 ms, the flips' p99 over 100 ms in most). At
200,000 (``--gc-young 200000``) the capacity ramp had no collection in any of its 23 windows
up to 1,680 students, and the next ramp held 1,800 with 2 collections in 27 windows, bigger
ones (223,000 and 272,000 objects, 145 and 187 ms); memory the same within 3 MB
(``tests/load/bench_capacity.py --timings``, 2026-12-05). It is not the default: in one of
two runs of the two-minute soak at 200,000 the cluster process's open descriptors grew 46 -> 51
beyond what its load explains (sockets 63 -> 70), against 48 -> 48 in the other and at 20,000,
a cause not found (later soaks at both thresholds grew only the Redis pools, by a connection
or two). And on a faster machine, whose ceiling was the CPU, 200,000 held 1,920 students
where 20,000 held 2,010-2,190 (README, *Capacity and soak*).
"""

from __future__ import annotations

import gc
import os

# Net allocations between young collections (CPython's default is 700); the older generations
# keep their defaults, so full collections stay as rare relative to young ones as before.
YOUNG_THRESHOLD = 20_000


def gc_tune() -> None:
    """Call once, when the application is loaded and before it serves anything.
    ``SNAPCLASS_GC_YOUNG_THRESHOLD`` overrides the young threshold (a benchmark comparing
    them)."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    young = int(os.environ.get("SNAPCLASS_GC_YOUNG_THRESHOLD", YOUNG_THRESHOLD))
    gc.set_threshold(young, middle, old)
