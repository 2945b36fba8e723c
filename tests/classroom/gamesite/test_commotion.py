"""Commotion's site module: its level, kind and ladder names, practice and tiles."""

from __future__ import annotations

from django.utils import translation

from classroom.gamesite import game_site
from classroom.gamesite.labels import kind_label, level_label
from classroom.models import Table
from classroom.pages.tiles import table_tile
from classroom.people.colour_vision import trial_accommodation
from games.commotion.config import Config
from games.commotion.trials import level, level_fields

SITE = game_site("commotion")


def test_levels_have_names() -> None:
    with translation.override("en"):
        assert level_label("refill_9_turn_3") == "Clear 9 cards, turn 3 at a time"
        assert SITE.level_name("intermediate") is None


def test_the_engine_reads_back_the_level_it_wrote() -> None:
    config = Config()
    fields = level_fields(level(config, 0))
    assert fields is not None
    assert (fields.refill, fields.stock_turn) == (config.refill_for(0), config.stock_turn)
    assert level_fields("refill_9") is None


def test_kinds_have_names() -> None:
    with translation.override("en"):
        assert kind_label("commotion.play") == "Plays"


def test_a_rung_is_named_by_its_refill_and_stock_turn() -> None:
    with translation.override("en"):
        assert SITE.step_label({"refill_size": 13, "stock_turn": 3}) == (
            "Clear 13 cards, turn 3 at a time"
        )


def test_it_is_practised_with_bots_only() -> None:
    assert list(SITE.practice_settings) == ["bots"]


def test_its_tile_counts_the_refill_pile_and_shows_scores() -> None:
    table = Table(number=1, roster=[{"name": "Ava", "seat_id": 1}])
    view = {"game": "commotion", "players": [{"seat": 0, "refill": 5, "total": 12}]}
    player = table_tile(table=table, view=view).players[0]
    assert (player.card_count, player.score) == (5, 12)


def test_the_console_names_each_recent_play_by_its_outcome() -> None:
    """The title of each mark in a tile's "Last responses": a wrong play is not a miss."""
    from django.template.loader import render_to_string

    named = {
        "wrong": "wrong play",
        "missed": "missed",
        "spotted": "spotted",
        "late": "spotted, a rival first",
        "beaten": "beaten (a rival was first)",
    }
    with translation.override("en"):
        for outcome, words in named.items():
            trial = {"kind": "commotion.play", "outcome": outcome, "rt_ms": 640}
            html = render_to_string(f"{SITE.tile_template}#trial", {"trial": trial})
            assert html.strip() == words, outcome


def test_colour_is_not_its_stimulus() -> None:
    assert trial_accommodation(game="commotion", palette="okabe_ito") is None


def test_its_measures_on_a_worked_example() -> None:
    from classroom.analytics.measures import CorrectRts, Tally, measures_from
    from classroom.analytics.signal import SignalCounts
    from classroom.gamesite.commotion import SITE

    # 6 spotted, 2 missed, 3 beaten (target None), 2 wrong plays: 13 trials.
    m = measures_from(
        Tally(trials=13, correct=6, signal=SignalCounts(hits=6, misses=2, false_alarms=2)),
        CorrectRts(all=[500, 600, 700, 800, 900, 1000]),
    )
    values = {measure.key: measure.value(m) for measure in SITE.measures}
    assert values == {
        "opportunities": 11,  # 6 + 2 + 3
        "spotted": 6,
        "beaten": 3,
        "missed": 2,
        "spotting_rate": 6 / 8,  # beaten left out
        "time_to_play": 750,
        "wrong_plays": 2,
        "wrong_play_rate": 2 / 8,  # of 8 plays
    }
    assert not SITE.signal_detection


def test_a_right_card_tapped_just_after_a_rival_counts_as_spotted() -> None:
    from classroom.analytics.measures import CorrectRts, Tally, measures_from
    from classroom.analytics.signal import SignalCounts
    from classroom.gamesite.commotion import SITE

    # 1 spotted, 1 missed, 4 beaten of which 3 tapped late (3 "late" trials: target None,
    # correct), 1 wrong play: 1 + 1 + 4 + 3 + 1 = 10 trials, 4 right.
    m = measures_from(
        Tally(trials=10, correct=4, signal=SignalCounts(hits=1, misses=1, false_alarms=1)),
        CorrectRts(all=[600, 700, 800, 900]),
    )
    values = {measure.key: measure.value(m) for measure in SITE.measures}
    assert values == {
        "opportunities": 6,  # 1 + 1 + 4: a late tap is its beaten chance, counted once
        "spotted": 4,  # 1 played + 3 tapped late
        "beaten": 1,  # the one they did not tap
        "missed": 1,
        "spotting_rate": 4 / 5,
        "time_to_play": 750,
        "wrong_plays": 1,
        "wrong_play_rate": 1 / 5,
    }


def test_a_child_always_beaten_by_quick_bots_still_has_a_spotting_rate() -> None:
    from classroom.analytics.measures import CorrectRts, Tally, measures_from
    from classroom.analytics.signal import SignalCounts
    from classroom.gamesite.commotion import SITE

    # Every chance beaten (5), every one tapped late: 10 trials, 5 right, no hit, no miss.
    m = measures_from(Tally(trials=10, correct=5, signal=SignalCounts()), CorrectRts(all=[900] * 5))
    values = {measure.key: measure.value(m) for measure in SITE.measures}
    assert (values["spotted"], values["beaten"], values["spotting_rate"]) == (5, 0, 1.0)
    # Beaten without a tap: still no rate (nothing says whether they saw it).
    m = measures_from(Tally(trials=5, correct=0, signal=SignalCounts()), CorrectRts())
    assert SITE.headline_measure.value(m) is None
