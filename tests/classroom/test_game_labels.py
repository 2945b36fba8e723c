"""Level and trial-kind names as teachers read them, for levels and kinds no game names.

Each game's own names are tested with its site module (tests/classroom/gamesite/).
"""

from __future__ import annotations

import pytest
from django.utils import translation

from classroom.game_labels import game_name, kind_label, level_label


@pytest.mark.parametrize(("level", "shown"), [("mystery", "mystery"), ("", "Unknown level")])
def test_levels_have_names(level: str, shown: str) -> None:
    with translation.override("en"):
        assert level_label(level) == shown


def test_kinds_have_names_and_unknown_ones_show_as_stored() -> None:
    with translation.override("en"):
        assert kind_label("riff_raff.future_kind") == "riff_raff.future_kind"


def test_a_game_no_longer_registered_shows_its_slug() -> None:
    assert game_name("chess") == "chess"
