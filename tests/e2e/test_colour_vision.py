"""Every child can play, on real tablets: the safe colours where a student or a session needs
them, a shape for every colour in Commotion and Riff Raff, and colour words in the language of
the game whatever language the tablet shows."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from tests.classroom.people.test_colour_vision import _standard_colours
from tests.e2e.conftest import PROJECTOR, screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster
from tests.e2e.test_riff_raff import _turn

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

GAME_COLOURS = ("red", "yellow", "blue", "green", "purple")
OKABE_ITO = {
    "red": "#D55E00",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "green": "#009E73",
    "purple": "#CC79A7",
}
SHAPES = {"red": "triangle", "yellow": "star", "blue": "square", "green": "circle"}
CHINESE_WORDS = {"紅", "黃", "藍", "綠", "紫"}


def _create_session(
    teacher: Page,
    game: str,
    *,
    with_class: bool = True,
    colours: str = "Standard colours",
    language: str = "English",
    players: int = 2,
    settings: dict[str, str] | None = None,
) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label=game)
    if with_class:
        teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill(str(players))
    teacher.get_by_label("Colours", exact=True).select_option(label=colours)
    if game == "Palm Strike":  # the only game with colour words: the others do not ask
        teacher.get_by_label("Colour words in").select_option(label=language)
    for label, value in (settings or {}).items():
        field = teacher.get_by_label(label)
        if field.evaluate("node => node.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


AUTO_FLIPS = {
    "Flip pacing": "auto",
    "Auto-flip every (seconds)": "2",
    "Response window (seconds)": "1.5",
}


def _palette(tablet: Page, root: str) -> dict[str, str]:
    """The game colours the tablet's page really uses (computed custom properties)."""
    values: dict[str, str] = tablet.evaluate(
        """([root, names]) => {
            const style = getComputedStyle(document.querySelector(root));
            const value = name => style.getPropertyValue('--c-' + name).trim();
            return Object.fromEntries(names.map(name => [name, value(name)]));
        }""",
        [root, list(GAME_COLOURS)],
    )
    return {name: value.upper() for name, value in values.items()}


def _hex(rgb: str) -> str:
    """'rgb(213, 94, 0)' -> '#D55E00'."""
    channels = [int(part) for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    return "#" + "".join(f"{channel:02X}" for channel in channels)


def _wait_for_flip(tablet: Page) -> dict[str, Any]:
    tablet.wait_for_function(
        "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view"
        " && pageModules.palm_strike?.tablet.view.public",
        timeout=15000,
    )
    expect(tablet.locator(".pcard-big")).to_be_visible()
    card: dict[str, Any] = tablet.evaluate("pageModules.palm_strike?.tablet.view.public")
    return card


def test_a_colour_safe_student_plays_palm_strike_on_the_okabe_ito_colours(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-colours")
    _create_class(teacher)
    # The teacher turns Ava's safe colours on from the class page (an htmx row swap).
    toggle = teacher.get_by_role("button", name="Ava: Safe colours")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(teacher.get_by_role("button", name="Ava: Safe colours")).to_have_attribute(
        "aria-pressed", "true"
    )
    screenshot(teacher, "colour-safe-class-page")
    code = _create_session(teacher, "Palm Strike", settings=AUTO_FLIPS)
    expect(teacher.get_by_text("Colours: Standard colours")).to_be_visible()
    ava, ben = new_tablet(), new_tablet()
    _join_by_roster(ava, code, "Ava")
    _join_by_roster(ben, code, "Ben")
    teacher.get_by_role("button", name="Start", exact=True).click()

    for tablet in (ava, ben):
        expect(tablet.get_by_role("region", name="Your cards")).to_be_visible(timeout=8000)
    assert _palette(ava, ".ps") == OKABE_ITO
    assert _palette(ben, ".ps") == _standard_colours()  # the stylesheet's :root colours
    # What is drawn follows: the flipped card's background and ink are Okabe-Ito colours.
    card = _wait_for_flip(ava)
    drawn = ava.evaluate(
        """() => {
            const card = document.querySelector('.pcard-big');
            return [getComputedStyle(card).backgroundColor,
                    getComputedStyle(card.querySelector('.pcard-word')).color];
        }"""
    )
    assert _hex(drawn[0]) == OKABE_ITO[card["bg"]]
    assert _hex(drawn[1]) == OKABE_ITO[card["ink"]]
    hand = ava.locator(".ps-hand .pcard").first
    assert _hex(hand.evaluate("node => getComputedStyle(node).backgroundColor")) in set(
        OKABE_ITO.values()
    )
    screenshot(ava, "colour-safe-palm-strike-ava")
    screenshot(ben, "colour-safe-palm-strike-ben-standard")


def test_a_chinese_session_shows_chinese_colour_words_on_an_english_tablet(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-chinese-words")
    code = _create_session(
        teacher, "Palm Strike", with_class=False, language="繁體中文", settings=AUTO_FLIPS
    )
    tablet = new_tablet()
    tablet.goto(f"/join/{code}/")
    tablet.get_by_label("Your name").fill("Kit")
    tablet.get_by_role("button", name="Join").click()
    expect(tablet.get_by_text("Hi, Kit!")).to_be_visible()
    teacher.get_by_role("button", name="Start", exact=True).click()

    card = _wait_for_flip(tablet)
    word = tablet.locator(".pcard-big .pcard-word")
    assert word.inner_text() in CHINESE_WORDS
    assert word.get_attribute("lang") == "zh-hant"
    assert tablet.evaluate("document.documentElement.lang") == "en"  # the page stays English
    expect(tablet.get_by_role("region", name="Your cards")).to_be_visible()
    assert card["word"] in GAME_COLOURS
    screenshot(tablet, "colour-words-zh-hant-on-english-tablet")
    # The projector (an English page too) shows each table's card in the game's language.
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(teacher.url.rstrip("/") + "/projector/")
    face = projector.locator(".projector-card .public-face")
    expect(face).to_be_visible(timeout=10000)
    assert face.inner_text() in CHINESE_WORDS
    assert face.get_attribute("lang") == "zh-hant"
    screenshot(projector, "colour-words-zh-hant-projector")


def test_commotion_cards_carry_a_shape_for_their_colour_on_the_safe_palette(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-commotion-shapes")
    _create_class(teacher)
    code = _create_session(
        teacher,
        "Commotion",
        colours="Colour-vision-safe (Okabe-Ito)",
        players=3,
        settings={"Bot speed": "steady"},
    )
    tablet = new_tablet()
    _join_by_roster(tablet, code, "Ava")
    teacher.get_by_role("button", name="Start", exact=True).click()
    tablet.wait_for_function(
        "document.querySelectorAll('[data-tableau] .cm-card').length >= 5", timeout=10000
    )
    assert _palette(tablet, ".cm") == OKABE_ITO
    cards = tablet.evaluate(
        """() => [...document.querySelectorAll('.cm-card')].map(card => {
            const colours = ['red', 'yellow', 'blue', 'green'];
            const symbol = card.querySelector('.cm-symbol');
            return {
                colour: colours.find(c => card.classList.contains('cm-' + c)) || null,
                symbol: symbol ? symbol.dataset.symbol : null,
                background: getComputedStyle(card).backgroundColor,
            };
        })"""
    )
    numbered = [card for card in cards if card["colour"]]
    assert numbered, cards
    for card in numbered:
        assert card["symbol"] == SHAPES[card["colour"]]
        assert _hex(card["background"]) == OKABE_ITO[card["colour"]]
    assert all(card["symbol"] is None for card in cards if not card["colour"])  # START/STOP
    screenshot(tablet, "colour-safe-commotion-shapes")


@pytest.mark.timeout(150)
def test_riff_raff_cargo_carries_its_players_shape_on_the_safe_palette(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-riff-raff-shapes")
    _create_class(teacher)
    code = _create_session(
        teacher,
        "Riff Raff",
        colours="Colour-vision-safe (Okabe-Ito)",
        settings={"Wave strength": "0.5", "Catch window (seconds)": "3"},
    )
    tablet = new_tablet()
    _join_by_roster(tablet, code, "Ava")
    teacher.get_by_role("button", name="Start", exact=True).click()
    tablet.wait_for_function(
        "pageModules.riff_raff?.tablet && pageModules.riff_raff?.tablet.view", timeout=10000
    )
    # Count the shapes the canvas draws on cargo from here on.
    tablet.evaluate(
        """() => {
            window.__shapes = {};
            const draw = pageModules.colour_symbols.symbols.draw;
            pageModules.colour_symbols.symbols.draw = function (ctx, name) {
                window.__shapes[name] = (window.__shapes[name] || 0) + 1;
                return draw.apply(this, arguments);
            };
        }"""
    )
    colours = tablet.evaluate("pageModules.riff_raff?.tablet.ownerColours")
    assert [colour.upper() for colour in colours] == ["#000000", "#D55E00", "#009E73", "#F0E442"]
    # The player list shows each player's cargo shape too (circle, triangle…).
    dots = tablet.evaluate(
        """() => [...document.querySelectorAll('.rr-player .owner-dot')].map(dot => ({
            owner: [...dot.classList].find(c => /^owner-\\d$/.test(c)),
            clip: getComputedStyle(dot).clipPath,
            radius: getComputedStyle(dot).borderTopLeftRadius,
        }))"""
    )
    by_owner = {dot["owner"]: dot for dot in dots}
    assert by_owner["owner-0"]["radius"] == "50%"  # a circle
    assert by_owner["owner-1"]["clip"].startswith("polygon")  # a triangle

    deadline = time.monotonic() + 90
    shapes: dict[str, int] = {}
    while time.monotonic() < deadline and sum(shapes.values()) < 30:
        _turn(tablet, careful=True)
        shapes = tablet.evaluate("window.__shapes")
        tablet.wait_for_timeout(200)
    assert set(shapes) <= {"circle", "triangle"}, shapes  # Ava (seat 0) and a bot (seat 1)
    assert sum(shapes.values()) >= 30, shapes
    screenshot(tablet, "colour-safe-riff-raff-cargo")
