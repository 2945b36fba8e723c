"""The tablet a seat plays on, as its page reports it, and the seat's warm-up."""

from __future__ import annotations

from decimal import Decimal

from django.db import IntegrityError, transaction

from classroom.analytics.decision_time import simple_rt_median
from classroom.models import Device, Seat, Warmup

USER_AGENT_MAX = 300


def device_get_or_create(
    *, user_agent: str, screen_width: int, screen_height: int, frame_interval_ms: float
) -> Device:
    """The shared row of this report (the user agent cut to its column, the frame interval to
    0.1 ms), made on first sight; two tablets reporting at once get the same row."""
    fields = {
        "user_agent": user_agent[:USER_AGENT_MAX],
        "screen_width": screen_width,
        "screen_height": screen_height,
        "frame_interval_ms": Decimal(str(round(frame_interval_ms, 1))),
    }
    found = Device.objects.filter(**fields).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Device.objects.create(**fields)
    except IntegrityError:
        return Device.objects.get(**fields)


def seat_device_set(*, seat: Seat, device: Device) -> Seat:
    """The seat plays on ``device`` from now on: its next trials are written with it."""
    Seat.objects.filter(pk=seat.pk).update(device=device)
    seat.device = device
    return seat


def warmup_record(*, seat: Seat, device: Device, rts: list[int | None]) -> Warmup:
    """Store the seat's warm-up (a second one on the seat replaces the first); no RTs is a
    skip. RTs are whole ms, or None for a card left untapped, as ``WarmupForm`` gives them."""
    warmup, _created = Warmup.objects.update_or_create(
        seat=seat,
        defaults={"device": device, "rts": rts, "median_ms": simple_rt_median(rts)},
    )
    return warmup
