"""The contract's shared pieces: how a measure is written, and the heads of a table of games."""

from __future__ import annotations

import pytest
from django.utils import translation

from classroom.gamesite import game_sites
from classroom.gamesite.contract import Measure
from classroom.gamesite.labels import measure_heads


@pytest.mark.parametrize("value", [-0.001, -0.004, -1e-12])
def test_a_value_that_rounds_to_zero_is_never_written_minus_zero(value: float) -> None:
    # c of -0.001 was shown as "-0.00" in a seat's report.
    measure = Measure("c", "c", "c", lambda _m: value, decimals=2)
    cell = measure.cell(None)  # type: ignore[arg-type]
    assert cell == 0
    assert str(cell) == "0.0"


def test_a_negative_value_keeps_its_sign() -> None:
    measure = Measure("c", "c", "c", lambda _m: -0.256, decimals=2)
    assert measure.cell(None) == -0.26  # type: ignore[arg-type]


@pytest.mark.parametrize("site", game_sites(), ids=lambda site: site.slug)
def test_one_games_table_is_headed_with_that_games_own_measures(site: object) -> None:
    from classroom.gamesite.contract import GameSite

    assert isinstance(site, GameSite)
    with translation.override("en"):
        heads = measure_heads([site.slug, site.slug])
        assert heads.one_game
        assert heads.speed == str(site.speed_measure.label)
        assert site.speed_measure.unit == "ms"
        assert str(site.headline_measure.label) in heads.rate
        assert heads.dprime == site.signal_detection
        if site.mixed_kinds:
            # Each kind's own rate names the column: "Catch rate / Stayed aboard".
            assert heads.rate == " / ".join(
                str(site.measure(key).label) for key in site.kind_rates.values()
            )
            assert set(site.kind_rates) == set(site.kind_names())
        else:
            assert heads.rate_word == heads.rate.lower()


def test_several_games_share_heads_and_d_prime_shows_if_one_has_noise_trials() -> None:
    sites = game_sites()
    with translation.override("en"):
        heads = measure_heads(site.slug for site in sites)
        assert not heads.one_game
        assert (heads.speed, heads.rate, heads.rate_word) == (
            "Median time",
            "Accuracy or rate",
            "rate",
        )
        assert heads.dprime == any(site.signal_detection for site in sites)
        without_noise = [site.slug for site in sites if not site.signal_detection]
        assert not measure_heads(without_noise).dprime
        assert not measure_heads([]).dprime
        assert measure_heads(["no_such_game"]) == measure_heads([])
