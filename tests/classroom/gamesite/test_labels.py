"""Level and trial-kind names as teachers read them, for levels and kinds no game names.

Each game's own names are tested with its site module (tests/classroom/gamesite/).
"""

from __future__ import annotations

import pytest
from django.utils import translation

from classroom.gamesite.labels import (
    colour_safe_class_help,
    colour_safe_note,
    game_name,
    kind_label,
    language_help,
    level_label,
    palette_help,
)


@pytest.mark.parametrize(("level", "shown"), [("mystery", "mystery"), ("", "Unknown level")])
def test_levels_have_names(level: str, shown: str) -> None:
    with translation.override("en"):
        assert level_label(level) == shown


def test_kinds_have_names_and_unknown_ones_show_as_stored() -> None:
    with translation.override("en"):
        assert kind_label("riff_raff.future_kind") == "riff_raff.future_kind"


def test_a_game_no_longer_registered_shows_its_slug() -> None:
    assert game_name("chess") == "chess"


def test_help_texts_name_the_games_with_the_trait_in_the_page_language() -> None:
    with translation.override("en"):
        assert "; Commotion and Riff Raff also mark each colour" in palette_help()
        assert language_help().startswith("Palm Strike's colour words appear")
        assert "In Palm Strike the colour is what the child reacts to" in colour_safe_note()
    with translation.override("zh-hant"):
        assert "一路玩到掛和驚濤駭浪還會用形狀" in palette_help()
        assert "他們在色字頭上一掌拍的結果會另外標示" in colour_safe_class_help()
