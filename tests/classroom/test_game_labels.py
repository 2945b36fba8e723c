"""Level and trial-kind names as teachers read them."""

from __future__ import annotations

import pytest
from django.utils import translation

from classroom.game_labels import kind_label, level_label


@pytest.mark.parametrize(
    ("level", "shown"),
    [
        ("intermediate", "Intermediate"),
        ("refill_9_turn_3", "Refill 9, stock by 3"),
        ("wave_6", "Wave 0.6"),
        ("wave_10", "Wave 1.0"),
        ("wave_0", "Wave 0.0"),
        ("mystery", "mystery"),
        ("", "Unknown level"),
    ],
)
def test_levels_have_names(level: str, shown: str) -> None:
    with translation.override("en"):
        assert level_label(level) == shown


def test_kinds_have_names_and_unknown_ones_show_as_stored() -> None:
    with translation.override("en"):
        assert kind_label("riff_raff.catch") == "Catches"
        assert kind_label("riff_raff.future_kind") == "riff_raff.future_kind"
