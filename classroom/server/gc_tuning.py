"""Garbage-collector settings for a server process: fewer, cheaper collections.

Every live table allocates small objects on each flip (views, frames, copied states). With
CPython's defaults (a young collection every 700 net allocations) the collector runs all the
time, and a full collection walks every object the process ever loaded: a pause every tablet of
the moment waits out. Freezing what start-up loaded (modules, settings, templates) keeps it out
of every later collection.

A young collection is due when allocations outnumber deallocations by the threshold, and old
objects dying count too, so under a steady load the count creeps up while the young generation
fills with everything made since the last collection that still lives. The threshold trades
how often the event loop stops against how long: a larger one makes collections rarer but each
walks more objects and holds the loop longer, and it does not raise capacity where the CPU is
the ceiling. ``tests/load/bench_capacity.py --gc-young N`` compares thresholds
(docs/benchmarks.md).
"""

from __future__ import annotations

import gc
import os

# Net allocations between young collections (CPython's default is 700); the older generations
# keep CPython's thresholds, so full collections stay as rare relative to young ones.
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
