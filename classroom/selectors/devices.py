"""The tablets a session was played on, side by side, so a class can see device effects:
touch latency and frame rate differ by tens of ms between tablets, and both are in every RT.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from classroom.analytics.speed import ANTICIPATION_FLOOR_MS
from classroom.models import Device, Trial
from classroom.selectors.warmups import session_warmups

if TYPE_CHECKING:
    from classroom.models import GameSession


@dataclass(frozen=True)
class DeviceRow:
    """One tablet model of a session: who played on it, how much, and its median times."""

    device: Device
    players: int
    trials: int
    # Median correct, plausible RT at or above the anticipation floor (ms).
    median_rt_ms: int | None
    # Median of the warm-up medians of the seats whose warm-up was on it (ms).
    warmup_ms: int | None


def _median(values: list[int]) -> int | None:
    return round(statistics.median(values)) if values else None


def session_devices(*, session: GameSession) -> list[DeviceRow]:
    """The session's devices with their trials, most trials first."""
    seats: dict[int, set[int]] = defaultdict(set)
    trials: dict[int, int] = defaultdict(int)
    rts: dict[int, list[int]] = defaultdict(list)
    rows = Trial.objects.filter(session=session, seat__isnull=False, device__isnull=False)
    for device_id, seat_id, rt_ms, correct, plausible in rows.values_list(
        "device", "seat", "rt_ms", "correct", "plausible"
    ).iterator(chunk_size=4000):
        seats[device_id].add(seat_id)
        trials[device_id] += 1
        if correct and plausible and rt_ms is not None and rt_ms >= ANTICIPATION_FLOOR_MS:
            rts[device_id].append(rt_ms)
    warmups: dict[int, list[int]] = defaultdict(list)
    for warmup in session_warmups(session=session).values():
        if warmup.device_id is not None and warmup.median_ms is not None:
            warmups[warmup.device_id].append(warmup.median_ms)
    devices = Device.objects.in_bulk(set(trials) | set(warmups))
    made = [
        DeviceRow(
            device=device,
            players=len(seats[pk]),
            trials=trials[pk],
            median_rt_ms=_median(rts[pk]),
            warmup_ms=_median(warmups[pk]),
        )
        for pk, device in devices.items()
    ]
    return sorted(made, key=lambda row: (-row.trials, row.device.pk))
