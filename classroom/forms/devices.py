"""What a tablet's page reports of itself (screen, frame interval) and the warm-up's taps.

Out-of-range or malformed values are refused with the field's message; nothing is stored.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from classroom.analytics.decision_time import WARMUP_CARD_WAIT_MS, WARMUP_CARDS
from classroom.forms.whole_numbers import whole_number_parse

# Screens in CSS pixels: the smallest phone to a wall screen.
SCREEN_MIN = 100
SCREEN_MAX = 10_000
# Frame intervals in ms: a 500 Hz display to a browser drawing 5 frames a second.
FRAME_MIN_MS = 2.0
FRAME_MAX_MS = 200.0


class DeviceReportForm(forms.Form):
    screen_width = forms.IntegerField(min_value=SCREEN_MIN, max_value=SCREEN_MAX)
    screen_height = forms.IntegerField(min_value=SCREEN_MIN, max_value=SCREEN_MAX)
    frame_interval_ms = forms.FloatField(min_value=FRAME_MIN_MS, max_value=FRAME_MAX_MS)


class WarmupForm(DeviceReportForm):
    """The device report and the warm-up's RTs: ``WARMUP_CARDS`` comma-separated values, each
    a whole number of ms up to the card's wait or empty (not tapped); none at all is a skip."""

    rts = forms.CharField(required=False, max_length=WARMUP_CARDS * 6)

    def clean_rts(self) -> list[int | None]:
        raw: str = self.cleaned_data["rts"]
        if not raw:
            return []
        parts = raw.split(",")
        if len(parts) != WARMUP_CARDS:
            raise ValidationError(
                _("The warm-up has %(cards)d cards; %(count)d answers came."),
                params={"cards": WARMUP_CARDS, "count": len(parts)},
            )
        rts: list[int | None] = []
        for part in parts:
            value = whole_number_parse(part) if part else None
            if part and (value is None or value > WARMUP_CARD_WAIT_MS):
                raise ValidationError(
                    _("Each answer is a whole number of ms up to %(most)d, or empty."),
                    params={"most": WARMUP_CARD_WAIT_MS},
                )
            rts.append(value)
        return rts
