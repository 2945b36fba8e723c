"""Riff Raff's site module: its level, kind and ladder names, practice, tiles and ship."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from classroom.gamesite import game_site
from classroom.gamesite.labels import kind_label, level_label, watch_scene
from classroom.models import Table
from classroom.pages.tiles import table_tile
from classroom.selectors.analytics import MIXED_KIND_GAMES
from games.riff_raff.config import Config
from games.riff_raff.trials import level, level_wave_strength

SITE = game_site("riff_raff")


@pytest.mark.parametrize(
    ("level_", "shown"), [("wave_6", "Wave 0.6"), ("wave_10", "Wave 1.0"), ("wave_0", "Wave 0.0")]
)
def test_levels_have_names(level_: str, shown: str) -> None:
    with translation.override("en"):
        assert level_label(level_) == shown


def test_the_engine_reads_back_the_level_it_wrote() -> None:
    assert level_wave_strength(level(Config(wave_strength=0.4))) == 0.4
    assert level_wave_strength("wave_100") is None


def test_kinds_have_names() -> None:
    with translation.override("en"):
        assert kind_label("riff_raff.catch") == "Catches"
        assert kind_label("riff_raff.placement") == "Placements (stayed on board)"


def test_a_rung_is_named_by_its_sea_and_window_in_a_childs_words() -> None:
    step = {"wave_strength": 0.6, "catch_window_s": 2.5}
    with translation.override("en"):
        assert SITE.step_label(step) == "Big waves, 2.5 seconds to catch"


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_no_rung_says_a_wave_number_or_a_unit_symbol(language: str) -> None:
    """The practice pages show a child each rung: a sea they can picture, whole words."""
    with translation.override(language):
        labels = [SITE.step_label(step) for step in SITE.spec.ladder]
    assert len(set(labels)) == len(labels), labels
    for step, label in zip(SITE.spec.ladder, labels, strict=True):
        assert " s " not in label, label  # seconds in a word, not a unit symbol
        # The seconds to catch are the only number.
        assert not re.search(r"\d", label.replace(f"{step['catch_window_s']:g}", "", 1)), label


def test_it_is_practised_with_bots_only() -> None:
    assert list(SITE.practice_settings) == ["bots"]


def test_its_tile_counts_the_cargo_left_and_draws_the_ship() -> None:
    table = Table(number=1, roster=[{"name": "Ava", "seat_id": 1}])
    view = {"game": "riff_raff", "players": [{"seat": 0, "pieces_left": 4}]}
    tile = table_tile(table=table, view=view)
    assert tile.players[0].card_count == 4
    assert tile.partials["canvas"] == "gamesite/riff_raff/_tile.html#canvas"
    scene = watch_scene("riff_raff")
    assert scene is not None
    assert set(scene) == {"geometry", "cargo"}


def test_its_catches_and_placements_are_shown_kind_by_kind() -> None:
    assert "riff_raff" in MIXED_KIND_GAMES


def test_its_measures_on_a_worked_example() -> None:
    from classroom.analytics.measures import CorrectRts, Tally, measures_from
    from classroom.analytics.signal import SignalCounts
    from classroom.gamesite.riff_raff import SITE

    # 4 pieces fell (3 caught), 5 placements (4 stayed): 9 trials, 7 correct.
    m = measures_from(
        Tally(trials=9, correct=7, signal=SignalCounts(hits=3, misses=1)),
        CorrectRts(all=[400, 500, 900]),
    )
    values = {measure.key: measure.value(m) for measure in SITE.measures}
    assert values == {
        "falls": 4,
        "caught": 3,
        "catch_rate": 0.75,
        "catch_rt": 500,
        "placements": 5,
        "placement_stability": 0.8,
    }
    # A catches-only row has no placement stability, not 0 % and not 75 %.
    catches = measures_from(
        Tally(trials=4, correct=3, signal=SignalCounts(hits=3, misses=1)), CorrectRts()
    )
    assert SITE.measure("placement_stability").value(catches) is None
    assert not SITE.signal_detection
