"""Who gets the colour-vision-safe palette, and whether its colours really stay apart.

The colours are read from the stylesheet the tablets use, then seen through a simulation of
each colour-vision deficiency (Machado, Oliveira & Fernandes 2009, full severity, as
colorspacious implements it) and compared in CAM02-UCS, a perceptually uniform space: a
distance ΔE' of about 1 is just noticeable; the safe palette keeps every pair far beyond that.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from colorspacious import cspace_convert, deltaE

from classroom.people.colour_vision import (
    COLOUR_SAFE_ACCOMMODATION,
    palette_for_player,
    trial_accommodation,
)

STYLESHEET = Path(__file__).resolve().parents[3] / "static" / "css" / "snapclass.css"
GAME_COLOURS = ("red", "yellow", "blue", "green", "purple")
OKABE_ITO = {
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#F0E442",  # yellow
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#000000",  # black
}
DEFICIENCIES = ("deuteranomaly", "protanomaly", "tritanomaly")  # at 100: -anopia
# The smallest pairwise distance the safe palette must keep, for every kind of colour vision.
# (Measured: 11.7, bluish green and blue under tritanopia. The standard palette's blue and
# purple come to 5.5 under deuteranopia.)
MIN_DISTANCE = 10.0


def _block(selector: str) -> str:
    css = STYLESHEET.read_text(encoding="utf-8")
    match = re.search(re.escape(selector) + r"\s*\{(?P<body>[^}]*)\}", css)
    assert match, f"{selector} is not in the stylesheet"
    return match.group("body")


def _properties(selector: str, prefix: str) -> dict[str, str]:
    # Comments may sit among the declarations; only "--name: #hex;" counts.
    found = re.findall(r"--" + prefix + r"([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", _block(selector))
    return {name: value.upper() for name, value in found}


def _safe() -> dict[str, str]:
    return _properties('[data-palette="okabe_ito"]', "c-")


def _seen(hex_colour: str, deficiency: str | None) -> list[float]:
    """The colour as sRGB (0-1), as someone with ``deficiency`` (None: typical vision) sees it."""
    rgb = [int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    if deficiency is None:
        return rgb
    cvd = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
    # The simulation can leave the gamut a little; a screen cannot show more than 0-1.
    return [min(1.0, max(0.0, float(c))) for c in cspace_convert(rgb, cvd, "sRGB1")]


def _closest_pair(colours: dict[str, str], deficiency: str | None) -> tuple[float, str, str]:
    seen = {name: _seen(value, deficiency) for name, value in colours.items()}
    return min(
        (float(deltaE(seen[a], seen[b], input_space="sRGB1")), a, b)
        for a, b in itertools.combinations(seen, 2)
    )


def _standard_colours() -> dict[str, str]:
    css = STYLESHEET.read_text(encoding="utf-8")
    root = next(body for body in re.findall(r":root\s*\{([^}]*)\}", css) if "--c-red" in body)
    found = re.findall(r"--c-([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;", root)
    return {name: value.upper() for name, value in found}


# --------------------------------------------------------------------------------------------
# The palette


def test_the_safe_palette_gives_each_game_colour_an_okabe_ito_colour() -> None:
    safe = _safe()
    assert set(safe) == set(GAME_COLOURS)
    assert set(safe.values()) <= OKABE_ITO
    assert len(set(safe.values())) == len(GAME_COLOURS)


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_the_five_game_colours_stay_apart_for_every_kind_of_colour_vision(
    deficiency: str | None,
) -> None:
    distance, first, second = _closest_pair(_safe(), deficiency)
    assert distance >= MIN_DISTANCE, f"{first} and {second}: ΔE' {distance:.1f}"


def test_the_standard_colours_merge_for_deuteranopia_which_is_why_the_safe_palette_exists() -> None:
    standard = _standard_colours()
    assert set(standard) == set(GAME_COLOURS)
    distance, first, second = _closest_pair(standard, "deuteranomaly")
    assert distance < MIN_DISTANCE
    assert {first, second} == {"blue", "purple"}


@pytest.mark.parametrize("deficiency", [None, *DEFICIENCIES])
def test_riff_raff_cargo_colours_stay_apart_too(deficiency: str | None) -> None:
    owners = _properties('[data-palette="okabe_ito"]', "owner-")
    four = {seat: owners[seat] for seat in ("0", "1", "2", "3")}  # Riff Raff seats 2-4 players
    assert set(four.values()) <= OKABE_ITO
    distance, first, second = _closest_pair(four, deficiency)
    assert distance >= MIN_DISTANCE, f"seats {first} and {second}: ΔE' {distance:.1f}"


# --------------------------------------------------------------------------------------------
# Who plays with it, and which trials say so


@pytest.mark.parametrize(
    ("session_palette", "colour_safe", "expected"),
    [
        ("standard", False, "standard"),
        ("standard", True, "okabe_ito"),
        ("okabe_ito", False, "okabe_ito"),
        ("okabe_ito", True, "okabe_ito"),
    ],
)
def test_a_tablet_uses_the_safe_palette_when_the_session_or_its_student_asks(
    session_palette: str, colour_safe: bool, expected: str
) -> None:
    assert palette_for_player(session_palette=session_palette, colour_safe=colour_safe) == expected


def test_only_games_whose_stimulus_is_a_colour_flag_their_trials() -> None:
    assert trial_accommodation(game="palm_strike", palette="okabe_ito") == (
        COLOUR_SAFE_ACCOMMODATION
    )
    assert trial_accommodation(game="palm_strike", palette="standard") is None
    assert trial_accommodation(game="commotion", palette="okabe_ito") is None
    assert trial_accommodation(game="riff_raff", palette="okabe_ito") is None
