"""Decision time: a choice RT less the child's simple RT on the same tablet.

Pure Python: no Django, no I/O, no clock.

The warm-up is a simple-reaction task (one card, one answer: tap when it appears), so its RT
is seeing plus tapping on that tablet (the hand, the screen's touch latency and frame) with no
choice in it. A game's RT holds the same plus the decision; the difference estimates the
decision alone, by Donders' subtraction method (Donders, F. C. (1868/1969), "On the speed of
mental processes", *Acta Psychologica* 30, 412-431). Medians on both sides: one lapse or one
slip moves neither.
"""

from __future__ import annotations

import statistics
import typing

if typing.TYPE_CHECKING:
    from collections.abc import Sequence

WARMUP_CARDS = 20
# A card waits this long for its tap; one left untapped counts as a lapse.
WARMUP_CARD_WAIT_MS = 3000
# A simple RT under 100 ms is a guess (no one sees and taps that fast: Whelan, R. (2008),
# "Effective analysis of reaction time data", *The Psychological Record* 58, 475-482); over
# 1,500 ms a lapse of attention, not the hand.
SIMPLE_RT_FLOOR_MS = 100
SIMPLE_RT_CEILING_MS = 1500
# Fewer kept taps than this and the warm-up gives no simple RT.
SIMPLE_RT_MIN_KEPT = 10


def simple_rt_kept(rts: Sequence[int | None]) -> list[int]:
    """The warm-up's RTs that count: tapped, at or above the floor, at or below the ceiling."""
    return [rt for rt in rts if rt is not None and SIMPLE_RT_FLOOR_MS <= rt <= SIMPLE_RT_CEILING_MS]


def simple_rt_median(rts: Sequence[int | None]) -> int | None:
    """The median of the kept RTs (rounded to the ms), or ``None`` with fewer than
    ``SIMPLE_RT_MIN_KEPT`` of them."""
    kept = simple_rt_kept(rts)
    if len(kept) < SIMPLE_RT_MIN_KEPT:
        return None
    return round(statistics.median(kept))


def decision_time_ms(choice_median_ms: float | None, simple_median_ms: float | None) -> int | None:
    """Choice RT less simple RT (ms), or ``None`` when either is missing."""
    if choice_median_ms is None or simple_median_ms is None:
        return None
    return round(choice_median_ms - simple_median_ms)
