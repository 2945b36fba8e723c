"""Garbage-collector settings for a server process: fewer, cheaper collections.

Every live table allocates small objects on each flip (views, frames, copied states), so with
CPython's defaults (a young collection every 700 allocations) the collector runs constantly and
a full collection walks every object the process ever loaded: pauses of up to 25 ms at 570
students (``make bench-capacity --timings``), which every tablet of the moment waits out.
Freezing what start-up loaded (modules, settings, templates) takes it out of every later
collection, and a larger first threshold makes collections rarer; reference cycles are still
collected, just in bigger batches.
"""

from __future__ import annotations

import gc

# Allocations between young collections (CPython's default is 700); the older generations
# keep their defaults, so full collections stay as rare relative to young ones as before.
YOUNG_THRESHOLD = 20_000


def gc_tune() -> None:
    """Call once, when the application is loaded and before it serves anything."""
    gc.collect()
    gc.freeze()
    _young, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
