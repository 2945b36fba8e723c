"""A full Commotion table (one child, five bots) on a tablet held either way: every centre
pile stays whole on screen and tappable (issue 20, item 6), and every opponent's refill count
in the strip above is whole too."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
# Enough piles to have filled two rows before the fix (the issue measured 16-18).
ENOUGH_PILES = 12
# Bots play quick, but a loaded machine plays slower: the wait ends as soon as enough are out.
WAIT_S = 240
PILE_MIN_PX = 56

# Every pile: its card's box, its number's box, the centre box, and what a tap at the
# pile's middle would hit. Measured in the page, as the child's finger would meet it.
MEASURE = """() => {
  const centre = document.querySelector('[data-centre]').getBoundingClientRect();
  const piles = [...document.querySelectorAll('[data-centre] .cm-pile')].map((pile) => {
    const box = pile.getBoundingClientRect();
    const face = pile.querySelector('.cm-face').getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {
      box: [box.left, box.top, box.right, box.bottom],
      face: [face.left, face.top, face.right, face.bottom],
      font: parseFloat(getComputedStyle(pile.querySelector('.cm-card')).fontSize),
      number: pile.querySelector('.cm-card').classList.contains('cm-number'),
      card: (({left, top, right, bottom}) => [left, top, right, bottom])(
        pile.querySelector('.cm-card').getBoundingClientRect()),
      tappable: !!hit && pile.contains(hit),
    };
  });
  return {
    centre: [centre.left, centre.top, centre.right, centre.bottom],
    piles,
    width: window.innerWidth,
    height: window.innerHeight,
  };
}"""


# Every opponent in the strip: the boxes of what it says (name, points, refill count) that
# are shown, the strip's box, and whether a text is cut short inside its own box.
STRIP = """() => {
  const strip = document.querySelector('[data-others]').getBoundingClientRect();
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).display !== 'none';
  const opponents = [...document.querySelectorAll('[data-others] .cm-opponent')].map((o) => ({
    texts: [...o.querySelectorAll('.cm-opponent-refill, .cm-opponent-points, .cm-opponent-name')]
      .filter(shown).map((el) => ({ text: el.textContent, box: box(el), kind: el.className,
                                    cut: el.scrollWidth > el.clientWidth + 1 })),
    box: box(o),
  }));
  return { strip: [strip.left, strip.top, strip.right, strip.bottom], opponents,
           width: window.innerWidth, height: window.innerHeight };
}"""


def _check_strip(tablet: Page, label: str) -> None:
    """Each opponent's refill count (and points, when shown) is whole on screen: inside the
    strip, which cuts off what overflows it, and not cut short in its own box."""
    seen: dict[str, Any] = tablet.evaluate(STRIP)
    screen = [0.0, 0.0, float(seen["width"]), float(seen["height"])]
    assert len(seen["opponents"]) == 5, seen
    for index, opponent in enumerate(seen["opponents"]):
        where = f"{label}: opponent {index}"
        assert _inside(opponent["box"], seen["strip"]), f"{where}: cut by the strip {opponent}"
        counts = [t for t in opponent["texts"] if t["kind"] == "cm-opponent-refill"]
        assert counts, f"{where}: no refill count shown {opponent}"
        for text in opponent["texts"]:
            assert _inside(text["box"], screen), f"{where}: {text['text']!r} off screen"
            assert _inside(text["box"], opponent["box"]), f"{where}: {text['text']!r} sticks out"
        for text in counts:
            assert not text["cut"], f"{where}: {text['text']!r} is cut short"


# The centre's last fit was made for this screen size and for the piles now on it.
FITTED = """(size) => {
  const centre = document.querySelector('[data-centre]');
  const piles = centre.querySelectorAll('.cm-pile').length;
  return centre.dataset.fittedFor === size + piles;
}"""


def _inside(inner: list[float], outer: list[float]) -> bool:
    return (
        inner[0] >= outer[0] - 0.5
        and inner[1] >= outer[1] - 0.5
        and inner[2] <= outer[2] + 0.5
        and inner[3] <= outer[3] + 0.5
    )


def _check_piles(tablet: Page, label: str) -> int:
    seen: dict[str, Any] = tablet.evaluate(MEASURE)
    screen = [0.0, 0.0, float(seen["width"]), float(seen["height"])]
    for index, pile in enumerate(seen["piles"]):
        where = f"{label}: pile {index} of {len(seen['piles'])}"
        assert _inside(pile["face"], screen), f"{where}: its number is off screen {pile}"
        assert _inside(pile["box"], seen["centre"]), f"{where}: cut off by the centre {pile}"
        assert pile["box"][2] - pile["box"][0] >= PILE_MIN_PX - 0.5, f"{where}: too narrow"
        if pile["number"]:
            assert pile["font"] >= 20, f"{where}: number too small to read"
        else:
            # START and STOP are sized to the card (a fifth of its width), so the word is
            # always whole on it, however small the piles get.
            assert _inside(pile["face"], pile["card"]), f"{where}: its word is cut off {pile}"
        assert pile["tappable"], f"{where}: a tap at its middle hits something else"
    return len(seen["piles"])


def _create_full_table(teacher: Page) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Commotion")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill("6")
    teacher.get_by_label("Refill pile").fill("13")
    teacher.get_by_label("Target score").fill("150")
    teacher.get_by_label("Bot speed").select_option("quick")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


@pytest.mark.timeout(WAIT_S + 90)
def test_six_seats_keep_every_centre_pile_whole_and_tappable_both_ways(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-commotion-layout")
    _create_class(teacher)
    code = _create_full_table(teacher)
    ava = new_tablet()
    _join_by_roster(ava, code, "Ava")
    teacher.get_by_role("button", name="Start").click()
    expect(ava.get_by_role("region", name="Centre piles")).to_be_visible(timeout=8000)
    ava.wait_for_function(
        "() => pageModules.commotion?.tablet && pageModules.commotion?.tablet.view"
    )
    assert len(ava.evaluate("() => pageModules.commotion?.tablet.view.players")) == 6

    deadline = time.monotonic() + WAIT_S
    checked: dict[str, int] = {"landscape": 0, "portrait": 0}
    most = 0
    while time.monotonic() < deadline and most < ENOUGH_PILES:
        view: dict[str, Any] = ava.evaluate("() => pageModules.commotion?.tablet.view")
        if view["phase"] != "playing" or len(view["centre"]) <= most:
            ava.wait_for_timeout(300)
            continue
        most = len(view["centre"])
        # Both ways round, every time the centre grows (the piles reflow as it does).
        for name, size in (("portrait", PORTRAIT), ("landscape", LANDSCAPE)):
            ava.set_viewport_size(size)
            # The resize handler re-fits the piles for this size (whenever it gets to run).
            ava.wait_for_function(FITTED, arg=f"{size['width']}x{size['height']}:")
            checked[name] = max(checked[name], _check_piles(ava, f"{name}, {most} piles"))
            _check_strip(ava, f"{name}, {most} piles")
    assert min(checked.values()) >= ENOUGH_PILES, checked
    ava.set_viewport_size(LANDSCAPE)
    screenshot(ava, "commotion-six-seats-landscape")
    ava.set_viewport_size(PORTRAIT)
    screenshot(ava, "commotion-six-seats-portrait")
