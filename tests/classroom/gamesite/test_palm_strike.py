"""Palm Strike's site module: its level, kind and ladder names, practice, tiles and standings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import translation

from classroom.gamesite import game_site
from classroom.gamesite.labels import game_name, kind_label, level_label
from classroom.gamesite.ladder_labels import rung_label
from classroom.pages.tiles import table_tile
from classroom.people.colour_vision import trial_accommodation

if TYPE_CHECKING:
    from classroom.models import Table

SITE = game_site("palm_strike")


def test_levels_have_names() -> None:
    with translation.override("en"):
        assert level_label("intermediate") == "Intermediate"
        assert SITE.level_name("wave_6") is None


def test_kinds_have_names() -> None:
    with translation.override("en"):
        assert kind_label("palm_strike.flip") == "Flips"
        assert kind_label("palm_strike.team_flip") == "Team flips"


def test_a_rung_is_named_by_its_level_and_window() -> None:
    step = {"level": "advanced", "response_window_s": 2.5}
    with translation.override("en"):
        assert SITE.step_label(step) == "Advanced, 2.5 s to slap"
        assert rung_label(game="palm_strike", rung=0).startswith("Level 1 of ")


def test_it_can_be_practised_alone_in_team_mode() -> None:
    assert list(SITE.practice_settings) == ["solo", "bots"]
    assert SITE.practice_settings["solo"]["team_mode"] is True


def test_its_tile_counts_cards_in_hand() -> None:
    table = _table()
    view = {"game": "palm_strike", "players": [{"seat": 0, "card_count": 7, "refill": 3}]}
    assert table_tile(table=table, view=view).players[0].card_count == 7
    assert table_tile(table=table, view=view).partials["head"].startswith("gamesite/palm_strike/")


def test_colour_is_its_stimulus() -> None:
    assert trial_accommodation(game="palm_strike", palette="okabe_ito") == "colour_safe"


def test_its_name_is_translated() -> None:
    with translation.override("en"):
        assert game_name("palm_strike") == "Palm Strike"


def test_it_offers_signal_detection_and_stroop_measures() -> None:
    keys = {measure.key for measure in SITE.measures}
    assert {"hits", "false_alarms", "correct_rejections", "dprime", "criterion"} <= keys
    assert {"ies", "bis", "interference", "median_rt"} <= keys
    assert SITE.signal_detection


def _table() -> Table:
    from classroom.models import Table

    return Table(number=1, roster=[{"name": "Ava", "seat_id": 1}])
